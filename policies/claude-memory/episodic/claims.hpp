// SPDX-License-Identifier: Apache-2.0
//
// claude-memory's claim extraction (seed-systems.md §2.6), exactly: the text split at blank lines; each
// paragraph stripped of leading `- * # >` markers and split into sentences where `.`, `!` or `?` is
// followed by whitespace and then a capital letter, a backtick or a quote; a sentence longer than
// `absorb.min_claim_length` characters is a claim, and a paragraph none of whose sentences is long
// enough is one claim whole.
//
// A claim is behavioural (how to work) when it holds one of the cue words, opens with one of the
// openers, or holds a pair in order; else factual. claude-memory also counted "stop" and "use"
// anywhere in a pair-less sentence, so "the bus stop moved" was a rule: an opener counts only where
// the claim opens.
#pragma once

#include "episodic_settings.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace starling::episodic {

[[nodiscard]] std::vector<std::string> extract_claims(std::string_view text, std::size_t min_claim_length);

[[nodiscard]] bool is_behavioural(std::string_view claim, const BehaviouralCues &cues);

/// The words of a text, lower case (ASCII), apostrophes kept inside ("don't"), in order.
[[nodiscard]] std::vector<std::string> words_of(std::string_view text);

} // namespace starling::episodic
