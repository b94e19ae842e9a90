// SPDX-License-Identifier: Apache-2.0
//
// triples-rank through the plugin host: skill_master's retrieval order, and conflicts settled.
#include "rule_memories.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

using starling::test::linked_plugins;
using starling::test::RuleMemories;

namespace {

constexpr std::int64_t day = 86'400;
constexpr std::int64_t now = 1'800'000'000;

std::vector<double> scores_of(RuleMemories &memories, const std::string &query = "plan the next change") {
    const auto policy = linked_plugins().create_relevance_policy("triples-rank", "{}");
    return policy.score(query, memories.batch());
}

/// The ids in the order the host would inject them: by score, best first, 0 left out.
std::vector<std::string> ranking(RuleMemories &memories, const std::vector<std::string> &ids,
                                 const std::string &query = "plan the next change") {
    const auto scores = scores_of(memories, query);
    std::vector<std::size_t> order(ids.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    std::vector<std::string> ranked;
    for (const auto index : order) {
        if (scores[index] > 0.0) {
            ranked.push_back(ids[index]);
        }
    }
    return ranked;
}

} // namespace

TEST_CASE("triples-rank: constraint > rule > preference, then strength, then recency", "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "pref", .kind = "preference", .subject = "tab", .predicate = "prefer", .stated = now, .access_count = 9})
        .add({.id = "rule", .kind = "rule", .subject = "pnpm", .predicate = "use", .stated = now - 30 * day})
        .add({.id = "constraint", .kind = "constraint", .subject = "build", .predicate = "not run", .stated = now - 90 * day})
        .add({.id = "strong-rule", .kind = "rule", .subject = "linter", .predicate = "run", .stated = now - 60 * day, .access_count = 2})
        .add({.id = "recent-rule", .kind = "rule", .subject = "ruff", .predicate = "use", .stated = now - day})
        .add({.id = "note", .stated = now, .access_count = 50});
    CHECK(ranking(memories, {"pref", "rule", "constraint", "strong-rule", "recent-rule", "note"}) ==
          std::vector<std::string>{"constraint", "strong-rule", "recent-rule", "rule", "pref", "note"});
    // The score reads as digits: kind rank 3 (a rule), strength 0, stated a day ago.
    const auto scores = scores_of(memories);
    CHECK(scores[4] == Approx(3000.25));
    CHECK(scores[5] == Approx(1050.5)); // no rule: kind rank 1, strength 50, stated now
}

TEST_CASE("triples-rank: an explicit tag match comes before every kind", "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "constraint", .kind = "constraint", .subject = "build", .predicate = "not run", .stated = now, .tags = "build"})
        .add({.id = "preference", .kind = "preference", .subject = "commit message", .predicate = "be", .object = "short",
              .stated = now - 400 * day, .tags = "commit\nmessage"});
    CHECK(ranking(memories, {"constraint", "preference"}, "write the commit messages") ==
          std::vector<std::string>{"preference", "constraint"});
    CHECK(ranking(memories, {"constraint", "preference"}, "deploy it") ==
          std::vector<std::string>{"constraint", "preference"});
}

TEST_CASE("triples-rank: a newer conflicting rule wins, an older constraint wins over a newer rule",
          "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "npm", .kind = "rule", .subject = "install", .predicate = "use", .object = "npm", .stated = now - 10 * day})
        .add({.id = "pnpm", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now - day})
        .add({.id = "english", .kind = "constraint", .subject = "commit message", .predicate = "be", .object = "in english", .stated = now - 10 * day})
        .add({.id = "german", .kind = "rule", .subject = "commit message", .predicate = "be", .object = "in german", .stated = now - day})
        .add({.id = "user-npm", .kind = "rule", .subject = "install", .predicate = "use", .object = "yarn", .stated = now - 20 * day, .project = ""});
    CHECK(ranking(memories, {"npm", "pnpm", "english", "german", "user-npm"}) ==
          std::vector<std::string>{"english", "pnpm", "user-npm"});
}

TEST_CASE("triples-rank: a rule forbidden after being allowed loses, two prohibitions both hold", "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "run", .kind = "rule", .subject = "build", .predicate = "run", .object = "repeatedly", .stated = now - 5 * day})
        .add({.id = "never-run", .kind = "rule", .subject = "build", .predicate = "not run", .object = "repeatedly", .stated = now - day})
        .add({.id = "no-npm", .kind = "rule", .subject = "install", .predicate = "not use", .object = "npm", .stated = now - 5 * day})
        .add({.id = "no-yarn", .kind = "rule", .subject = "install", .predicate = "not use", .object = "yarn", .stated = now - day});
    CHECK(ranking(memories, {"run", "never-run", "no-npm", "no-yarn"}) ==
          std::vector<std::string>{"never-run", "no-yarn", "no-npm"});
}

TEST_CASE("triples-rank: an ambiguous pair keeps both, a superseded memory scores 0", "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "tabs", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "tab", .stated = now - 3 * day})
        .add({.id = "spaces", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "space", .stated = now - day})
        .add({.id = "old-note", .stated = now - 9 * day})
        .add({.id = "new-note", .stated = now, .links = {"supersedes:old-note"}});
    CHECK(ranking(memories, {"tabs", "spaces", "old-note", "new-note"}) ==
          std::vector<std::string>{"spaces", "tabs", "new-note"});
}

TEST_CASE("triples-rank: from a host older than ABI 1.4 every memory ranks as a note, by strength and recency",
          "[policies][triples]") {
    RuleMemories memories{now, /*before_1_4=*/true};
    memories.add({.id = "npm", .kind = "constraint", .subject = "install", .predicate = "use", .object = "npm", .stated = now - 10 * day})
        .add({.id = "pnpm", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now - day});
    CHECK(ranking(memories, {"npm", "pnpm"}) == std::vector<std::string>{"pnpm", "npm"});
    CHECK(scores_of(memories)[1] == Approx(1000.25));
}
