// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace starling::adapters {

/// Agents spell their own event and tool names one way; command lines and other agents may not.
[[nodiscard]] bool equal_ignoring_ascii_case(std::string_view left, std::string_view right) noexcept;
[[nodiscard]] bool starts_with_ignoring_ascii_case(std::string_view text, std::string_view prefix) noexcept;
/// True when `text` has a character other than ASCII white space.
[[nodiscard]] bool has_visible_text(std::string_view text) noexcept;

} // namespace starling::adapters
