// SPDX-License-Identifier: Apache-2.0
//
// bm25's relevance indexes through the plugin ABI: a ranking from the indexes of some collections
// must be, to the last bit, what scoring one batch of all their memories gives — whatever the
// query, the settings, the limit — and a missing, stale or damaged index must answer "stale" or
// the right ranking, never a wrong one.
#include <starling/plugins/plugin_registry.hpp>
#include <starling/sdk/bytes.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/history_batch.hpp"
#include "support/quiet_logger.hpp"
#include "support/ranking_by_scoring.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
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

using starling::test::quiet_logger;

namespace {

constexpr std::int64_t day = 86400;
constexpr std::int64_t now = 1'700'000'000;

using Memory = starling::test::HistoryMemory;
using starling::test::HistoryBatch;

/// bm25 with `settings_json` (its defaults when empty), its cache under `cache_root`.
class Bm25 {
public:
    Bm25(const std::filesystem::path &cache_root, std::string settings_json = {})
        : registry_(quiet_logger(), {cache_root, std::nullopt}) {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        if (settings_json.empty()) {
            settings_json = registry_.find("bm25")->default_settings_json;
        }
        policy_.emplace(registry_.create_relevance_policy("bm25", settings_json));
    }
    [[nodiscard]] const RelevancePolicyInstance &policy() const { return *policy_; }

private:
    PluginRegistry registry_;
    std::optional<RelevancePolicyInstance> policy_;
};

/// A store-like set of memories from a small vocabulary, so that terms repeat across memories
/// the way they do in real notes, with varied lengths, tags, ages and uses.
std::vector<Memory> generate_memories(const std::string &prefix, std::size_t count, unsigned seed) {
    static const std::vector<std::string> words{
        "deploy", "billing", "queue", "kafka", "consumer", "lag", "terraform", "pnpm", "npm", "workspace",
        "release", "pipeline", "tests", "flaky", "retry", "database", "migration", "schema", "postgres", "index",
        "cache", "redis", "timeout", "review", "commit", "message", "english", "branch", "rebase", "merge",
        "docker", "image", "registry", "secret", "vault", "token", "rotate", "weekly", "monday", "friday",
        "dark", "mode", "editor", "vim", "tabs", "spaces", "format", "lint", "typescript", "rust",
        "deploys", "deployed", "queues", "caching", "Straße", "Büro", "深色模式", "用户", "the", "and"};
    std::mt19937 random{seed};
    const auto pick = [&](std::size_t low, std::size_t high) {
        return std::uniform_int_distribution<std::size_t>{low, high}(random);
    };
    const auto sentence = [&](std::size_t length) {
        std::string text;
        for (std::size_t word = 0; word < length; ++word) {
            text += (word == 0 ? "" : " ") + words[pick(0, words.size() - 1)];
        }
        return text;
    };
    std::vector<Memory> memories;
    for (std::size_t index = 0; index < count; ++index) {
        Memory memory;
        memory.key = prefix + std::to_string(1000 + index) + ".md";
        memory.summary = sentence(pick(2, 9));
        for (std::size_t tag = pick(0, 3); tag > 0; --tag) {
            memory.tags += (memory.tags.empty() ? "" : "\n") + words[pick(0, words.size() - 1)];
        }
        memory.body = sentence(pick(0, 20));
        // Ids unique across collections; some memories link to earlier ones of their own
        // collection, as `remember`'s episodes and decay policies' relations do.
        memory.id = std::to_string(seed) + std::string(6 - std::to_string(index).size(), '0') + std::to_string(index);
        memory.scope = prefix.find("/user/") != std::string::npos ? "user" : "project";
        if (index > 0 && pick(0, 2) != 0) {
            static const std::vector<std::string> relations{"episode", "related", "supersedes"};
            std::string links;
            for (std::size_t link = pick(1, 2); link > 0; --link) {
                const auto target = memories[pick(0, index - 1)].id;
                links += std::string{links.empty() ? "" : ", "} + "\"" + relations[pick(0, 2)] + ":" + target + "\"";
            }
            memory.fields = "{\"links\": [" + links + "]}";
        }
        memory.last_accessed = now - static_cast<std::int64_t>(pick(0, 200)) * day;
        memory.access_count = static_cast<std::uint32_t>(pick(0, 40));
        memory.session_count = static_cast<std::uint32_t>(pick(0, 12));
        memories.push_back(std::move(memory));
    }
    return memories;
}

std::vector<const Memory *> pointers_to(const std::vector<Memory> &memories) {
    return HistoryBatch::pointers_to(memories);
}

std::vector<RankedKey> ranking_by_scoring(const RelevancePolicyInstance &policy,
                                             const std::vector<const Memory *> &memories, std::string_view query,
                                             std::size_t limit, bool with_bodies = false,
                                             starling::test::ScoringPass pass = starling::test::ScoringPass::full) {
    return starling::test::ranking_by_scoring(policy, memories, query, now, limit, with_bodies, pass);
}

void build(const RelevancePolicyInstance &policy, const MemoryCollection &collection,
           const std::vector<Memory> &memories, bool with_bodies = false) {
    const HistoryBatch batch{memories, with_bodies, now};
    policy.build_index(collection, batch.get());
}

const std::vector<std::string> &queries() {
    static const std::vector<std::string> queries{
        "how do we deploy the billing queue?", "kafka", "kafka consumer lag after deploy", "深色模式",
        "Büro", "database migration schema postgres index", "the and", "", "nothing matches zzzz",
        "retry flaky tests in the release pipeline", "DEPLOYS Deployed deploying"};
    return queries;
}

} // namespace

