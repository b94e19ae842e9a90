// SPDX-License-Identifier: Apache-2.0
//
// The help `starling` prints, made from the command reference and wrapped to a terminal's 80
// columns.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace starling::app {

inline constexpr std::size_t kHelpWidth = 80;

/// `starling --help`: every command with its summary, by group, then the global options.
[[nodiscard]] std::string overall_help();

/// `starling` alone: how to call it and where to read more, a few lines.
[[nodiscard]] std::string short_usage();

/// `starling COMMAND --help`: for the command and each of its subcommands, its synopsis,
/// description, options with their defaults, and examples. Empty when there is no such command.
[[nodiscard]] std::string command_help(std::string_view command);

/// The synopsis after `prefix`, wrapped at `width` between its words and options, the lines after
/// the first indented by `indent`; it ends with a line end.
[[nodiscard]] std::string wrapped_synopsis(std::string_view name, std::string_view prefix, std::size_t indent,
                                           std::size_t width = kHelpWidth);

/// `text` as lines of at most `width` columns (where its words allow), each starting with
/// `indent` spaces; the first line starts with `first_indent` instead, for hanging lists.
[[nodiscard]] std::string wrap_text(std::string_view text, std::size_t indent, std::size_t first_indent,
                                    std::size_t width = kHelpWidth);

/// As wrap_text, breaking only between the given words.
[[nodiscard]] std::string wrap_words(std::span<const std::string> words, std::size_t indent, std::size_t first_indent,
                                     std::size_t width = kHelpWidth);

} // namespace starling::app
