// SPDX-License-Identifier: Apache-2.0
// `starling health` and the report of `starling consolidate`, through the real binary, on stores
// made with `starling remember --force` and files written by hand.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::ProcessOptions;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";

nlohmann::json remembered(const ScratchHome &home, const std::vector<std::string> &words,
                          const std::string &now = "2026-11-22T09:00:00Z") {
    std::vector<std::string> arguments{"remember", "--force", "--json"};
    arguments.insert(arguments.end(), words.begin(), words.end());
    const auto result = run_process(kStarling, arguments, home.options_at(now));
    INFO(result.stderr_text);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.stdout_text);
}

/// `starling health --json`: its exit code and its report.
std::pair<int, nlohmann::json> health_json(const ScratchHome &home) {
    const auto result = run_process(kStarling, {"health", "--json"}, home.options());
    INFO(result.stderr_text);
    return {result.exit_code, nlohmann::json::parse(result.stdout_text)};
}

std::vector<std::string> ids_in(const nlohmann::json &memories) {
    std::vector<std::string> ids;
    for (const auto &memory : memories) {
        ids.push_back(memory["id"]);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

/// A store with one of each thing health reports: a pinned memory, a stale one, a near-duplicate
/// written by hand, a hand-written memory with a layer, an orphaned link and few reads for many
/// injections, and a file that is no memory.
struct TroubledStore {
    ScratchHome home{"health"};
    std::string pinned_id;
    std::string stale_id;
    const std::string linking_id = "h4nd7xa";
    const std::string duplicate_id = "d7p2c4t";
    const std::string broken_key = "memory/user/short/2026-11-02_broken.md";
    const std::string linking_key = "memory/user/long/2026-11-01_runbook.md";

    TroubledStore() {
        pinned_id = remembered(home, {"Deploys go out on Tuesdays."})["id"];
        const auto stale = remembered(home, {"--type", "project", "The old build server was jenkins-2."},
                                      "2026-05-01T09:00:00Z");
        stale_id = stale["id"];
        REQUIRE(run_process(kStarling, {"unpin", stale_id}, home.options()).exit_code == 0);
        home.write_file("home/" + linking_key,
                        "---\nid: " + linking_id +
                            "\ntype: reference\nsummary: The runbook for releases lives in ops/runbook.md\n"
                            "created: 2026-11-01T09:00:00Z\nlast_accessed: 2026-11-20T09:00:00Z\naccess_count: 2\n"
                            "layer: semantic\nlinks: [related_to:" +
                            pinned_id + ", supersedes:zzzzzzz]\ninjection_count: 8\n---\nSee ops/runbook.md.\n");
        home.write_file("home/memory/user/short/2026-11-03_deploys.md",
                        "---\nid: " + duplicate_id +
                            "\ntype: feedback\nsummary: Deploys go out on Tuesdays only\n"
                            "created: 2026-11-03T09:00:00Z\n---\nOnly on Tuesdays.\n");
        home.write_file("home/" + broken_key, "---\nsummary: [unclosed\n---\nnot a memory\n");
    }
};

} // namespace

TEST_CASE("health reports each section of a troubled store, and exits 1", "[e2e][health]") {
    const TroubledStore store;
    const auto [exit_code, report] = health_json(store.home);
    CHECK(exit_code == 1);
    CHECK(report["schema"] == 1);
    CHECK(report["healthy"] == false);
    CHECK(report["memories"] == 4);
    CHECK(report["attention"] ==
          nlohmann::json{"stale", "effectiveness", "duplicates", "links", "unreadable"});
    const auto &sections = report["sections"];

    const auto &memories = sections["memories"];
    CHECK(memories["status"] == "ok");
    CHECK(memories["by_scope"] == nlohmann::json{{"user", 4}});
    CHECK(memories["by_tier"] == nlohmann::json{{"long", 1}, {"short", 3}});
    CHECK(memories["by_type"] == nlohmann::json{{"feedback", 2}, {"project", 1}, {"reference", 1}});
    CHECK(memories["by_layer"] == nlohmann::json{{"none", 3}, {"semantic", 1}});

    CHECK(ids_in(sections["pinned"]["memories"]) == std::vector<std::string>{store.pinned_id});

    const auto &stale = sections["stale"];
    CHECK(stale["status"] == "attention");
    REQUIRE(stale["memories"].size() == 1);
    CHECK(stale["memories"][0]["id"] == store.stale_id);
    CHECK(stale["memories"][0]["days_unused"] == 205);
    CHECK(stale["memories"][0]["pinned"] == false);

    const auto &effectiveness = sections["effectiveness"];
    CHECK(effectiveness["judged"] == 1);
    REQUIRE(effectiveness["ineffective"].size() == 1);
    CHECK(effectiveness["ineffective"][0]["id"] == store.linking_id);
    CHECK(effectiveness["ineffective"][0]["reads"] == 1);
    CHECK(effectiveness["ineffective"][0]["injections"] == 8);

    const auto &duplicates = sections["duplicates"];
    CHECK(duplicates["judged_by"] == "decay_policy");
    CHECK(duplicates["policy"] == "collie-tiers");
    REQUIRE(duplicates["pairs"].size() == 1);
    CHECK(ids_in(duplicates["pairs"][0]["memories"]) ==
          std::vector<std::string>{std::min(store.pinned_id, store.duplicate_id), std::max(store.pinned_id, store.duplicate_id)});

    const auto &links = sections["links"];
    CHECK(links["links"] == 2);
    REQUIRE(links["orphaned"].size() == 1);
    CHECK(links["orphaned"][0]["memory"]["id"] == store.linking_id);
    CHECK(links["orphaned"][0]["relation"] == "supersedes");
    CHECK(links["orphaned"][0]["target"] == "zzzzzzz");
    CHECK(ids_in(links["isolated"]) == ids_in(nlohmann::json{{{"id", store.stale_id}}, {{"id", store.duplicate_id}}}));

    REQUIRE(sections["unreadable"]["files"].size() == 1);
    CHECK(sections["unreadable"]["files"][0]["key"] == store.broken_key);

    // The hand-written files were not in the machine index until this listing.
    const auto &index = sections["index"];
    CHECK(index["status"] == "ok");
    CHECK(index["refreshed"]["unindexed"].size() == 2);
    CHECK(index["mismatched"].empty());
    CHECK(sections["size"]["files"].get<int>() >= 5);

    const auto [again_exit_code, again] = health_json(store.home);
    CHECK(again_exit_code == 1);
    CHECK(again["sections"]["index"]["refreshed"]["unindexed"].empty());
}

TEST_CASE("health reads like a report: a verdict per section and what to do", "[e2e][health]") {
    const TroubledStore store;
    const auto result = run_process(kStarling, {"health"}, store.home.options());
    CHECK(result.exit_code == 1);
    const auto &text = result.stdout_text;
    CHECK_THAT(text, Catch::StartsWith("# Memory health report"));
    CHECK_THAT(text, Catch::Contains("Verdict: 5 sections need attention"));
    CHECK_THAT(text, Catch::Contains("## Stale (unused > 90 days) — needs attention\n1 memory unused for more than 90 days"));
    CHECK_THAT(text, Catch::Contains("## Pinned — ok\n1 memory is pinned"));
    CHECK_THAT(text, Catch::Contains("orphaned `supersedes:zzzzzzz` in " + store.linking_id));
    CHECK_THAT(text, Catch::Contains(store.broken_key + ": "));
    CHECK_THAT(text, Catch::Contains("layer  none 3 · semantic 1"));
    CHECK_THAT(text, Catch::Contains("→ review each"));
}

TEST_CASE("health of a store with nothing to do exits 0, and of no store at all creates none", "[e2e][health]") {
    const ScratchHome empty{"health-empty"};
    auto no_store = empty.options();
    no_store.environment["STARLING_HOME"] = (empty.path() / "not-yet").string();
    const auto nothing = run_process(kStarling, {"health"}, no_store);
    CHECK(nothing.exit_code == 0);
    CHECK_THAT(nothing.stdout_text, Catch::Contains("no store yet") && Catch::Contains("Verdict: healthy"));
    CHECK_FALSE(fs::exists(empty.path() / "not-yet"));

    const ScratchHome home{"health-fine"};
    static_cast<void>(remembered(home, {"Reviews need two approvals."}));
    const auto [exit_code, report] = health_json(home);
    CHECK(exit_code == 0);
    CHECK(report["healthy"] == true);
    CHECK(report["attention"].empty());
    CHECK(report["sections"]["links"]["isolated_count"] == 1);
    CHECK(report["sections"]["effectiveness"]["average"].is_null());
    const auto text = run_process(kStarling, {"health"}, home.options()).stdout_text;
    CHECK_THAT(text, Catch::Contains("## Index and files — ok\nthe machine index agrees with the one memory file\n"));
    CHECK_THAT(text, Catch::Contains("no memory links to another (`remember` links a memory to those stored shortly "
                                     "before it in its scope"));
}

TEST_CASE("health refuses what it cannot do, and says why", "[e2e][health]") {
    const ScratchHome home{"health-refusals"};
    static_cast<void>(remembered(home, {"Reviews need two approvals."}));
    CHECK(run_process(kStarling, {"health", "now"}, home.options()).exit_code == 64);
    const auto unknown = run_process(kStarling, {"health", "--fast"}, home.options());
    CHECK(unknown.exit_code == 64);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("--fast"));

    home.write_file("home/starling.toml", "[policies]\ndecay = 3\n");
    const auto bad_config = run_process(kStarling, {"health"}, home.options());
    CHECK(bad_config.exit_code == 1);
    CHECK_THAT(bad_config.stderr_text, Catch::Contains("configuration error"));
    CHECK(bad_config.stdout_text.empty());
    fs::remove(home.path() / "starling.toml");

    auto relative_home = home.options();
    relative_home.environment["STARLING_HOME"] = "relative/home";
    const auto relative = run_process(kStarling, {"health"}, relative_home);
    CHECK(relative.exit_code == 1);
    CHECK_THAT(relative.stderr_text, Catch::Contains("STARLING_HOME") && Catch::Contains("absolute"));

    REQUIRE(::chmod(home.path().c_str(), 0777) == 0);
    const auto open_store = run_process(kStarling, {"health"}, home.options());
    CHECK(open_store.exit_code == 1);
    CHECK_THAT(open_store.stderr_text, Catch::Contains("chmod"));
    CHECK(open_store.stdout_text.empty());
    fs::permissions(home.path(), fs::perms::owner_all);
}

