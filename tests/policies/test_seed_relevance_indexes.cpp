// SPDX-License-Identifier: Apache-2.0
//
// The relevance indexes of the seed profiles' rankers, trigger-weighted (claude-memory) and
// triples-rank (skill_master), through the plugin ABI: a ranking from the indexes of some
// collections must be, to the last bit, what scoring one batch of all their memories gives —
// whatever the prompt, the settings, the time and the limit — and a missing, stale or damaged index
// must answer "stale" or the right ranking, never a wrong one.
#include <starling/plugins/plugin_registry.hpp>

#include "support/history_batch.hpp"
#include "support/quiet_logger.hpp"
#include "support/ranking_by_scoring.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

using starling::core::MemoryCollection;
using starling::core::RankedKey;
using starling::plugins::PluginRegistry;
using starling::plugins::RelevancePolicyInstance;
using starling::test::HistoryMemory;
using starling::test::quiet_logger;
using starling::test::ranking_by_scoring;

namespace {

constexpr std::int64_t day = 86'400;
constexpr std::int64_t now = 1'800'000'000;

/// A policy with `overrides` merged into its default settings, its cache under `cache_root`.
class IndexedPolicy {
public:
    IndexedPolicy(const std::string &id, const std::filesystem::path &cache_root,
                  const nlohmann::json &overrides = nlohmann::json::object())
        : registry_(quiet_logger(), {cache_root, std::nullopt}) {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(registry_.find(id)->default_settings_json);
        settings.merge_patch(overrides);
        policy_.emplace(registry_.create_relevance_policy(id, settings.dump()));
    }
    [[nodiscard]] const RelevancePolicyInstance &policy() const { return *policy_; }

private:
    PluginRegistry registry_;
    std::optional<RelevancePolicyInstance> policy_;
};

const std::vector<std::string> &vocabulary() {
    static const std::vector<std::string> words{"deploy", "billing", "queue", "kafka", "pnpm", "npm", "commit",
                                                "message", "messages", "tests", "Docker", "vault", "token", "rust",
                                                "editor", "dark mode", "深色模式", "release", "schema", "postgres"};
    return words;
}

/// A store-like mix of claude-memory's memories: tags and triggers from a small vocabulary, every
/// layer and salience, superseded ones, episodic ones around `now`, ids that repeat, links of
/// several relations to memories of either collection.
std::vector<HistoryMemory> claude_memories(const std::string &prefix, std::size_t count, unsigned seed) {
    std::mt19937 random{seed};
    const auto pick = [&](std::size_t high) { return std::uniform_int_distribution<std::size_t>{0, high}(random); };
    const auto word = [&] { return vocabulary()[pick(vocabulary().size() - 1)]; };
    const std::vector<std::string> layers{"", "episodic", "semantic", "procedural", "reference"};
    const std::vector<std::string> saliences{"", "high", "medium", "low", "urgent"};
    const std::vector<std::string> relations{"", "related:", "supersedes:", "applies_to:"};
    std::vector<HistoryMemory> memories;
    for (std::size_t index = 0; index < count; ++index) {
        HistoryMemory memory;
        memory.key = prefix + std::to_string(1000 + index) + ".md";
        memory.id = pick(9) == 0 ? "" : "m" + std::to_string(pick(count * 2));
        memory.type = pick(1) == 0 ? "project" : "feedback";
        memory.summary = word() + " " + word();
        for (std::size_t tag = pick(3); tag > 0; --tag) {
            memory.tags += (memory.tags.empty() ? "" : "\n") + word();
        }
        memory.created = now - static_cast<std::int64_t>(pick(20)) * day + static_cast<std::int64_t>(pick(3)) * 3600;
        memory.last_accessed = memory.created;
        nlohmann::json fields = nlohmann::json::object();
        if (const auto &layer = layers[pick(layers.size() - 1)]; !layer.empty()) {
            fields["layer"] = layer;
        }
        if (const auto &salience = saliences[pick(saliences.size() - 1)]; !salience.empty()) {
            fields["salience"] = salience;
        }
        if (pick(2) == 0) {
            fields["trigger"] = pick(1) == 0 ? nlohmann::json(word()) : nlohmann::json::array({word(), word()});
        }
        if (pick(7) == 0) {
            fields["status"] = "superseded";
        }
        if (pick(2) == 0) {
            auto links = nlohmann::json::array();
            for (std::size_t link = pick(2) + 1; link > 0; --link) {
                links.push_back(relations[pick(relations.size() - 1)] + "m" + std::to_string(pick(count * 2)));
            }
            fields["links"] = links;
        }
        memory.fields = fields.dump();
        memories.push_back(std::move(memory));
    }
    return memories;
}

/// skill_master's rules among plain memories: triples of three kinds, opposing pairs, supersedes
/// links, strengths around the cap of 999, statements in the past and in the future.
std::vector<HistoryMemory> rule_memories(const std::string &prefix, std::size_t count, unsigned seed) {
    const std::string own = prefix.starts_with("memory/user/") ? "u" : "p";
    std::mt19937 random{seed};
    const auto pick = [&](std::size_t high) { return std::uniform_int_distribution<std::size_t>{0, high}(random); };
    const auto word = [&] { return vocabulary()[pick(vocabulary().size() - 1)]; };
    const std::vector<std::string> kinds{"", "constraint", "rule", "preference", "wish"};
    const std::vector<std::string> predicates{"use", "not use", "run", "not run", "prefer"};
    std::vector<HistoryMemory> memories;
    for (std::size_t index = 0; index < count; ++index) {
        HistoryMemory memory;
        memory.key = prefix + std::to_string(1000 + index) + ".md";
        memory.id = own + std::to_string(index);
        memory.summary = word();
        for (std::size_t tag = pick(2); tag > 0; --tag) {
            memory.tags += (memory.tags.empty() ? "" : "\n") + word();
        }
        // Ties on purpose: a few distinct times and strengths, some after `now`.
        memory.last_accessed = now + (static_cast<std::int64_t>(pick(6)) - 4) * day;
        memory.access_count = static_cast<std::uint32_t>(pick(3) == 0 ? 995 + pick(10) : pick(4));
        nlohmann::json fields = nlohmann::json::object();
        if (const auto &kind = kinds[pick(kinds.size() - 1)]; !kind.empty()) {
            fields["kind"] = kind;
            fields["subject"] = vocabulary()[pick(4)];
            fields["predicate"] = predicates[pick(predicates.size() - 1)];
            fields["object"] = word();
        }
        if (pick(9) == 0) {
            const std::string other = pick(1) == 0 ? "u" : "p";
            fields["links"] = nlohmann::json::array({"supersedes:" + other + std::to_string(pick(count - 1))});
        }
        memory.fields = fields.dump();
        memories.push_back(std::move(memory));
    }
    return memories;
}

void build(const RelevancePolicyInstance &policy, const MemoryCollection &collection,
           const std::vector<HistoryMemory> &memories) {
    const starling::test::HistoryBatch batch{memories, false, now};
    policy.build_index(collection, batch.get());
}

std::vector<const HistoryMemory *> all_of(const std::vector<HistoryMemory> &first,
                                          const std::vector<HistoryMemory> &second) {
    auto all = starling::test::HistoryBatch::pointers_to(first);
    for (const auto &memory : second) {
        all.push_back(&memory);
    }
    return all;
}

const std::vector<std::string> &prompts() {
    static const std::vector<std::string> prompts{
        "deploy the billing queue", "kafka", "write the commit messages", "Docker vault token rotation",
        "深色模式", "switch the editor to dark mode", "", "nothing here zzzz", "tests tests tests pnpm npm",
        "postgres schema release"};
    return prompts;
}

/// Builds both collections, then compares every prompt, time and limit.
void check_rankings_equal_scoring(const IndexedPolicy &indexed, const std::vector<HistoryMemory> &user,
                                  const std::vector<HistoryMemory> &project) {
    const std::vector<MemoryCollection> collections{{"user", "v1"}, {"projects/app", "v3"}};
    build(indexed.policy(), collections[0], user);
    build(indexed.policy(), collections[1], project);
    REQUIRE(indexed.policy().index_current(collections[0]));
    REQUIRE(indexed.policy().index_current(collections[1]));
    const auto all = all_of(user, project);
    for (const std::int64_t at : {now, now + 5 * day, now - 30 * day}) {
        for (const auto &prompt : prompts()) {
            for (const std::size_t limit : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{40}, all.size()}) {
                INFO("prompt '" << prompt << "', now " << at << ", limit " << limit);
                const auto ranked =
                    indexed.policy().rank(prompt, collections, std::chrono::sys_seconds{std::chrono::seconds{at}}, limit);
                REQUIRE(ranked);
                CHECK(*ranked == ranking_by_scoring(indexed.policy(), all, prompt, at, limit));
            }
        }
    }
}

