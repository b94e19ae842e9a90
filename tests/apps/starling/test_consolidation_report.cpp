// SPDX-License-Identifier: Apache-2.0
#include "consolidation_report.hpp"

#include <catch2/catch.hpp>

using namespace starling;
using Kind = sdk::LifecycleAction::Kind;

namespace {

core::AppliedAction applied(Kind kind, std::string key, bool done, std::string result, std::string into = {}) {
    return {{kind, std::move(key), std::move(into), "because"}, done, std::move(result)};
}

} // namespace

TEST_CASE("consolidation actions are reported in the skill's groups, each done, planned or skipped",
          "[consolidation][report]") {
    CHECK(app::group_of({Kind::promote, "k", "", ""}) == app::ConsolidationGroup::promoted);
    CHECK(app::group_of({Kind::merge, "k", "i", ""}) == app::ConsolidationGroup::merged);
    CHECK(app::group_of({Kind::archive, "k", "", ""}) == app::ConsolidationGroup::forgotten);
    CHECK(app::group_of({Kind::mark_review, "k", "", ""}) == app::ConsolidationGroup::reviewed);
    CHECK(app::group_of({Kind::clear_review, "k", "", ""}) == app::ConsolidationGroup::reviewed);

    CHECK(app::status_of(applied(Kind::archive, "k", true, "archive id"), false) == app::ActionStatus::done);
    CHECK(app::status_of(applied(Kind::archive, "k", false, "skipped: the memory is pinned"), false) ==
          app::ActionStatus::skipped);
    CHECK(app::status_of(applied(Kind::archive, "k", false, "planned"), true) == app::ActionStatus::planned);
    CHECK(app::status_of(applied(Kind::archive, "k", false, "skipped: the memory is pinned"), true) ==
          app::ActionStatus::skipped);
}

TEST_CASE("the consolidation report counts each group, skipped ones apart, and lists every memory",
          "[consolidation][report]") {
    core::ConsolidationReport report;
    report.memories = 9;
    report.actions = {applied(Kind::promote, "memory/user/short/a.md", true, "memory/user/long/a.md"),
                      applied(Kind::merge, "memory/user/long/b.md", true, "archive-1", "memory/user/long/c.md"),
                      applied(Kind::archive, "memory/user/short/d.md", true, "archive-2"),
                      applied(Kind::archive, "memory/user/short/e.md", false, "skipped: the memory is pinned"),
                      applied(Kind::mark_review, "memory/user/long/f.md", true, "marked")};
    const core::IndexedMemories nothing_listed;
    const app::ConsolidationRun run{report, false, std::chrono::sys_seconds{}, std::chrono::duration<double>{0.5},
                                    nothing_listed};

    const auto json = app::consolidation_groups_json(run);
    CHECK(json["counts"] == nlohmann::json{{"analysed", 9}, {"promoted", 1}, {"merged", 1}, {"forgotten", 1},
                                           {"reviewed", 1}, {"other", 0}, {"skipped", 1}});
    REQUIRE(json["forgotten"].size() == 2);
    CHECK(json["forgotten"][1]["key"] == "memory/user/short/e.md");
    CHECK(json["forgotten"][1]["status"] == "skipped");
    CHECK(json["merged"][0]["into"] == "memory/user/long/c.md");
    CHECK(json["reviewed"][0]["action"] == "mark_review");
    CHECK(json["promoted"][0]["id"].is_null());

    const auto text = app::consolidation_text(run);
    CHECK_THAT(text, Catch::Contains("| Promoted to long-term | 1 |") && Catch::Contains("| Forgotten (archived) | 1 |") &&
                         Catch::Contains("| Skipped (pinned, or changed meanwhile) | 1 |"));
    CHECK_THAT(text, Catch::Contains("memory/user/short/a.md\n    because → memory/user/long/a.md"));
    CHECK_THAT(text, Catch::Contains("memory/user/short/e.md\n    because — skipped: the memory is pinned"));
    CHECK_THAT(text, Catch::Contains("mark_review: memory/user/long/f.md"));
}
