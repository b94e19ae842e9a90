// SPDX-License-Identifier: Apache-2.0
//
// collie-tiers below the plugin boundary: the similarity tokenizer, the duplicate finder checked
// against all pairs, and the work a 20,000-memory store costs.
#include "policies/collie/collie-tiers/decay_plan.hpp"
#include "policies/collie/collie-tiers/duplicate_finder.hpp"
#include "policies/collie/collie-tiers/similarity_tokens.hpp"
#include "policies/collie/collie-tiers/tiers_settings.hpp"

#include "support/decay_batch.hpp"

#include <starling/collie_tiers/default_settings.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

using starling::collie_tiers::DuplicateGroups;
using starling::collie_tiers::DuplicateSearchOptions;
using starling::collie_tiers::DuplicateSearchWork;
using starling::collie_tiers::find_duplicate_groups;
using starling::collie_tiers::similarity_tokens;
using starling::test::DecayBatch;
using Tokens = std::vector<std::string>;
using TokenIds = std::vector<std::vector<std::uint32_t>>;

namespace {

constexpr std::int64_t day = starling::test::seconds_per_day;
constexpr std::int64_t now = 1'800'000'000;

/// SplitMix64: a generator whose sequence is fixed by its definition, so the stores below are the
/// same on every platform (the standard distributions are not).
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t value = (state_ += 0x9E3779B97F4A7C15ULL);
        value = (value ^ (value >> 30U)) * 0xBF58476D1CE4E5B9ULL;
        value = (value ^ (value >> 27U)) * 0x94D049BB133111EBULL;
        return value ^ (value >> 31U);
    }
    std::size_t below(std::size_t bound) { return static_cast<std::size_t>(next() % bound); }
    double unit() { return static_cast<double>(next() >> 11U) / 9007199254740992.0; }

private:
    std::uint64_t state_;
};

/// The groups of an all-pairs comparison with union-find: what the finder must reproduce exactly.
std::vector<std::vector<std::size_t>> brute_force_groups(const TokenIds &token_ids, double min_similarity) {
    using starling::collie_tiers::TokenSet;
    std::vector<TokenSet> sets;
    for (auto ids : token_ids) {
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        sets.push_back(ids);
    }
    std::vector<std::size_t> group_of(sets.size());
    std::iota(group_of.begin(), group_of.end(), std::size_t{0});
    std::vector<bool> matched(sets.size(), false);
    for (std::size_t first = 0; first < sets.size(); ++first) {
        for (std::size_t second = first + 1; second < sets.size(); ++second) {
            if (!starling::collie_tiers::is_similar(
                    starling::collie_tiers::overlap_of(sets[first], sets[second]), min_similarity)) {
                continue;
            }
            matched[first] = matched[second] = true;
            const std::size_t from = group_of[second];
            const std::size_t to = group_of[first];
            for (auto &group : group_of) {
                group = group == from ? to : group;
            }
        }
    }
    std::vector<std::vector<std::size_t>> groups(sets.size());
    for (std::size_t item = 0; item < sets.size(); ++item) {
        if (matched[item]) {
            groups[group_of[item]].push_back(item);
        }
    }
    groups.erase(
        std::remove_if(groups.begin(), groups.end(), [](const auto &group) { return group.size() < 2; }),
        groups.end());
    std::sort(groups.begin(), groups.end());
    return groups;
}

std::string word(std::size_t rank) {
    std::string text = "w";
    do {
        text += static_cast<char>('a' + rank % 26);
        rank /= 26;
    } while (rank > 0);
    return text;
}

/// Summaries of 4 to 10 words drawn from a 5,000-word vocabulary with Zipf-like frequencies (a few
/// words very common, most rare), as in text.
std::string random_summary(Random &random) {
    constexpr double vocabulary = 5000.0;
    const std::size_t length = 4 + random.below(7);
    std::string summary;
    for (std::size_t index = 0; index < length; ++index) {
        const auto rank = static_cast<std::size_t>(std::exp(random.unit() * std::log(vocabulary))) - 1;
        summary += word(rank) + " ";
    }
    return summary;
}

DecayBatch::Memory long_memory(std::size_t index, std::string summary) {
    return {.key = "memory/user/long/m" + std::to_string(100000 + index) + ".md",
            .summary = std::move(summary),
            .created = now - 100 * day,
            .last_accessed = now - day,
            .access_count = static_cast<std::uint32_t>(1 + index % 7)};
}

starling::collie_tiers::TiersSettings default_settings() {
    return starling::collie_tiers::read_tiers_settings(
        starling::sdk::settings_from_json(starling::collie_tiers::default_settings_json));
}

} // namespace

