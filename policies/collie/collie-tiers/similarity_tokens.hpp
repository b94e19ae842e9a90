// SPDX-License-Identifier: Apache-2.0
//
// The words two memories are compared by. collie split summaries on everything outside [a-z0-9], so
// a German word lost its umlaut and a Chinese summary had no words at all. Here words of
// space-separated scripts are case-folded (ASCII; Latin-1, which holds the German umlauts; Greek;
// Cyrillic; fullwidth forms), and Han, Kana and Hangul, which have no spaces, become overlapping
// character bigrams ("提交信息" → "提交", "交信", "信息"); a lone CJK character is a unigram.
// Table-free: the rules are code point ranges, so the plugin carries no Unicode database.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace starling::collie_tiers {

/// Appends the tokens of `text` to `tokens`, in text order, repeats included. Invalid UTF-8 bytes,
/// punctuation, symbols and emoji separate tokens and are dropped.
void append_similarity_tokens(std::string_view text, std::vector<std::string> &tokens);

/// The tokens of `text` (see append_similarity_tokens).
[[nodiscard]] std::vector<std::string> similarity_tokens(std::string_view text);

} // namespace starling::collie_tiers
