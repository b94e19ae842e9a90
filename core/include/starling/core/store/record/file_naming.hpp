// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace starling::core {

/// The keyword of a memory's file name, as collie chooses it: the first word of the summary that is
/// not a stop word, after lower-casing and keeping only `[a-z0-9]`, cut to 20 characters. A word
/// with letters outside ASCII is passed over whole: its ASCII remnants (`im` of `以后im`) would name
/// nothing. Empty if no word is left (for example a summary in Chinese).
[[nodiscard]] std::string memory_file_keyword(std::string_view summary);

/// `YYYY-MM-DD_<keyword>` for a memory created at `created` (UTC date); `YYYY-MM-DD_<id>` when the
/// summary gives no keyword, so that the file is named after what finds it rather than `memory`.
[[nodiscard]] std::string memory_file_stem(std::chrono::sys_seconds created, std::string_view summary,
                                           std::string_view id);

/// The n-th candidate file name for a stem: `<stem>.md` for n = 1, else `<stem>_<n>.md` (collie's
/// collision rule).
[[nodiscard]] std::string numbered_file_name(std::string_view stem, unsigned n);

} // namespace starling::core