TEST_CASE("consolidate reports in the skill's shape and keeps its original JSON keys", "[e2e][consolidate]") {
    const ScratchHome home{"consolidate-report"};
    // Project notes expire when unread, as collie's did: something for the report to forget.
    std::ofstream{home.path() / "starling.toml"} << "[settings.collie-tiers]\nkeep.types = [\"user\", \"feedback\"]\n";
    const std::string kept = remembered(home, {"--type", "project", "The staging cluster is called blue."})["id"];
    const std::string forgotten = remembered(home, {"--type", "project", "The old build server was jenkins-2."})["id"];
    REQUIRE(run_process(kStarling, {"unpin", forgotten}, home.options()).exit_code == 0);
    const auto month_later = home.options_at("2026-12-22T09:00:00Z");

    const auto dry = run_process(kStarling, {"consolidate", "--dry-run"}, month_later);
    CHECK(dry.exit_code == 0);
    CHECK_THAT(dry.stdout_text, Catch::StartsWith("# Memory consolidation report (dry run"));
    CHECK_THAT(dry.stdout_text, Catch::Contains("| Forgotten (archived) | 1 |") &&
                                    Catch::Contains("| Skipped (pinned, or changed meanwhile) | 1 |"));
    CHECK_THAT(dry.stdout_text, Catch::Contains("## Forgotten (archived)\n- ") &&
                                    Catch::Contains("- " + forgotten + "  memory/user/short/") &&
                                    Catch::Contains("(planned)"));

    const auto result = run_process(kStarling, {"consolidate", "--json"}, month_later);
    REQUIRE(result.exit_code == 0);
    const auto report = nlohmann::json::parse(result.stdout_text);
    for (const char *key : {"memories", "dry_run", "actions", "finished_merges"}) {
        CHECK(report.contains(key));
    }
    CHECK(report["memories"] == 2);
    CHECK(report["counts"]["forgotten"] == 1);
    CHECK(report["counts"]["skipped"] == 1);
    REQUIRE(report["forgotten"].size() == 2);
    for (const auto &item : report["forgotten"]) {
        CHECK(item["status"] == (item["id"] == forgotten ? "done" : "skipped"));
        CHECK((item["id"] == forgotten || item["id"] == kept));
    }
    CHECK(run_process(kStarling, {"show", forgotten}, month_later).exit_code == 1);
}
