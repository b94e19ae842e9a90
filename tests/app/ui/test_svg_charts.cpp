// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/svg_charts.hpp>

#include <catch2/catch.hpp>

#include <chrono>

using namespace starling::app::ui;
using namespace std::chrono;

namespace {

starling::core::IndexEntry created_on(year_month_day day, starling::core::Tier tier) {
    starling::core::IndexEntry entry;
    entry.created = sys_seconds{sys_days{day}.time_since_epoch()};
    entry.tier = tier;
    return entry;
}

std::size_t occurrences(const std::string &text, const std::string &part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

} // namespace

TEST_CASE("memories by month count what was created up to each month's end, gaps included", "[ui][svg]") {
    using starling::core::Tier;
    const std::vector<starling::core::IndexEntry> entries{
        created_on(2026y / 9 / 3, Tier::short_term), created_on(2026y / 9 / 20, Tier::long_term),
        created_on(2026y / 11 / 1, Tier::short_term), created_on(2026y / 11 / 2, Tier::short_term)};
    const auto months = memories_by_month(entries);
    REQUIRE(months.size() == 3);
    CHECK(months[0].month == "2026-09");
    CHECK(months[0].short_term == 1);
    CHECK(months[0].long_term == 1);
    CHECK(months[1].month == "2026-10"); // no memory that month: the totals carry over
    CHECK(months[1].short_term == 1);
    CHECK(months[2].month == "2026-11");
    CHECK(months[2].short_term == 3);
    CHECK(months[2].long_term == 1);
    CHECK(memories_by_month({}).empty());
}

TEST_CASE("memories by month keep the last months, their totals counted from the first", "[ui][svg]") {
    using starling::core::Tier;
    const std::vector<starling::core::IndexEntry> entries{created_on(2025y / 1 / 1, Tier::long_term),
                                                          created_on(2026y / 12 / 1, Tier::long_term)};
    const auto months = memories_by_month(entries, 3);
    REQUIRE(months.size() == 3);
    CHECK(months.front().month == "2026-10");
    CHECK(months.front().long_term == 1);
    CHECK(months.back().long_term == 2);
}

TEST_CASE("the growth chart stacks both tiers in one bar per month", "[ui][svg]") {
    const auto svg = memories_over_time_chart({{"2026-10", 2, 3}, {"2026-11", 4, 5}});
    CHECK(svg.starts_with("<svg class=\"chart\""));
    CHECK(svg.ends_with("</svg>"));
    CHECK(occurrences(svg, "class=\"tier-long\"") == 2);
    CHECK(occurrences(svg, "class=\"tier-short\"") == 2);
    CHECK(svg.find("2026-11: 5 long-term") != std::string::npos);
    CHECK(svg.find("style=") == std::string::npos); // the CSP allows no inline style
}

TEST_CASE("chart labels are escaped", "[ui][svg]") {
    const auto bars = injections_per_session_chart({{"<script>alert(1)</script>", 3}});
    CHECK(bars.find("<script>") == std::string::npos);
    CHECK(bars.find("&lt;script&gt;") != std::string::npos);
    const auto timeline = decay_timeline_chart({{"<img src=x>", "archive", 5}}, 30);
    CHECK(timeline.find("<img") == std::string::npos);
}

TEST_CASE("the decay timeline places each memory on its day, coloured by its action", "[ui][svg]") {
    const auto svg = decay_timeline_chart({{"a", "mark_review", 0}, {"b", "archive", 30}, {"c", "promote", 15}}, 30);
    CHECK(occurrences(svg, "class=\"due-review\"") == 1);
    CHECK(occurrences(svg, "class=\"due-archive\"") == 1);
    CHECK(occurrences(svg, "class=\"due-other\"") == 1);
    CHECK(svg.find("b: archive in 30 days") != std::string::npos);
    CHECK(svg.find(">+30 d<") != std::string::npos);
    CHECK(svg.find(">today<") != std::string::npos);
}

TEST_CASE("the injections chart draws one bar per session, longest for the most", "[ui][svg]") {
    const auto svg = injections_per_session_chart({{"s1", 2}, {"s2", 8}});
    CHECK(occurrences(svg, "class=\"bar\"") == 2);
    CHECK(svg.find("s2: 8 injected") != std::string::npos);
}
