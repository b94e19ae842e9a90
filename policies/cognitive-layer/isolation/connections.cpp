// SPDX-License-Identifier: Apache-2.0
#include "connections.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace starling::isolation {

std::string scope_of(std::string_view key) {
    // memory/user/<tier>/<file> or memory/projects/<id>/<tier>/<file>
    const auto file_slash = key.rfind('/');
    if (file_slash == std::string_view::npos || file_slash == 0) {
        return std::string{key};
    }
    const auto tier_slash = key.rfind('/', file_slash - 1);
    return std::string{key.substr(0, tier_slash == std::string_view::npos ? 0 : tier_slash)};
}

std::vector<ScopeGroup> scope_groups(const sdk::MemoryBatch &memories) {
    std::vector<ScopeGroup> groups;
    std::map<std::string, std::size_t, std::less<>> index_of;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        std::string scope = scope_of(memories[index].key());
        const auto [found, added] = index_of.try_emplace(scope, groups.size());
        if (added) {
            groups.push_back(ScopeGroup{std::move(scope), {}});
        }
        groups[found->second].members.push_back(index);
    }
    return groups;
}

std::vector<std::vector<std::size_t>> components(const SimilarityMatrix &similarity, double threshold) {
    const std::size_t size = similarity.size();
    std::vector<bool> seen(size, false);
    std::vector<std::vector<std::size_t>> found;
    for (std::size_t start = 0; start < size; ++start) {
        if (seen[start]) {
            continue;
        }
        std::vector<std::size_t> component;
        std::vector<std::size_t> frontier{start};
        seen[start] = true;
        while (!frontier.empty()) {
            const std::size_t at = frontier.back();
            frontier.pop_back();
            component.push_back(at);
            for (std::size_t next = 0; next < size; ++next) {
                if (!seen[next] && next != at && similarity.at(at, next) >= threshold) {
                    seen[next] = true;
                    frontier.push_back(next);
                }
            }
        }
        std::sort(component.begin(), component.end());
        found.push_back(std::move(component));
    }
    return found;
}

namespace {

double least_pairwise(const std::vector<std::size_t> &members, const SimilarityMatrix &similarity) {
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t first = 0; first < members.size(); ++first) {
        for (std::size_t second = first + 1; second < members.size(); ++second) {
            least = std::min(least, similarity.at(members[first], members[second]));
        }
    }
    return least;
}

} // namespace

std::vector<std::size_t> coherent_core(std::vector<std::size_t> component, const SimilarityMatrix &similarity,
                                       double threshold, std::size_t min_size) {
    while (component.size() >= min_size && least_pairwise(component, similarity) < threshold) {
        std::size_t drop = 0;
        double best = -1.0;
        for (std::size_t candidate = 0; candidate < component.size(); ++candidate) {
            std::vector<std::size_t> without = component;
            without.erase(without.begin() + static_cast<std::ptrdiff_t>(candidate));
            const double least = least_pairwise(without, similarity);
            if (least >= best) {
                best = least;
                drop = candidate;
            }
        }
        component.erase(component.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    return component.size() >= min_size ? component : std::vector<std::size_t>{};
}

} // namespace starling::isolation
