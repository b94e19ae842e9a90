// SPDX-License-Identifier: Apache-2.0
//
// How closely a message about to be stored restates each memory (starling.duplicates/1), so that
// remembering follows claude-memory's rule 3: a new fact that shares ≥ `duplicates.min_shared_tags`
// tags with a semantic memory updates that memory instead of becoming a file of its own. The host
// hands the judge the message's text, not the tags its decision chose, so a memory's tag counts as
// shared when the message uses it as a word; a message that says how to work (behavioural) is a rule,
// never a fact to fold into a semantic memory. Every other pair is judged by the word Jaccard of the
// message and the memory's text (its summary and tags when the batch has no texts).
#pragma once

#include "episodic_settings.hpp"

#include <starling/sdk/memory_view.hpp>

#include <span>
#include <string_view>

namespace starling::episodic {

void restatement_similarities(std::string_view text, const sdk::MemoryBatch &memories,
                              const EpisodicSettings &settings, std::span<double> similarities);

} // namespace starling::episodic