std::filesystem::path index_file_in(const std::filesystem::path &directory) {
    for (const auto &entry : std::filesystem::recursive_directory_iterator{directory}) {
        if (entry.path().filename().string().starts_with("index-")) {
            return entry.path();
        }
    }
    return {};
}

/// Damages each byte of the one index in turn: every ranking is stale or right.
void check_damage_is_never_wrong(const IndexedPolicy &indexed, const std::filesystem::path &cache,
                                 const std::vector<HistoryMemory> &memories) {
    const MemoryCollection collection{"user", "v1"};
    build(indexed.policy(), collection, memories);
    const std::vector<MemoryCollection> collections{collection};
    const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
    const auto path = index_file_in(cache);
    REQUIRE(!path.empty());
    std::ifstream in{path, std::ios::binary};
    const std::string original{std::istreambuf_iterator<char>{in}, {}};
    in.close();
    const std::vector<std::string> probes{"deploy kafka", "commit messages"};
    std::vector<std::vector<RankedKey>> expected;
    for (const auto &probe : probes) {
        expected.push_back(ranking_by_scoring(indexed.policy(), starling::test::HistoryBatch::pointers_to(memories),
                                              probe, now, 5));
    }
    std::fstream in_place{path, std::ios::binary | std::ios::in | std::ios::out};
    std::size_t stale = 0;
    for (std::size_t position = 0; position < original.size(); ++position) {
        in_place.seekp(static_cast<std::streamoff>(position));
        in_place.put(static_cast<char>(original[position] ^ 0x5A));
        in_place.flush();
        INFO("byte " << position);
        CHECK_FALSE(indexed.policy().index_current(collection));
        for (std::size_t probe = 0; probe < probes.size(); ++probe) {
            const auto ranked = indexed.policy().rank(probes[probe], collections, sys_now, 5);
            if (!ranked) {
                ++stale;
                continue;
            }
            CHECK(*ranked == expected[probe]);
        }
        in_place.seekp(static_cast<std::streamoff>(position));
        in_place.put(original[position]);
        in_place.flush();
    }
    CHECK(stale > 0);
    CHECK(indexed.policy().index_current(collection));
}

} // namespace

