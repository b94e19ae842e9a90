// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace starling::core {

/// How much of a memory's body the machine index keeps (IndexEntry::body_excerpt). The relevance
/// indexes are built from the machine index alone: reading 100,000 memory files to index their
/// bodies took longer than the whole build may, and tokenising whole bodies longer still. 128 bytes
/// (about 20 words) answered as many of the injection benchmark's tuning prompts as 160 or 256, and
/// more than 64 or 96 (docs/benchmarks.md, "Bodies in the relevance index").
inline constexpr std::size_t body_excerpt_bytes = 128;

/// The start of `body` as the machine index keeps it: runs of whitespace made one space, a leading
/// copy of `summary` left out (remember writes the text a summary was cut from as the body, so its
/// first line would only repeat the summary), then cut after the last whole word within
/// `max_bytes` (a single longer word is cut at a UTF-8 character boundary). Empty when the body
/// says nothing beyond its summary.
[[nodiscard]] std::string body_excerpt(std::string_view summary, std::string_view body,
                                       std::size_t max_bytes = body_excerpt_bytes);

} // namespace starling::core
