// SPDX-License-Identifier: Apache-2.0
//
// Unicode blocks and script rules are written as inclusive code point ranges, copied from the
// code charts; an inclusive test reads the same as the chart ("U+3040..U+30FF") and cannot be off
// by one the way a half-open one written from a chart can.
#pragma once

namespace starling::sdk::text {

[[nodiscard]] constexpr bool in_range(char32_t code_point, char32_t first, char32_t last) noexcept {
    return code_point >= first && code_point <= last;
}

} // namespace starling::sdk::text