TEST_CASE("trigger-weighted ranks from its indexes exactly as it scores, whatever the settings",
          "[policy][trigger-weighted][index]") {
    const auto user = claude_memories("memory/user/long/", 300, 11);
    const auto project = claude_memories("memory/projects/app/short/", 200, 12);
    const std::vector<nlohmann::json> settings{
        nlohmann::json::object(),
        {{"expansion", {{"relations", nlohmann::json::array()}}}},
        {{"expansion", {{"relations", {"related", "applies_to"}}}}, {"trigger_weight", 3.5}},
        {{"recency", {{"bonus", 0}, {"days", 3}}}, {"fallback_score", 0}},
        {{"salience_weights", {{"high", 0}, {"medium", 0.25}, {"low", 7}}}}};
    for (const auto &overrides : settings) {
        INFO("settings " << overrides.dump());
        starling::test::TempDir scratch{"trigger-weighted-index"};
        check_rankings_equal_scoring(IndexedPolicy{"trigger-weighted", scratch / "cache", overrides}, user, project);
    }
}

TEST_CASE("trigger-weighted's fallback and expansion reach across collections from the index",
          "[policy][trigger-weighted][index]") {
    // Nothing matches "zzzz": every high-salience semantic memory of both collections falls back,
    // and memories linked from them follow just below.
    std::vector<HistoryMemory> user{{.key = "memory/user/long/a.md", .id = "a", .fields = R"({"salience":"high","layer":"semantic","links":["b"]})"}};
    std::vector<HistoryMemory> project{{.key = "memory/projects/app/short/b.md", .id = "b", .fields = R"({"layer":"episodic"})", .created = now - 30 * day},
                                       {.key = "memory/projects/app/short/c.md", .id = "c", .fields = R"({"salience":"high","layer":"semantic"})"}};
    starling::test::TempDir scratch{"trigger-weighted-index"};
    const IndexedPolicy indexed{"trigger-weighted", scratch / "cache"};
    check_rankings_equal_scoring(indexed, user, project);
    const auto ranked = indexed.policy().rank("zzzz", std::vector<MemoryCollection>{{"user", "v1"}, {"projects/app", "v3"}},
                                              std::chrono::sys_seconds{std::chrono::seconds{now}}, 5);
    REQUIRE(ranked);
    REQUIRE(ranked->size() == 3);
    CHECK((*ranked)[0].key == "memory/user/long/a.md");
    CHECK((*ranked)[1].key == "memory/projects/app/short/c.md");
    CHECK((*ranked)[2].key == "memory/projects/app/short/b.md");
}

