// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/redaction/redaction.hpp>
#include <starling/core/store/record/memory.hpp>

#include <string>
#include <vector>

namespace starling::core {

/// Replaces the secrets in every text a memory holds: summary, body, tags, and the values of the
/// frontmatter fields Starling does not model (`source`, `trigger`, ...). Returns the kinds found,
/// one per replacement; an empty list means the memory was left as it was.
std::vector<std::string> redact_memory(Memory &memory, const Redactor &redactor);

} // namespace starling::core
