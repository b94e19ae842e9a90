// SPDX-License-Identifier: Apache-2.0
//
// Paths as agents report them. Starling may run on a POSIX host while reading payloads written on
// Windows (shared stores, tests, WSL), and std::filesystem there calls "C:\src" relative, so paths are
// judged by their spelling and never rewritten: separators and drive letters stay as the agent gave them.
#pragma once

#include <string>
#include <string_view>

namespace starling::adapters {

/// True for "/x", "C:\x", "C:/x" and UNC "\\server\share".
[[nodiscard]] bool is_absolute_path(std::string_view path) noexcept;

/// True when `path` is spelled the Windows way (drive letter, UNC prefix, or only backslashes).
[[nodiscard]] bool is_windows_path(std::string_view path) noexcept;

/// `path` unchanged when it is absolute or no directory is known; otherwise `directory` joined with
/// `path` using the directory's own separator.
[[nodiscard]] std::string resolve_path(std::string_view directory, std::string_view path);

} // namespace starling::adapters
