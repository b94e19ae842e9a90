// SPDX-License-Identifier: Apache-2.0
// "Did you mean" suggestions for misspelt names: configuration keys, commands.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace starling::core {

/// Edits (insertions, deletions, substitutions, swaps of neighbours) turning `from` into `to`.
[[nodiscard]] std::size_t edit_distance(std::string_view from, std::string_view to);

/// The candidate closest to `name` within `max_distance` edits; the earliest wins a tie.
[[nodiscard]] std::optional<std::string> closest_name(std::string_view name,
                                                      std::span<const std::string> candidates,
                                                      std::size_t max_distance = 2);

/// `"; did you mean 'x'?"` for a suggestion, or nothing: ready to append to a problem description.
[[nodiscard]] std::string did_you_mean(const std::optional<std::string> &suggestion);

} // namespace starling::core
