// SPDX-License-Identifier: Apache-2.0
//
// usage through the plugin host: the memory-consolidation skill's forgetting, promotion to core
// memory and orphan check (seed-systems.md §3.4), and its keyword similarity as the duplicate judge,
// each with the skill's defect fixed.
#include <starling/plugins/plugin_registry.hpp>

#include "policies/consolidation/usage/keyword_similarity.hpp"
#include "support/decay_batch.hpp"
#include "support/linked_decay_policy.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using starling::sdk::LifecycleAction;
using starling::test::DecayBatch;
using Kind = LifecycleAction::Kind;

namespace {

constexpr std::int64_t day = starling::test::seconds_per_day;
// 2026-04-06T12:00:00Z
constexpr std::int64_t now = 20'549 * day + 12 * 3600;

/// usage with its defaults patched with `overrides`.
struct Usage : starling::test::LinkedDecayPolicy {
    explicit Usage(const nlohmann::json &overrides = nlohmann::json::object())
        : LinkedDecayPolicy("usage", overrides) {}
};

std::vector<std::string> lines_of(const std::vector<LifecycleAction> &plan) {
    std::vector<std::string> lines;
    for (const auto &action : plan) {
        std::string line = std::string{starling::sdk::to_string(action.kind)} + " " + action.key;
        if (action.kind == Kind::set_field) {
            line += " " + action.field + "=" + starling::sdk::to_json(action.value).dump();
        }
        lines.push_back(line);
    }
    return lines;
}

/// A memory used `uses` times, last `idle_days` ago, `age_days` old, with these judgements.
DecayBatch::Memory learning(std::string name, std::int64_t age_days, std::int64_t idle_days, std::uint32_t uses,
                            nlohmann::json fields = nlohmann::json::object()) {
    return {.key = "memory/user/short/" + name + ".md", .summary = name, .created = now - age_days * day,
            .last_accessed = now - idle_days * day, .access_count = uses, .id = name, .fields = fields.dump()};
}

nlohmann::json judged(int helpful, int unhelpful) {
    return {{"helpful", std::to_string(helpful)}, {"unhelpful", std::to_string(unhelpful)}};
}

} // namespace

TEST_CASE("usage: forgotten when unused over 90 days and used fewer than 3 times, archived with why",
          "[policies][usage]") {
    DecayBatch batch{now};
    batch.add(learning("stale", 200, 91, 2))
        .add(learning("just-90", 200, 90, 2))   // not over 90 days
        .add(learning("used-3", 200, 120, 3))   // used often enough, never judged
        .add(learning("fresh", 10, 10, 1));
    const auto plan = Usage{}.plan(batch);
    CHECK(lines_of(plan) == std::vector<std::string>{"archive memory/user/short/stale.md"});
    CHECK(plan.front().reason == "unused for 91 days (> 90) and used 2 times (< 3)");
}

TEST_CASE("usage: forgotten when unused over 90 days and judged helpful less than 30 % of the time",
          "[policies][usage]") {
    DecayBatch batch{now};
    batch.add(learning("ineffective", 300, 100, 10, judged(2, 8)))
        .add(learning("effective", 300, 100, 10, judged(3, 7)));
    const auto plan = Usage{}.plan(batch);
    CHECK(lines_of(plan) == std::vector<std::string>{"archive memory/user/short/ineffective.md"});
    CHECK(plan.front().reason == "unused for 100 days (> 90) and judged helpful 2 of 10 times (effectiveness 0.20 < 0.30)");
}

TEST_CASE("usage: never forgotten when critical, core, pinned or used within 30 days", "[policies][usage]") {
    DecayBatch batch{now};
    batch.add(learning("critical-flag", 400, 400, 1, {{"critical", "true"}}))
        .add(learning("critical-severity", 400, 400, 1, {{"severity", "critical"}}))
        .add(learning("core", 400, 400, 1, {{"core", "2025-01-01"}}));
    auto pinned = learning("pinned", 400, 400, 1);
    pinned.pinned = true;
    batch.add(pinned);
    CHECK(Usage{}.plan(batch).empty());

    // With the thresholds set so that a memory unused for 20 days would be forgotten, it is not.
    DecayBatch recent{now};
    recent.add(learning("recent", 100, 20, 1));
    CHECK(Usage{nlohmann::json{{"forget", {{"unused_days", 10}}}}}.plan(recent).empty());
    CHECK(lines_of(Usage{nlohmann::json{{"forget", {{"unused_days", 10}, {"recently_used_days", 15}}}}}.plan(recent)) ==
          std::vector<std::string>{"archive memory/user/short/recent.md"});
}

TEST_CASE("usage: promoted to core memory at 15 uses, effectiveness 0.85 and 30 days: long-term, pinned, dated",
          "[policies][usage]") {
    DecayBatch batch{now};
    batch.add(learning("proven", 30, 1, 15, judged(15, 0)))
        .add(learning("young", 29, 1, 15, judged(15, 0)))
        .add(learning("few-uses", 60, 1, 14, judged(14, 0)))
        .add(learning("mixed", 60, 1, 20, judged(17, 3)))     // 0.85 exactly
        .add(learning("doubtful", 60, 1, 20, judged(16, 4)))  // 0.80
        .add(learning("unjudged", 60, 1, 40))                 // effectiveness unknown: not proven
        .add(learning("already", 60, 1, 40, {{"helpful", "40"}, {"core", "2026-01-01"}}));
    const auto plan = Usage{}.plan(batch);
    CHECK(lines_of(plan) == std::vector<std::string>{
                                "set_field memory/user/short/proven.md core=\"2026-04-06\"",
                                "pin memory/user/short/proven.md",
                                "promote memory/user/short/proven.md",
                                "set_field memory/user/short/mixed.md core=\"2026-04-06\"",
                                "pin memory/user/short/mixed.md",
                                "promote memory/user/short/mixed.md",
                            });
    CHECK(plan.front().reason == "core memory: used 15 times, effectiveness 1.00, 30 days old");

    // A long-term memory the user pinned already is only marked.
    DecayBatch long_term{now};
    auto pinned = learning("pinned", 60, 1, 15, judged(15, 0));
    pinned.key = "memory/user/long/pinned.md";
    pinned.pinned = true;
    long_term.add(pinned);
    CHECK(lines_of(Usage{}.plan(long_term)) ==
          std::vector<std::string>{"set_field memory/user/long/pinned.md core=\"2026-04-06\""});
}