TEST_CASE("triples-rank ranks from its indexes exactly as it scores, ties and conflicts included",
          "[policy][triples][index]") {
    const auto user = rule_memories("memory/user/short/", 250, 21);
    const auto project = rule_memories("memory/projects/app/short/", 250, 22);
    starling::test::TempDir scratch{"triples-rank-index"};
    check_rankings_equal_scoring(IndexedPolicy{"triples-rank", scratch / "cache"}, user, project);
}

TEST_CASE("an index of another version, or none, is stale for both seed rankers", "[policy][index]") {
    const auto memories = claude_memories("memory/user/long/", 30, 31);
    for (const std::string id : {"trigger-weighted", "triples-rank"}) {
        INFO(id);
        starling::test::TempDir scratch{"seed-index"};
        const IndexedPolicy indexed{id, scratch / "cache"};
        const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
        const std::vector<MemoryCollection> v1{{"user", "v1"}};
        const std::vector<MemoryCollection> v2{{"user", "v2"}};
        CHECK_FALSE(indexed.policy().index_current(v1[0]));
        CHECK_FALSE(indexed.policy().rank("kafka", v1, sys_now, 5));
        build(indexed.policy(), v1[0], memories);
        CHECK(indexed.policy().rank("kafka", v1, sys_now, 5));
        CHECK_FALSE(indexed.policy().index_current(v2[0]));
        CHECK_FALSE(indexed.policy().rank("kafka", v2, sys_now, 5));
        const std::vector<MemoryCollection> both{{"user", "v1"}, {"projects/app", "v1"}};
        CHECK_FALSE(indexed.policy().rank("kafka", both, sys_now, 5));
    }
}

TEST_CASE("a damaged seed ranker's index is stale or right, never wrong, whichever byte is damaged",
          "[policy][index]") {
    SECTION("trigger-weighted") {
        starling::test::TempDir scratch{"trigger-weighted-damage"};
        check_damage_is_never_wrong(IndexedPolicy{"trigger-weighted", scratch / "cache"}, scratch / "cache",
                                    claude_memories("memory/user/long/", 12, 41));
    }
    SECTION("triples-rank") {
        starling::test::TempDir scratch{"triples-rank-damage"};
        check_damage_is_never_wrong(IndexedPolicy{"triples-rank", scratch / "cache"}, scratch / "cache",
                                    rule_memories("memory/user/short/", 12, 42));
    }
}
