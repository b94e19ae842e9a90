// SPDX-License-Identifier: Apache-2.0
//
// How closely a message about to be stored restates each memory (starling.duplicates/1): the word
// Jaccard of the message and the memory's text (its summary and tags when the batch has no texts),
// words compared in lower case. claude-memory's rule 3 (a new fact updates the semantic memory it
// shares two tags with) needs the layer and tags the decision chose, which the host does not hand a
// judge: the decay plan applies it instead, at the consolidation that follows the capture
// (episodic_plan.hpp).
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <span>
#include <string_view>

namespace starling::episodic {

void restatement_similarities(std::string_view text, const sdk::MemoryBatch &memories, std::span<double> similarities);

} // namespace starling::episodic