TEST_CASE("a ranking from the indexes equals scoring one batch of every collection, to the last bit",
          "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index"};
    const auto user = generate_memories("memory/user/long/", 300, 1);
    const auto project = generate_memories("memory/projects/app/short/", 200, 2);
    std::vector<const Memory *> all = pointers_to(user);
    for (const auto &memory : project) {
        all.push_back(&memory);
    }
    const std::vector<std::string> settings{
        "", R"({"feedback": {"documents": 0}})", R"({"fields": {"tags": 0.0}, "k1": 2.0, "b": 0.3})",
        R"({"feedback": {"documents": 12, "terms": 3, "weight": 0.6}, "recency": {"weight": 3.0}})",
        R"({"context": {"relations": []}})", R"({"fields": {"context": 4.0}, "context": {"relations": ["supersedes"]}})",
        R"({"prior": {"length": 0}})", R"({"prior": {"length": 2}, "feedback": {"documents": 0}})",
        R"({"synonyms": {"groups": [["kafka", "queue"], ["deploy", "release", "ship"]], "weight": 0.5}})"};
    // With bodies, as the host builds its indexes (the machine index's body excerpts), and without.
    for (const bool with_bodies : {true, false}) {
        for (const auto &setting : settings) {
            INFO("settings " << setting << ", bodies " << with_bodies);
            const Bm25 bm25{scratch / "cache", setting};
            const std::vector<MemoryCollection> collections{{"user", "v1"}, {"projects/app", "v7"}};
            build(bm25.policy(), collections[0], user, with_bodies);
            build(bm25.policy(), collections[1], project, with_bodies);
            CHECK(bm25.policy().index_current(collections[0]));
            CHECK(bm25.policy().index_current(collections[1]));
            for (const auto &query : queries()) {
                for (const std::size_t limit : {std::size_t{1}, std::size_t{5}, std::size_t{40}, all.size()}) {
                    INFO("query '" << query << "', limit " << limit);
                    const auto ranked =
                        bm25.policy().rank(query, collections, std::chrono::sys_seconds{std::chrono::seconds{now}}, limit);
                    REQUIRE(ranked);
                    CHECK(*ranked == ranking_by_scoring(bm25.policy(), all, query, limit, with_bodies));
                }
            }
        }
    }
}

TEST_CASE("the first pass ranks from the indexes as it scores one batch, and as bm25 ranks without feedback",
          "[policy][bm25][index][first-pass]") {
    starling::test::TempDir scratch{"bm25-first-pass"};
    const auto user = generate_memories("memory/user/long/", 300, 1);
    const auto project = generate_memories("memory/projects/app/short/", 200, 2);
    std::vector<const Memory *> all = pointers_to(user);
    for (const auto &memory : project) {
        all.push_back(&memory);
    }
    const Bm25 bm25{scratch / "with-feedback"};
    PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    auto no_feedback = nlohmann::json::parse(registry.find("bm25")->default_settings_json);
    no_feedback.merge_patch({{"feedback", {{"documents", 0}}}});
    const Bm25 without_feedback{scratch / "without-feedback", no_feedback.dump()};
    const std::vector<MemoryCollection> collections{{"user", "v1"}, {"projects/app", "v7"}};
    for (const Bm25 *policy : {&bm25, &without_feedback}) {
        build(policy->policy(), collections[0], user, true);
        build(policy->policy(), collections[1], project, true);
    }
    const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
    bool feedback_changed_a_ranking = false;
    for (const auto &query : queries()) {
        for (const std::size_t limit : {std::size_t{1}, std::size_t{5}, all.size()}) {
            INFO("query '" << query << "', limit " << limit);
            const auto first = bm25.policy().rank_first_pass(query, collections, sys_now, limit);
            REQUIRE(first);
            CHECK(*first ==
                  ranking_by_scoring(bm25.policy(), all, query, limit, true, starling::test::ScoringPass::first));
            CHECK(*first == *without_feedback.policy().rank(query, collections, sys_now, limit));
            feedback_changed_a_ranking =
                feedback_changed_a_ranking || *first != *bm25.policy().rank(query, collections, sys_now, limit);
        }
    }
    CHECK(feedback_changed_a_ranking); // else the two passes were one
    CHECK_FALSE(bm25.policy().rank_first_pass("kafka", std::vector<MemoryCollection>{{"user", "v2"}}, sys_now, 5));
}

