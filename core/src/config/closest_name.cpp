// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/closest_name.hpp>

#include <algorithm>
#include <vector>

namespace starling::core {

std::size_t edit_distance(std::string_view from, std::string_view to) {
    // Optimal string alignment: Levenshtein plus adjacent swaps, the commonest typing slip.
    const std::size_t columns = to.size() + 1;
    std::vector<std::size_t> table((from.size() + 1) * columns);
    const auto cell = [&](std::size_t row, std::size_t column) -> std::size_t & {
        return table[row * columns + column];
    };
    for (std::size_t row = 0; row <= from.size(); ++row) {
        cell(row, 0) = row;
    }
    for (std::size_t column = 0; column <= to.size(); ++column) {
        cell(0, column) = column;
    }
    for (std::size_t row = 1; row <= from.size(); ++row) {
        for (std::size_t column = 1; column <= to.size(); ++column) {
            const std::size_t substitution = from[row - 1] == to[column - 1] ? 0 : 1;
            std::size_t best = std::min({cell(row - 1, column) + 1, cell(row, column - 1) + 1,
                                         cell(row - 1, column - 1) + substitution});
            if (row > 1 && column > 1 && from[row - 1] == to[column - 2] && from[row - 2] == to[column - 1]) {
                best = std::min(best, cell(row - 2, column - 2) + 1);
            }
            cell(row, column) = best;
        }
    }
    return cell(from.size(), to.size());
}

std::optional<std::string> closest_name(std::string_view name, std::span<const std::string> candidates,
                                        std::size_t max_distance) {
    std::optional<std::string> best;
    std::size_t best_distance = max_distance + 1;
    for (const auto &candidate : candidates) {
        const std::size_t distance = edit_distance(name, candidate);
        if (distance < best_distance) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

std::string did_you_mean(const std::optional<std::string> &suggestion) {
    return suggestion ? "; did you mean '" + *suggestion + "'?" : std::string{};
}

} // namespace starling::core
