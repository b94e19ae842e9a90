// SPDX-License-Identifier: Apache-2.0
//
// The texts of a memory that bm25 searches, and the order it reads them in. Every pass over a
// memory (matching, feedback, caching) visits them in this one order, because BM25F's sums, and
// therefore the scores' last bits, depend on it.
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace starling::bm25 {

enum class Field : std::uint8_t { summary = 0, tags = 1, body = 2 };
inline constexpr std::size_t field_count = 3;

/// One number per field, indexed by Field.
using FieldCounts = std::array<std::uint32_t, field_count>;

/// Calls `visit(field, text)` for the indexed texts of a memory: the summary, each tag, and the
/// body when the batch carries bodies.
template <class Visit>
void for_each_field(const sdk::MemoryView &memory, bool with_body, Visit &&visit) {
    visit(Field::summary, memory.summary());
    memory.for_each_tag([&](std::string_view tag) { visit(Field::tags, tag); });
    if (with_body) {
        visit(Field::body, memory.body());
    }
}

} // namespace starling::bm25
