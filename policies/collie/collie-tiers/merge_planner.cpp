// SPDX-License-Identifier: Apache-2.0
#include "merge_planner.hpp"

#include "similarity_tokens.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace starling::collie_tiers {
namespace {

constexpr std::string_view user_prefix = "memory/user/";
constexpr std::string_view projects_prefix = "memory/projects/";

/// Gives each distinct token a small id, in order of first appearance.
class TokenInterner {
public:
    std::uint32_t id_of(const std::string &token) {
        return ids_.try_emplace(token, static_cast<std::uint32_t>(ids_.size())).first->second;
    }

private:
    std::unordered_map<std::string, std::uint32_t> ids_;
};

std::vector<std::string> tokens_of(const sdk::MemoryView &memory, bool include_tags) {
    std::vector<std::string> tokens = similarity_tokens(memory.summary());
    if (include_tags) {
        for (const auto tag : memory.tags()) {
            append_similarity_tokens(tag, tokens);
        }
    }
    return tokens;
}

/// The survivor ranks first: most accessed, then oldest, then smallest key.
bool survives_before(const sdk::MemoryView &left, const sdk::MemoryView &right) {
    return std::tuple{right.access_count(), left.created(), left.key()} <
           std::tuple{left.access_count(), right.created(), right.key()};
}

std::string format_similarity(TokenOverlap overlap) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", similarity_of(overlap));
    return text;
}

std::string why_kept(const sdk::MemoryView &kept, const sdk::MemoryView &absorbed) {
    if (kept.access_count() != absorbed.access_count()) {
        return "more reads (" + std::to_string(kept.access_count()) + " > " +
               std::to_string(absorbed.access_count()) + ")";
    }
    if (kept.created() != absorbed.created()) {
        return "as many reads, older";
    }
    return "as many reads, same age, smaller key";
}

std::string merge_reason(const sdk::MemoryView &absorbed, const sdk::MemoryView &kept,
                         const sdk::MemoryView &partner, TokenOverlap overlap, const TiersSettings &settings) {
    char threshold[32];
    std::snprintf(threshold, sizeof threshold, "%.2f", settings.merge_min_similarity);
    std::string reason = "near-duplicate: " + std::to_string(overlap.shared) + " of " +
                         std::to_string(overlap.combined) + " tokens shared with " +
                         std::string{partner.key()} + " (similarity " + format_similarity(overlap) +
                         " >= merge.min_similarity " + threshold + ")";
    if (partner.key() != kept.key()) {
        reason += ", which merges into " + std::string{kept.key()};
    }
    return reason + "; kept memory has " + why_kept(kept, absorbed);
}

/// Merges within one scope and type; `members` index `candidates`.
void plan_group(const std::vector<sdk::MemoryView> &candidates, const std::vector<std::size_t> &members,
                const TiersSettings &settings, DuplicateSearchWork &work,
                std::vector<sdk::LifecycleAction> &merges) {
    TokenInterner interner;
    std::vector<std::vector<std::uint32_t>> token_ids;
    token_ids.reserve(members.size());
    for (const std::size_t member : members) {
        std::vector<std::uint32_t> ids;
        for (const auto &token : tokens_of(candidates[member], settings.merge_include_tags)) {
            ids.push_back(interner.id_of(token));
        }
        token_ids.push_back(std::move(ids));
    }
    const DuplicateSearchOptions options{settings.merge_min_similarity,
                                         settings.merge_max_candidates_per_token};
    const DuplicateGroups found = find_duplicate_groups(token_ids, options, work);
    const auto memory_at = [&](std::size_t item) -> const sdk::MemoryView & {
        return candidates[members[item]];
    };
    for (const auto &group : found.groups) {
        const std::size_t survivor =
            *std::min_element(group.begin(), group.end(), [&](std::size_t left, std::size_t right) {
                return survives_before(memory_at(left), memory_at(right));
            });
        for (const std::size_t item : group) {
            if (item == survivor) {
                continue;
            }
            const SimilarPartner &partner = *found.partner_of[item];
            merges.push_back(
                sdk::LifecycleAction{sdk::LifecycleAction::Kind::merge, std::string{memory_at(item).key()},
                                     std::string{memory_at(survivor).key()},
                                     merge_reason(memory_at(item), memory_at(survivor),
                                                  memory_at(partner.partner), partner.overlap, settings)});
        }
    }
}

} // namespace

std::string_view scope_prefix_of(std::string_view key) noexcept {
    if (key.starts_with(user_prefix)) {
        return key.substr(0, user_prefix.size());
    }
    if (key.starts_with(projects_prefix)) {
        const auto slash = key.find('/', projects_prefix.size());
        if (slash != std::string_view::npos && slash > projects_prefix.size()) {
            return key.substr(0, slash + 1);
        }
    }
    return {};
}

std::vector<sdk::LifecycleAction> plan_merges(const std::vector<sdk::MemoryView> &candidates,
                                              const TiersSettings &settings, DuplicateSearchWork &work) {
    // An ordered map, so groups are planned in the same order on every run.
    std::map<std::pair<std::string_view, std::string_view>, std::vector<std::size_t>> groups;
    for (std::size_t index = 0; index < candidates.size(); ++index) {
        const std::string_view scope = scope_prefix_of(candidates[index].key());
        if (!scope.empty()) {
            groups[{scope, candidates[index].type()}].push_back(index);
        }
    }
    std::vector<sdk::LifecycleAction> merges;
    for (const auto &[scope_and_type, members] : groups) {
        if (members.size() >= 2) {
            plan_group(candidates, members, settings, work, merges);
        }
    }
    std::sort(merges.begin(), merges.end(),
              [](const sdk::LifecycleAction &left, const sdk::LifecycleAction &right) {
                  return std::tie(left.into, left.key) < std::tie(right.into, right.key);
              });
    return merges;
}

} // namespace starling::collie_tiers