TEST_CASE("a collection ranked alone, or with an empty one, ranks as its batch scores", "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index"};
    const auto user = generate_memories("memory/user/short/", 120, 3);
    const Bm25 bm25{scratch / "cache"};
    build(bm25.policy(), {"user", "a"}, user);
    build(bm25.policy(), {"projects/empty", "a"}, {});
    const std::vector<MemoryCollection> alone{{"user", "a"}};
    const std::vector<MemoryCollection> with_empty{{"projects/empty", "a"}, {"user", "a"}};
    for (const auto &query : queries()) {
        INFO("query '" << query << "'");
        const auto expected = ranking_by_scoring(bm25.policy(), pointers_to(user), query, 10);
        const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
        CHECK(bm25.policy().rank(query, alone, sys_now, 10) == expected);
        CHECK(bm25.policy().rank(query, with_empty, sys_now, 10) == expected);
    }
}

TEST_CASE("normalised scores rank from the index as the batch scores, and hold as the store grows twenty-fold "
          "(short queries measured against their own terms)",
          "[policy][bm25][index][normalised]") {
    starling::test::TempDir scratch{"bm25-index"};
    const auto store_of = [](std::size_t size) {
        std::vector<Memory> memories(size);
        for (std::size_t index = 0; index < size; ++index) {
            auto &memory = memories[index];
            memory.key = "memory/user/short/" + std::to_string(10000 + index) + ".md";
            memory.summary = index == 0   ? "kafka consumer lag"
                             : index == 1 ? "kafka retention policy"
                                          : "note" + std::to_string(index) + " about topic" + std::to_string(index % 31);
            memory.last_accessed = now - 3 * day;
            memory.access_count = 2;
            memory.session_count = 1;
        }
        return memories;
    };
    const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
    std::vector<double> best_scores;
    for (const std::size_t size : {std::size_t{60}, std::size_t{1200}}) {
        INFO("store of " << size);
        const auto memories = store_of(size);
        const Bm25 bm25{scratch / ("cache-" + std::to_string(size)), R"({"normalisation": {"min_terms": 0.0}})"};
        const std::vector<MemoryCollection> collections{{"user", "v1"}};
        build(bm25.policy(), collections[0], memories);
        const auto ranked = bm25.policy().rank("kafka consumer lag", collections, sys_now, 5);
        REQUIRE(ranked);
        CHECK(*ranked == ranking_by_scoring(bm25.policy(), pointers_to(memories), "kafka consumer lag", 5));
        REQUIRE(ranked->size() == 2);
        CHECK(ranked->front().key == memories[0].key);
        best_scores.push_back(ranked->front().score);
    }
    CHECK(best_scores[1] == Approx(best_scores[0]).epsilon(0.03));
}

TEST_CASE("an index of another version, or none, is stale", "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index"};
    const auto user = generate_memories("memory/user/short/", 20, 4);
    const Bm25 bm25{scratch / "cache"};
    const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
    const std::vector<MemoryCollection> v1{{"user", "v1"}};
    const std::vector<MemoryCollection> v2{{"user", "v2"}};
    CHECK_FALSE(bm25.policy().index_current(v1[0]));
    CHECK_FALSE(bm25.policy().rank("kafka", v1, sys_now, 5));

    build(bm25.policy(), v1[0], user);
    CHECK(bm25.policy().index_current(v1[0]));
    CHECK(bm25.policy().rank("kafka", v1, sys_now, 5));
    CHECK_FALSE(bm25.policy().index_current(v2[0]));
    CHECK_FALSE(bm25.policy().rank("kafka", v2, sys_now, 5));

    // Other tokenizer settings make other terms: the index is of another version too.
    const Bm25 unstemmed{scratch / "cache", R"({"stem_english": false})"};
    CHECK_FALSE(unstemmed.policy().index_current(v1[0]));
    CHECK_FALSE(unstemmed.policy().rank("kafka", v1, sys_now, 5));

    // Other context relations lend memories other texts: the index is of another version too.
    const Bm25 without_context{scratch / "cache", R"({"context": {"relations": []}})"};
    CHECK_FALSE(without_context.policy().index_current(v1[0]));
    CHECK_FALSE(without_context.policy().rank("kafka", v1, sys_now, 5));

    // One stale collection makes the whole ranking stale: it cannot be ranked without it.
    const std::vector<MemoryCollection> both{{"user", "v1"}, {"projects/app", "v1"}};
    CHECK_FALSE(bm25.policy().rank("kafka", both, sys_now, 5));
}

