// SPDX-License-Identifier: Apache-2.0
#include "near_duplicates.hpp"

#include <starling/core/store/memory_view_batch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace starling::app {

namespace {

bool is_word_byte(unsigned char byte) noexcept {
    return (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || byte >= 0x80;
}

/// The memories of one scope, their words as ranks (0 = the scope's rarest word), each set sorted.
struct ScopeWords {
    std::vector<std::size_t> members; ///< indexes into the survey's memories, in key order
    std::vector<std::vector<std::uint32_t>> ranked;
    std::size_t distinct_words = 0;
};

ScopeWords rank_words(const std::vector<SurveyedMemory> &memories, std::vector<std::size_t> members) {
    std::unordered_map<std::string, std::uint32_t> word_ids;
    std::vector<std::uint32_t> frequency;
    std::vector<std::vector<std::uint32_t>> sets;
    sets.reserve(members.size());
    for (const auto member : members) {
        std::vector<std::uint32_t> ids;
        for (auto &word : duplicate_words(comparable_text(memories[member].entry))) {
            const auto [found, added] = word_ids.emplace(std::move(word), static_cast<std::uint32_t>(frequency.size()));
            if (added) {
                frequency.push_back(0);
            }
            ++frequency[found->second];
            ids.push_back(found->second);
        }
        sets.push_back(std::move(ids));
    }
    // Rarest first; among equally rare words, the one met first (ids are given in key order).
    std::vector<std::uint32_t> by_rarity(frequency.size());
    std::iota(by_rarity.begin(), by_rarity.end(), 0U);
    std::stable_sort(by_rarity.begin(), by_rarity.end(),
                     [&](std::uint32_t left, std::uint32_t right) { return frequency[left] < frequency[right]; });
    std::vector<std::uint32_t> rank_of(frequency.size());
    for (std::uint32_t rank = 0; rank < by_rarity.size(); ++rank) {
        rank_of[by_rarity[rank]] = rank;
    }
    for (auto &set : sets) {
        for (auto &id : set) {
            id = rank_of[id];
        }
        std::sort(set.begin(), set.end());
    }
    return {std::move(members), std::move(sets), frequency.size()};
}

/// The words `left` and `right` share from positions `from_left` and `from_right` on (both sorted),
/// or less once they can no longer share `wanted`: the caller only needs to know it falls short.
std::size_t overlap_from(const std::vector<std::uint32_t> &left, std::size_t from_left,
                         const std::vector<std::uint32_t> &right, std::size_t from_right, std::size_t wanted) {
    std::size_t shared = 0;
    while (from_left < left.size() && from_right < right.size()) {
        if (shared + std::min(left.size() - from_left, right.size() - from_right) < wanted) {
            break;
        }
        if (left[from_left] < right[from_right]) {
            ++from_left;
        } else if (right[from_right] < left[from_left]) {
            ++from_right;
        } else {
            ++shared;
            ++from_left;
            ++from_right;
        }
    }
    return shared;
}

/// The words two near-identical sets share at least, when the smaller has `size`: ⌈2·size/3⌉.
std::size_t least_overlap(std::size_t size) noexcept { return (2 * size + 2) / 3; }

/// The words two sets of these sizes share at least for a Jaccard of 0.5: ⌈(left + right) / 3⌉.
std::size_t least_overlap(std::size_t left_size, std::size_t right_size) noexcept {
    return (left_size + right_size + 2) / 3;
}

double jaccard(std::size_t shared, std::size_t left_size, std::size_t right_size) noexcept {
    return static_cast<double>(shared) / static_cast<double>(left_size + right_size - shared);
}

/// The policy's judgement of each candidate: how closely the smaller memory restates it.
std::vector<double> policy_similarities(const core::DecayPlanner &policy, const core::IndexEntry &smaller,
                                        const std::vector<SurveyedMemory> &memories,
                                        const std::vector<std::size_t> &candidates, std::chrono::sys_seconds now) {
    std::vector<core::IndexEntry> entries;
    entries.reserve(candidates.size());
    for (const auto candidate : candidates) {
        entries.push_back(memories[candidate].entry);
    }
    const core::MemoryViewBatch batch{std::move(entries), now};
    auto similarities = policy.similarity(comparable_text(smaller), batch.batch());
    return similarities ? std::move(*similarities) : std::vector<double>(candidates.size(), 0.0);
}

void search_scope(const std::vector<SurveyedMemory> &memories, const ScopeWords &scope, const core::DecayPlanner *judge,
                  std::chrono::sys_seconds now, NearDuplicateSearch &search) {
    const auto &sets = scope.ranked;
    // Who holds each word, and where in their set: a memory is met first at the first word it
    // shares, so the words before it there and here are not shared (unless a capped read skipped it).
    struct Holder {
        std::uint32_t position;
        std::uint32_t at;
    };
    std::vector<std::vector<Holder>> holders_of_rank(scope.distinct_words);
    for (std::size_t position = 0; position < sets.size(); ++position) {
        for (std::size_t at = 0; at < sets[position].size(); ++at) {
            holders_of_rank[sets[position][at]].push_back(
                {static_cast<std::uint32_t>(position), static_cast<std::uint32_t>(at)});
        }
    }
    constexpr auto kNotSeen = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> seen_by(sets.size(), kNotSeen);
    for (std::size_t position = 0; position < sets.size(); ++position) {
        const auto &words = sets[position];
        if (words.empty()) {
            continue;
        }
        const std::size_t prefix = words.size() - least_overlap(words.size()) + 1;
        // Each pair once: from the memory with fewer words, or the earlier of two equally long. A
        // set more than twice as large cannot reach the Jaccard threshold.
        const auto may_pair = [&](std::size_t other) {
            const auto size = sets[other].size();
            return (size > words.size() || (size == words.size() && other > position)) && size <= 2 * words.size();
        };
        std::vector<std::size_t> candidates;
        std::vector<double> jaccards;
        bool read_capped = false;
        for (std::size_t word = 0; word < prefix; ++word) {
            const auto &holders = holders_of_rank[words[word]];
            const std::size_t depth = std::min(holders.size(), kBucketDepth);
            for (std::size_t at = 0; at < depth; ++at) {
                const auto [other, other_at] = holders[at];
                if (seen_by[other] == position || other == position || !may_pair(other)) {
                    continue;
                }
                seen_by[other] = position;
                const auto &other_words = sets[other];
                const std::size_t wanted = least_overlap(words.size(), other_words.size());
                const std::size_t shared = read_capped
                                               ? overlap_from(words, 0, other_words, 0, wanted)
                                               : 1 + overlap_from(words, word + 1, other_words, other_at + 1, wanted - 1);
                if (shared >= wanted) {
                    candidates.push_back(scope.members[other]);
                    jaccards.push_back(jaccard(shared, words.size(), other_words.size()));
                }
            }
            read_capped = read_capped || holders.size() > kBucketDepth;
        }
        if (candidates.empty()) {
            continue;
        }
        search.compared += candidates.size();
        const auto smaller = scope.members[position];
        const auto similarities =
            judge != nullptr ? policy_similarities(*judge, memories[smaller].entry, memories, candidates, now) : jaccards;
        for (std::size_t at = 0; at < candidates.size(); ++at) {
            if (similarities[at] >= search.threshold) {
                search.pairs.push_back({smaller, candidates[at], similarities[at]});
            }
        }
    }
}

/// Whether the policy judges duplicates at all: one that does answers even for no memories.
bool judges_duplicates(const core::DecayPlanner &policy, std::chrono::sys_seconds now) {
    const core::MemoryViewBatch nothing{std::vector<core::IndexEntry>{}, now};
    return policy.similarity({}, nothing.batch()).has_value();
}

} // namespace

std::vector<std::string> duplicate_words(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    for (const char character : text) {
        const auto byte = static_cast<unsigned char>(character);
        if (is_word_byte(byte)) {
            word.push_back(byte >= 'A' && byte <= 'Z' ? static_cast<char>(byte - 'A' + 'a') : character);
        } else if (!word.empty()) {
            words.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty()) {
        words.push_back(std::move(word));
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

std::string comparable_text(const core::IndexEntry &entry) {
    std::string text = entry.summary;
    for (const auto &tag : entry.tags) {
        text.append(" ").append(tag);
    }
    return text;
}

NearDuplicateSearch find_near_duplicates(const std::vector<SurveyedMemory> &memories, const core::DecayPlanner *policy,
                                         double policy_threshold, std::chrono::sys_seconds now) {
    NearDuplicateSearch search;
    const core::DecayPlanner *judge = policy != nullptr && judges_duplicates(*policy, now) ? policy : nullptr;
    if (judge != nullptr) {
        search.judged_by_policy = true;
        search.threshold = policy_threshold;
    }
    std::map<std::pair<core::ScopeKind, std::string>, std::vector<std::size_t>> scopes;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        scopes[{memories[index].entry.scope_kind, memories[index].entry.project_id}].push_back(index);
    }
    for (auto &[scope, members] : scopes) {
        search_scope(memories, rank_words(memories, std::move(members)), judge, now, search);
    }
    std::sort(search.pairs.begin(), search.pairs.end(), [&](const NearDuplicatePair &left, const NearDuplicatePair &right) {
        if (left.similarity != right.similarity) {
            return left.similarity > right.similarity;
        }
        const auto left_keys = std::tie(memories[left.smaller].entry.key, memories[left.larger].entry.key);
        return left_keys < std::tie(memories[right.smaller].entry.key, memories[right.larger].entry.key);
    });
    return search;
}

} // namespace starling::app