TEST_CASE("similarity tokens fold ASCII and German, and split on everything else", "[policy][collie-tiers]") {
    CHECK(similarity_tokens("Use PNPM, not npm-v9!") == Tokens{"use", "pnpm", "not", "npm", "v9"});
    CHECK(similarity_tokens("ÜBERPRÜFE Änderungen, Öl und Straße") ==
          Tokens{"überprüfe", "änderungen", "öl", "und", "straße"});
    CHECK(similarity_tokens("ΣΟΦΙΑ Москва") == Tokens{"σοφια", "москва"});
    CHECK(similarity_tokens("ＡＢＣ１２") == Tokens{"abc12"});
    CHECK(similarity_tokens("deploy 🚀 now — ok") == Tokens{"deploy", "now", "ok"});
    CHECK(similarity_tokens("bad \xC3\x28 byte \xE2\x82 end \xC0\xAF") == Tokens{"bad", "byte", "end"});
    CHECK(similarity_tokens("").empty());
}

TEST_CASE("similarity tokens cut CJK runs into character bigrams", "[policy][collie-tiers]") {
    CHECK(similarity_tokens("提交信息") == Tokens{"提交", "交信", "信息"});
    CHECK(similarity_tokens("用bun，不用pnpm") == Tokens{"用", "bun", "不用", "pnpm"});
    CHECK(similarity_tokens("東京都 と カタカナ") == Tokens{"東京", "京都", "と", "カタ", "タカ", "カナ"});
    CHECK(similarity_tokens("한국어") == Tokens{"한국", "국어"});
}

TEST_CASE("the duplicate finder finds exactly the groups all pairs would", "[policy][collie-tiers]") {
    const double threshold = GENERATE(0.3, 0.5, 0.67, 0.8, 1.0);
    const std::uint64_t seed = GENERATE(1U, 2U, 3U);
    Random random{seed};
    TokenIds token_ids(400);
    for (auto &ids : token_ids) {
        const std::size_t length = random.below(7); // empty sets too: they must never group
        for (std::size_t index = 0; index < length; ++index) {
            ids.push_back(static_cast<std::uint32_t>(random.below(14)));
        }
    }
    DuplicateSearchWork work;
    const DuplicateGroups found = find_duplicate_groups(token_ids, {threshold, token_ids.size()}, work);
    INFO("threshold " << threshold << ", seed " << seed);
    REQUIRE_FALSE(found.groups.empty());
    CHECK(found.groups == brute_force_groups(token_ids, threshold));
    CHECK(work.comparisons < token_ids.size() * (token_ids.size() - 1) / 2);
}

TEST_CASE("merge planning on 20k memories compares a bounded number of pairs", "[policy][collie-tiers]") {
    constexpr std::size_t memory_count = 20'000;
    constexpr std::size_t planted = 200;
    Random random{42};
    DecayBatch batch{now};
    std::vector<std::string> summaries;
    for (std::size_t index = 0; index < memory_count - planted; ++index) {
        summaries.push_back(random_summary(random));
    }
    // Near-duplicates of the first summaries: the same words and one of their own, so a copy of a
    // summary of d distinct words shares d of d + 1 tokens with it (similarity ≥ 0.5).
    for (std::size_t index = 0; index < planted; ++index) {
        summaries.push_back(summaries[index] + "planted" + std::to_string(index));
    }
    for (std::size_t index = 0; index < summaries.size(); ++index) {
        batch.add(long_memory(index, summaries[index]));
    }

    DuplicateSearchWork work;
    const auto plan =
        starling::collie_tiers::plan_decay(starling::sdk::MemoryBatch{batch.batch()}, default_settings(), work);

    // Every planted near-duplicate is found.
    std::set<std::string> merged;
    for (const auto &action : plan) {
        REQUIRE(action.kind == starling::sdk::LifecycleAction::Kind::merge);
        merged.insert(action.key);
        merged.insert(action.into);
    }
    for (std::size_t index = memory_count - planted; index < memory_count; ++index) {
        CHECK(merged.count(batch.memories()[index].key) == 1);
    }
    // All pairs would be 2·10⁸ comparisons; the bounds allow 1 % of that. They are loose on purpose:
    // they catch a return to quadratic work, not a change of constant.
    INFO("candidates " << work.candidates_visited << ", comparisons " << work.comparisons);
    CHECK(work.comparisons <= 100 * memory_count);
    CHECK(work.candidates_visited <= 500 * memory_count);
}

TEST_CASE("20k identical memories cost one comparison each and merge into one", "[policy][collie-tiers]") {
    constexpr std::size_t memory_count = 20'000;
    TokenIds token_ids(memory_count, std::vector<std::uint32_t>{0, 1, 2, 3});
    const std::size_t cap = GENERATE(std::size_t{8}, std::size_t{128});
    DuplicateSearchWork work;
    const DuplicateGroups found = find_duplicate_groups(token_ids, DuplicateSearchOptions{0.5, cap}, work);
    REQUIRE(found.groups.size() == 1);
    CHECK(found.groups.front().size() == memory_count);
    CHECK(work.comparisons == memory_count - 1);
    // Prefix of 4 tokens at 0.5: 3 buckets per memory, each read at most `cap` entries deep.
    CHECK(work.candidates_visited <= memory_count * 3 * cap);
}
