// SPDX-License-Identifier: Apache-2.0
//
// Every memory of a batch as term ids, tokenised once per scoring call. Each text (the summary,
// one tag, the body) keeps its own range, because feedback weighs a memory by the lengths of its
// texts one by one, and the sums must come out exactly as they always have.
#pragma once

#include "memory_fields.hpp"
#include "term_id.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace starling::bm25 {

/// One text of a memory: its field and where its term ids are in the batch's.
struct TextTerms {
    Field field = Field::summary;
    std::size_t first = 0;
    std::size_t count = 0;
};

class BatchTerms {
public:
    void clear() noexcept;
    /// Makes room for `memories` memories of typical size. Growing a large vector by doubling
    /// touches about twice the pages it ends with, and on the hook path a fresh page costs more
    /// than the work done on it; capacity never touched costs address space, not memory.
    void reserve(std::size_t memories);
    /// Starts the next memory: the texts added from now on are its own.
    void start_memory();
    /// Appends a text of `term_count` terms to the current memory and returns the slots for its
    /// ids, valid until the next call.
    [[nodiscard]] std::span<TermId> add_text(Field field, std::size_t term_count);

    [[nodiscard]] std::size_t memory_count() const noexcept { return lengths_.size(); }
    /// The texts of `memory`, in the order BatchTokenizer reads them.
    [[nodiscard]] std::span<const TextTerms> texts(std::size_t memory) const noexcept;
    [[nodiscard]] std::span<const TermId> terms(const TextTerms &text) const noexcept {
        return std::span<const TermId>{term_ids_}.subspan(text.first, text.count);
    }
    /// How many terms each field of `memory` has.
    [[nodiscard]] const FieldCounts &lengths(std::size_t memory) const noexcept { return lengths_[memory]; }

private:
    std::vector<TermId> term_ids_;
    std::vector<TextTerms> texts_;
    std::vector<std::size_t> first_text_; // of each memory; its texts end where the next one's begin
    std::vector<FieldCounts> lengths_;
};

} // namespace starling::bm25
