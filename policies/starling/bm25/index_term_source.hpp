// SPDX-License-Identifier: Apache-2.0
//
// A TermSource over the relevance indexes of several collections, numbered one after another: the
// memories of the first file are 0 … n₀ - 1, those of the second follow, and so on — the order
// of one batch of all of them. Counting a term costs a bucket lookup per file; finding it, its
// postings; a memory's terms (for feedback) are read as the index kept them.
#pragma once

#include "relevance_index_file.hpp"
#include "term_source.hpp"

#include <optional>
#include <unordered_map>
#include <vector>

namespace starling::bm25 {

class IndexTermSource final : public TermSource {
public:
    /// Every pointer, and `dictionary`, must outlive this object. Throws std::length_error if the
    /// files hold more than 2³² - 1 memories in all.
    IndexTermSource(std::vector<const RelevanceIndexFile *> files, TermDictionary &dictionary);

    [[nodiscard]] TermDictionary &dictionary() override { return *dictionary_; }
    [[nodiscard]] std::size_t memory_count() const override { return memory_count_; }
    [[nodiscard]] std::array<std::uint64_t, field_count> length_totals() const override;
    void count_containing(std::span<const TermId> terms, std::span<std::uint32_t> containing) override;
    void visit_occurrences(std::span<const TermId> terms, std::span<const std::uint32_t> indices,
                           OccurrenceVisitor &visit, std::span<const std::uint8_t> only) override;
    void memory_terms(std::span<const std::uint32_t> memories, BatchTerms &out) override;

    /// The file of memory `memory` and its number within that file.
    [[nodiscard]] std::pair<const RelevanceIndexFile *, std::uint32_t> locate(std::uint32_t memory) const;

private:
    /// The term in each file (nothing where a file lacks it), looked up once per call.
    const std::vector<std::optional<IndexedTerm>> &look_up(TermId term);

    std::vector<const RelevanceIndexFile *> files_;
    std::vector<std::uint32_t> first_memory_; ///< of each file
    std::size_t memory_count_ = 0;
    TermDictionary *dictionary_;
    std::unordered_map<TermId, std::vector<std::optional<IndexedTerm>>> looked_up_;
};

} // namespace starling::bm25
