// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace starling::core {

/// One long-term memory as a line of a scope's INDEX.md: `- [<summary>](long/<file>)`. `[`, `]` and
/// `\` in the summary are escaped and line breaks become spaces, so each memory stays one
/// well-formed link. Session start injects the same lines, built from the store's listing.
[[nodiscard]] std::string index_markdown_line(std::string_view summary, std::string_view file_name);

} // namespace starling::core