TEST_CASE("usage defect fixed: an unhelpful judgement never counts as helpful (the skill's 'NOT HELPFUL' did)",
          "[policies][usage]") {
    // Fifteen uses all judged unhelpful: the skill's substring search counted each as helpful
    // (effectiveness 1.0) and promoted the memory; here its effectiveness is 0.
    DecayBatch batch{now};
    batch.add(learning("useless", 120, 100, 15, judged(0, 15)));
    const auto plan = Usage{}.plan(batch);
    CHECK(lines_of(plan) == std::vector<std::string>{"archive memory/user/short/useless.md"});
    CHECK_THAT(plan.front().reason, Catch::Contains("effectiveness 0.00"));
}

TEST_CASE("usage: a judgement counter that is no number leaves the memory alone, and the rest is planned",
          "[policies][usage]") {
    DecayBatch batch{now};
    batch.add(learning("edited", 400, 400, 1, {{"helpful", "many"}}))
        .add(learning("listed", 400, 400, 1, {{"unhelpful", nlohmann::json::array({"1"})}}))
        .add(learning("stale", 400, 400, 1));
    CHECK(lines_of(Usage{}.plan(batch)) == std::vector<std::string>{"archive memory/user/short/stale.md"});
}

TEST_CASE("usage: links naming no memory are recorded in orphaned_links, and cleared once they do",
          "[policies][usage]") {
    DecayBatch batch{now};
    batch.add(learning("a", 1, 1, 1, {{"links", {"supersedes:gone", "related_to:b", "part_of:lost", "b"}}}))
        .add(learning("b", 1, 1, 1, {{"links", {"derived_from:a"}}}))
        .add(learning("c", 1, 1, 1, {{"links", {"applies_to:b"}}, {"orphaned_links", {"applies_to:old"}}}))
        .add(learning("d", 1, 1, 1, {{"links", {"related_to:gone"}}, {"orphaned_links", {"related_to:gone"}}}));
    const auto plan = Usage{}.plan(batch);
    CHECK(lines_of(plan) == std::vector<std::string>{
                                R"(set_field memory/user/short/a.md orphaned_links=["supersedes:gone","part_of:lost"])",
                                "set_field memory/user/short/c.md orphaned_links=null",
                            });
    CHECK(plan.front().reason == "links naming no memory: supersedes:gone, part_of:lost");
    CHECK(plan.back().reason == "every link names a memory again");
}

TEST_CASE("usage plans from the index alone", "[policies][usage]") { CHECK_FALSE(Usage{}.plans_with_bodies()); }

TEST_CASE("usage defect fixed: the skill's similarity stays within [0, 1] however often a word repeats",
          "[policies][usage]") {
    using namespace starling::usage;
    KeywordRules rules;
    rules.stop_words = {"the", "with"};
    // The skill: 4 occurrences of "pnpm" in the learning, each found in the memory, over a union of
    // 2 distinct keywords: 2.0. A set against a set: 1.
    const auto repeated = keywords_of("pnpm pnpm pnpm pnpm installs", rules);
    const auto memory = keywords_of("Installs with pnpm", rules);
    CHECK(keyword_similarity(repeated, memory) == Approx(1.0));
    CHECK(keywords_of("The API-key of Node.js, v2!", rules) == KeywordSet{"api-key", "node"});
    CHECK(keyword_similarity(keywords_of("deploy staging friday", rules), keywords_of("deploy production", rules)) ==
          Approx(0.25));
    CHECK(keyword_similarity({}, {}) == 0.0);

    DecayBatch batch{now, true};
    auto stored = learning("pnpm", 1, 1, 1);
    stored.summary = "Use pnpm for installs";
    stored.body = "Use pnpm for installs, never npm.\n";
    batch.add(stored);
    auto other = learning("tabs", 1, 1, 1);
    other.summary = "Indent with tabs";
    other.body = "Indent with tabs.\n";
    batch.add(other);
    const auto similarities = Usage{}.similarity("use pnpm pnpm pnpm for installs never npm npm npm", batch);
    CHECK(similarities[0] == Approx(1.0));
    CHECK(similarities[1] == 0.0);
    for (const double similarity : Usage{}.similarity("pnpm pnpm pnpm pnpm pnpm", batch)) {
        CHECK(similarity >= 0.0);
        CHECK(similarity <= 1.0);
    }
}

TEST_CASE("usage: a setting out of range is refused, naming it", "[policies][usage]") {
    CHECK_THROWS_WITH((Usage{nlohmann::json{{"forget", {{"unused_days", 0}}}}}), Catch::Contains("forget.unused_days"));
    CHECK_THROWS_WITH((Usage{nlohmann::json{{"promote", {{"min_effectiveness", 1.5}}}}}),
                      Catch::Contains("promote.min_effectiveness"));
    CHECK_THROWS_WITH((Usage{nlohmann::json{{"similarity", {{"stop_words", "the"}}}}}),
                      Catch::Contains("similarity.stop_words"));
}
