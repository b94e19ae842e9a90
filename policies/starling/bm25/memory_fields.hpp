// SPDX-License-Identifier: Apache-2.0
//
// The texts of a memory that bm25 searches, and the order it reads them in. Every pass over a
// memory (matching, feedback, caching, indexing) visits them in this one order, because BM25F's
// sums, and therefore the scores' last bits, depend on it.
#pragma once

#include "linked_context.hpp"

#include <starling/sdk/memory_view.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace starling::bm25 {

/// `context` holds the texts of the memories a memory is linked with (linked_context.hpp): what
/// was said around it, which a question about it often names instead of the memory's own words.
enum class Field : std::uint8_t { summary = 0, tags = 1, body = 2, context = 3 };
inline constexpr std::size_t field_count = 4;

/// One number per field, indexed by Field.
using FieldCounts = std::array<std::uint32_t, field_count>;

/// The sum of `per_field` over the fields a memory says itself — summary, tags and body — leaving out
/// the context its links lend it: of term counts, whether a memory says a term itself; of lengths,
/// how much it says.
template <typename PerField>
[[nodiscard]] constexpr auto own_fields_sum(const PerField &per_field) noexcept {
    return per_field[static_cast<std::size_t>(Field::summary)] + per_field[static_cast<std::size_t>(Field::tags)] +
           per_field[static_cast<std::size_t>(Field::body)];
}

/// Whether a memory says a term itself — in its summary, tags or body — and not only in the texts
/// its links lend it: what a term's document frequency, and so its idf, counts. A term's rarity is
/// a property of what memories say; otherwise every link would make the words around it commoner.
[[nodiscard]] inline bool contains_itself(const FieldCounts &counts) noexcept { return own_fields_sum(counts) > 0; }

/// Calls `visit(field, text)` for the indexed texts of memory `memory` of `batch`: the summary,
/// each tag, the body when the batch carries bodies, then for each memory `context` links it
/// with, in batch order, that memory's summary and (with bodies) body.
template <class Visit>
void for_each_field(const sdk::MemoryBatch &batch, std::size_t memory, const LinkedContext &context, Visit &&visit) {
    const bool with_body = batch.has_bodies();
    const auto view = batch[memory];
    visit(Field::summary, view.summary());
    view.for_each_tag([&](std::string_view tag) { visit(Field::tags, tag); });
    if (with_body) {
        visit(Field::body, view.body());
    }
    for (const std::uint32_t linked : context.linked_with(memory)) {
        const auto other = batch[linked];
        visit(Field::context, other.summary());
        if (with_body) {
            visit(Field::context, other.body());
        }
    }
}

} // namespace starling::bm25
