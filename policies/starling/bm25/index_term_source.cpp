// SPDX-License-Identifier: Apache-2.0
#include "index_term_source.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace starling::bm25 {

IndexTermSource::IndexTermSource(std::vector<const RelevanceIndexFile *> files, TermDictionary &dictionary)
    : files_(std::move(files)), dictionary_(&dictionary) {
    for (const auto *file : files_) {
        first_memory_.push_back(static_cast<std::uint32_t>(memory_count_));
        memory_count_ += file->memory_count();
        if (memory_count_ > std::numeric_limits<std::uint32_t>::max()) {
            throw std::length_error("relevance index: too many memories to rank at once");
        }
    }
}

std::array<std::uint64_t, field_count> IndexTermSource::length_totals() const {
    std::array<std::uint64_t, field_count> totals{};
    for (const auto *file : files_) {
        for (std::size_t field = 0; field < field_count; ++field) {
            totals[field] += file->length_totals()[field];
        }
    }
    return totals;
}

const std::vector<std::optional<IndexedTerm>> &IndexTermSource::look_up(TermId term) {
    auto [found, added] = looked_up_.try_emplace(term);
    if (added) {
        const auto text = dictionary_->text(term);
        for (const auto *file : files_) {
            found->second.push_back(file->find(text));
        }
    }
    return found->second;
}

void IndexTermSource::count_containing(std::span<const TermId> terms, std::span<std::uint32_t> containing) {
    for (std::size_t index = 0; index < terms.size(); ++index) {
        std::uint32_t count = 0;
        for (const auto &in_file : look_up(terms[index])) {
            count += in_file ? in_file->own_count : 0U;
        }
        containing[index] = count;
    }
}

void IndexTermSource::visit_occurrences(std::span<const TermId> terms, std::span<const std::uint32_t> indices,
                                        OccurrenceVisitor &visit, std::span<const std::uint8_t> only) {
    for (std::size_t index = 0; index < terms.size(); ++index) {
        const auto &in_files = look_up(terms[index]);
        for (std::size_t file = 0; file < files_.size(); ++file) {
            if (!in_files[file]) {
                continue;
            }
            const PostingList postings = files_[file]->postings(*in_files[file]);
            Occurrence occurrence;
            occurrence.term = indices[index];
            for (std::size_t at = 0; at < postings.size(); ++at) {
                // The memory first: a posting left out is not decoded further.
                if (!only.empty() && only[postings.memory(at) + first_memory_[file]] == 0) {
                    continue;
                }
                postings.decode(at, occurrence.memory, occurrence.counts, occurrence.lengths);
                occurrence.memory += first_memory_[file];
                visit(occurrence);
            }
        }
    }
}

std::pair<const RelevanceIndexFile *, std::uint32_t> IndexTermSource::locate(std::uint32_t memory) const {
    const auto after = std::upper_bound(first_memory_.begin(), first_memory_.end(), memory);
    if (memory >= memory_count_ || after == first_memory_.begin()) {
        throw std::out_of_range("relevance index: no memory " + std::to_string(memory));
    }
    const auto file = static_cast<std::size_t>(after - first_memory_.begin()) - 1;
    return {files_[file], memory - first_memory_[file]};
}

void IndexTermSource::memory_terms(std::span<const std::uint32_t> memories, BatchTerms &out) {
    out.clear();
    for (const std::uint32_t memory : memories) {
        const auto [file, local] = locate(memory);
        out.start_memory();
        file->visit_terms(file->record(local), [&](Field field, std::span<const std::string_view> terms) {
            const auto ids = out.add_text(field, terms.size());
            for (std::size_t term = 0; term < terms.size(); ++term) {
                ids[term] = dictionary_->intern(terms[term]);
            }
        });
    }
}

} // namespace starling::bm25
