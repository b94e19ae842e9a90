// SPDX-License-Identifier: Apache-2.0
//
// The fields of a memory that bm25 searches. The order of a memory's texts is BatchTokenizer's
// (the summary, each tag, the body, then what each linked memory lends), which every pass over a
// memory (matching, feedback, indexing) reads them in, because BM25F's sums, and therefore the
// scores' last bits, depend on it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

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

} // namespace starling::bm25