TEST_CASE("a ranking reads an index built again since the last ranking, not the one it read then",
          "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index"};
    const auto before = generate_memories("memory/user/short/", 20, 6);
    const auto after = generate_memories("memory/user/short/", 30, 7);
    const Bm25 bm25{scratch / "cache"};
    const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
    const std::vector<MemoryCollection> collections{{"user", "v1"}};
    for (const auto &query : queries()) {
        INFO("query '" << query << "'");
        build(bm25.policy(), collections[0], before);
        CHECK(bm25.policy().rank(query, collections, sys_now, 5) ==
              ranking_by_scoring(bm25.policy(), pointers_to(before), query, 5));
        // The same version built from other memories, as a repair of a damaged index would.
        build(bm25.policy(), collections[0], after);
        CHECK(bm25.policy().rank(query, collections, sys_now, 5) ==
              ranking_by_scoring(bm25.policy(), pointers_to(after), query, 5));
    }
    // Built by another process: the file this policy ranked from is replaced behind its back.
    const Bm25 other{scratch / "cache"};
    build(other.policy(), collections[0], before);
    const auto &query = queries().front();
    CHECK(bm25.policy().rank(query, collections, sys_now, 5) ==
          ranking_by_scoring(bm25.policy(), pointers_to(before), query, 5));
}

TEST_CASE("a damaged index is stale or right, never wrong, whichever byte is damaged", "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index"};
    const auto user = generate_memories("memory/user/short/", 12, 5);
    const Bm25 bm25{scratch / "cache"};
    const MemoryCollection collection{"user", "v1"};
    build(bm25.policy(), collection, user, true); // bodies, and links that lend them
    const auto sys_now = std::chrono::sys_seconds{std::chrono::seconds{now}};
    const std::vector<MemoryCollection> collections{collection};

    const auto file = scratch / "cache" / "bm25";
    std::filesystem::path index_file;
    for (const auto &entry : std::filesystem::directory_iterator{file}) {
        if (entry.path().filename().string().starts_with("index-")) {
            index_file = entry.path();
        }
    }
    REQUIRE(!index_file.empty());
    std::ifstream in{index_file, std::ios::binary};
    const std::string original{std::istreambuf_iterator<char>{in}, {}};
    in.close();

    const std::vector<std::string> probes{"deploy kafka lag", "Büro 深色模式", "tests"};
    std::vector<std::vector<RankedKey>> expected;
    for (const auto &query : probes) {
        expected.push_back(ranking_by_scoring(bm25.policy(), pointers_to(user), query, 5, true));
    }
    std::size_t stale = 0;
    // Each byte in turn is damaged in place and put back, as a disk or a stray write would damage it.
    std::fstream in_place{index_file, std::ios::binary | std::ios::in | std::ios::out};
    const auto overwrite = [&](std::size_t position, char byte) {
        in_place.seekp(static_cast<std::streamoff>(position));
        in_place.put(byte);
        in_place.flush();
    };
    for (std::size_t position = 0; position < original.size(); ++position) {
        overwrite(position, static_cast<char>(original[position] ^ 0x5A));
        INFO("byte " << position);
        CHECK_FALSE(bm25.policy().index_current(collection));
        for (std::size_t probe = 0; probe < probes.size(); ++probe) {
            const auto ranked = bm25.policy().rank(probes[probe], collections, sys_now, 5);
            if (!ranked) {
                ++stale;
                continue;
            }
            INFO("query '" << probes[probe] << "'");
            CHECK(*ranked == expected[probe]);
        }
        overwrite(position, original[position]);
    }
    in_place.close();
    CHECK(stale > 0);

    for (const std::size_t size : {std::size_t{0}, std::size_t{64}, original.size() / 2, original.size() - 1}) {
        std::ofstream{index_file, std::ios::binary | std::ios::trunc} << original.substr(0, size);
        CHECK_FALSE(bm25.policy().index_current(collection));
        CHECK_FALSE(bm25.policy().rank("tests", collections, sys_now, 5));
    }
}
