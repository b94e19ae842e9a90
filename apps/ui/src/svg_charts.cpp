// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/svg_charts.hpp>

#include <starling/app/ui/html.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

namespace starling::app::ui {

namespace {

constexpr int chart_width = 720;

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

int month_number(std::chrono::sys_seconds time) {
    const std::chrono::year_month_day day{std::chrono::floor<std::chrono::days>(time)};
    return static_cast<int>(day.year()) * 12 + static_cast<int>(static_cast<unsigned>(day.month())) - 1;
}

std::string month_name(int month) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02d", month / 12, month % 12 + 1);
    return text;
}

std::string svg_open(int height, std::string_view description) {
    return "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" + std::to_string(chart_width) +
           "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(chart_width) + " " +
           std::to_string(height) + "\"><title>" + escape_html(description) + "</title>";
}

std::string text_at(double x, double y, std::string_view text, std::string_view anchor = "start") {
    return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" text-anchor=\"" + std::string(anchor) + "\">" +
           escape_html(text) + "</text>";
}

std::string rect(double x, double y, double width, double height, std::string_view css_class, std::string_view tip) {
    return "<rect class=\"" + std::string(css_class) + "\" x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" +
           number(width) + "\" height=\"" + number(height) + "\"><title>" + escape_html(tip) + "</title></rect>";
}

} // namespace

std::vector<TierCounts> memories_by_month(const std::vector<core::IndexEntry> &entries, std::size_t max_months) {
    if (entries.empty()) {
        return {};
    }
    std::map<int, std::pair<std::size_t, std::size_t>> created; // month -> (short, long)
    for (const auto &entry : entries) {
        auto &counts = created[month_number(entry.created)];
        (entry.tier == core::Tier::short_term ? counts.first : counts.second) += 1;
    }
    std::vector<TierCounts> months;
    std::size_t short_total = 0;
    std::size_t long_total = 0;
    for (int month = created.begin()->first; month <= created.rbegin()->first; ++month) {
        if (const auto found = created.find(month); found != created.end()) {
            short_total += found->second.first;
            long_total += found->second.second;
        }
        months.push_back({month_name(month), short_total, long_total});
    }
    if (months.size() > max_months) {
        months.erase(months.begin(), months.end() - static_cast<std::ptrdiff_t>(max_months));
    }
    return months;
}

std::string memories_over_time_chart(const std::vector<TierCounts> &months) {
    constexpr int height = 220;
    constexpr double top = 20;
    constexpr double bottom = 190;
    constexpr double left = 40;
    std::size_t most = 1;
    for (const auto &month : months) {
        most = std::max(most, month.short_term + month.long_term);
    }
    std::string svg = svg_open(height, "Memories at the end of each month, by tier");
    svg += "<line class=\"axis\" x1=\"" + number(left) + "\" y1=\"" + number(bottom) + "\" x2=\"" +
           std::to_string(chart_width - 10) + "\" y2=\"" + number(bottom) + "\"/>";
    svg += text_at(left - 4, top + 4, std::to_string(most), "end");
    svg += text_at(left - 4, bottom, "0", "end");
    const double slot = (chart_width - 10 - left) / static_cast<double>(std::max<std::size_t>(months.size(), 1));
    const double scale = (bottom - top) / static_cast<double>(most);
    const std::size_t label_every = std::max<std::size_t>(1, months.size() / 8);
    for (std::size_t index = 0; index < months.size(); ++index) {
        const auto &month = months[index];
        const double x = left + slot * static_cast<double>(index) + slot * 0.15;
        const double long_height = static_cast<double>(month.long_term) * scale;
        const double short_height = static_cast<double>(month.short_term) * scale;
        svg += rect(x, bottom - long_height, slot * 0.7, long_height, "tier-long",
                    month.month + ": " + std::to_string(month.long_term) + " long-term");
        svg += rect(x, bottom - long_height - short_height, slot * 0.7, short_height, "tier-short",
                    month.month + ": " + std::to_string(month.short_term) + " short-term");
        if (index % label_every == 0 || index + 1 == months.size()) {
            svg += text_at(x + slot * 0.35, bottom + 16, month.month, "middle");
        }
    }
    return svg + "</svg>";
}

std::string injections_per_session_chart(const std::vector<LabelledCount> &sessions) {
    constexpr double row = 20;
    constexpr double left = 230;
    const int height = static_cast<int>(row * static_cast<double>(sessions.size()) + 30);
    std::size_t most = 1;
    for (const auto &session : sessions) {
        most = std::max(most, session.count);
    }
    std::string svg = svg_open(height, "Memories injected into each session");
    const double scale = (chart_width - left - 50) / static_cast<double>(most);
    for (std::size_t index = 0; index < sessions.size(); ++index) {
        const auto &session = sessions[index];
        const double y = 10 + row * static_cast<double>(index);
        std::string label = session.label.size() > 34 ? session.label.substr(0, 33) + "…" : session.label;
        svg += text_at(left - 6, y + 13, label, "end");
        const double width = std::max(1.0, static_cast<double>(session.count) * scale);
        svg += rect(left, y + 3, width, row - 6, "bar", session.label + ": " + std::to_string(session.count) + " injected");
        svg += text_at(left + width + 4, y + 13, std::to_string(session.count));
    }
    return svg + "</svg>";
}

std::string decay_timeline_chart(const std::vector<DueMemory> &due, int horizon_days) {
    constexpr double row = 18;
    constexpr double left = 260;
    constexpr double right = chart_width - 20;
    const int horizon = std::max(horizon_days, 1);
    const int height = static_cast<int>(row * static_cast<double>(due.size()) + 40);
    std::string svg = svg_open(height, "When the decay policy acts on the memories due next");
    const double scale = (right - left) / static_cast<double>(horizon);
    const double axis = row * static_cast<double>(due.size()) + 12;
    svg += "<line class=\"axis\" x1=\"" + number(left) + "\" y1=\"" + number(axis) + "\" x2=\"" + number(right) +
           "\" y2=\"" + number(axis) + "\"/>";
    for (int tick = 0; tick <= 4; ++tick) {
        const int day = horizon * tick / 4;
        svg += text_at(left + scale * day, axis + 16, tick == 0 ? "today" : "+" + std::to_string(day) + " d", "middle");
    }
    for (std::size_t index = 0; index < due.size(); ++index) {
        const auto &memory = due[index];
        const double y = 6 + row * static_cast<double>(index);
        std::string label = memory.label.size() > 40 ? memory.label.substr(0, 39) + "…" : memory.label;
        svg += text_at(left - 6, y + 11, label, "end");
        const std::string css_class = memory.action == "archive"       ? "due-archive"
                                      : memory.action == "mark_review" ? "due-review"
                                                                       : "due-other";
        const double x = left + scale * std::clamp(memory.in_days, 0, horizon);
        svg += rect(x - 4, y + 2, 8, row - 6, css_class,
                    memory.label + ": " + memory.action + " in " + std::to_string(memory.in_days) + " days");
    }
    return svg + "</svg>";
}

} // namespace starling::app::ui
