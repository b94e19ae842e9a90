// SPDX-License-Identifier: Apache-2.0
//
// One pass over a batch that counts, per memory and field, how often each query term occurs and
// how many terms the field has. Only the query's terms are looked up, so scoring needs no index
// of the whole vocabulary: the cost is one tokenisation and one hash probe per memory token.
#pragma once

#include "tokenizer.hpp"

#include <starling/sdk/memory_view.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starling::bm25 {

enum class Field : std::uint8_t { summary = 0, tags = 1, body = 2 };
inline constexpr std::size_t field_count = 3;

using FieldCounts = std::array<std::uint32_t, field_count>;

/// The occurrences of one query term in one memory.
struct TermMatch {
    std::uint32_t memory = 0;
    std::uint32_t term = 0;
    FieldCounts counts{};
};

/// Calls `visit(field, text)` for the indexed texts of a memory: the summary, each tag, and the
/// body when the batch carries bodies.
template <class Visit>
void for_each_field(const sdk::MemoryView &memory, bool with_body, Visit &&visit) {
    visit(Field::summary, memory.summary());
    for (const auto tag : memory.tags()) {
        visit(Field::tags, tag);
    }
    if (with_body) {
        visit(Field::body, memory.body());
    }
}

class TermMatcher {
public:
    /// Counts `terms` (distinct, already normalised) in every memory of `batch`.
    void match(const std::vector<std::string> &terms, const sdk::MemoryBatch &batch, Tokenizer &tokenizer);

    /// Token counts of each memory's fields, in batch order.
    [[nodiscard]] const std::vector<FieldCounts> &lengths() const noexcept { return lengths_; }
    /// Every (memory, term) pair that occurs, ordered by memory.
    [[nodiscard]] const std::vector<TermMatch> &matches() const noexcept { return matches_; }

private:
    std::bitset<token_bucket_count> term_buckets_;
    std::unordered_map<std::string_view, std::uint32_t> term_index_;
    std::vector<FieldCounts> lengths_;
    std::vector<TermMatch> matches_;
    std::vector<TermMatch> memory_matches_;
    TokenList tokens_;
};

} // namespace starling::bm25
