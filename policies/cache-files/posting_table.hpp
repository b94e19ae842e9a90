// SPDX-License-Identifier: Apache-2.0
//
// A posting table: the texts an index is looked up by (terms, tags), each with the run of postings
// (the memories that hold it) — the part of an inverted index that every relevance policy keeping
// an index writes alike. Three sections of a section file:
//
//   table      PostedText records sorted by the hash of their text (ties in text order)
//   texts      the texts themselves, pointed at by the table (may be shared with other records)
//   postings   each text's postings, one run per text, in the order the caller gave them
#pragma once

#include "cache-files/section_file.hpp"
#include "cache-files/text_hash.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::cache_files {

/// One text of a posting table.
struct PostedText {
    std::uint64_t hash = 0;
    std::uint32_t text_at = 0;
    std::uint32_t text_size = 0;
    std::uint32_t postings_first = 0;
    std::uint32_t postings_count = 0;
};
static_assert(sizeof(PostedText) == 24);

/// Which sections of the file hold the table, its texts and its postings.
struct PostingSections {
    std::size_t table = 0;
    std::size_t texts = 0;
    std::size_t postings = 0;
};

/// Writes `postings_by_text` — text → a range of holders, e.g. a std::map<std::string,
/// std::set<std::uint32_t>> — as a posting table; `to_posting` turns a holder into the trivially
/// copyable record the postings section keeps. `what` names the texts in errors ("a tag").
template <class PostingsByText, class ToPosting>
void write_posting_table(SectionFileWriter &writer, const PostingSections &sections,
                         const PostingsByText &postings_by_text, const char *what, ToPosting to_posting) {
    std::vector<PostedText> table;
    std::uint32_t written = 0;
    for (const auto &[text, holders] : postings_by_text) {
        PostedText entry;
        entry.hash = hash_text(text);
        entry.text_size = checked_size<std::uint32_t>(text.size(), what);
        entry.text_at = writer.append_text(sections.texts, text);
        entry.postings_first = written;
        entry.postings_count = checked_size<std::uint32_t>(
            static_cast<std::size_t>(std::distance(std::begin(holders), std::end(holders))), "a posting list");
        for (const auto &holder : holders) {
            writer.append(sections.postings, to_posting(holder));
            ++written;
        }
        table.push_back(entry);
    }
    std::stable_sort(table.begin(), table.end(),
                     [](const PostedText &left, const PostedText &right) { return left.hash < right.hash; });
    for (const auto &entry : table) {
        writer.append(sections.table, entry);
    }
}

/// Reads a posting table of an open section file; the table itself is read once, on first use.
/// Every read is checked: a damaged file throws DamagedFile.
class PostingTable {
public:
    explicit PostingTable(PostingSections sections) : sections_(sections) {}

    /// Every text of the table, in hash order.
    [[nodiscard]] const std::vector<PostedText> &entries(SectionFile &file) {
        if (!entries_) {
            entries_ = file.records<PostedText>(sections_.table, 0, file.count<PostedText>(sections_.table));
        }
        return *entries_;
    }

    [[nodiscard]] std::string text(SectionFile &file, const PostedText &entry) const {
        return file.bytes(sections_.texts, entry.text_at, entry.text_size);
    }

    /// The postings of `entry`, as the records write_posting_table() wrote.
    template <class Posting>
    [[nodiscard]] std::vector<Posting> postings(SectionFile &file, const PostedText &entry) const {
        return file.records<Posting>(sections_.postings, entry.postings_first, entry.postings_count);
    }

    /// The entry whose text is `text`, if the table holds it.
    [[nodiscard]] std::optional<PostedText> find(SectionFile &file, std::string_view text) {
        const auto &all = entries(file);
        const auto hash = hash_text(text);
        auto at = std::lower_bound(all.begin(), all.end(), hash,
                                   [](const PostedText &entry, std::uint64_t value) { return entry.hash < value; });
        for (; at != all.end() && at->hash == hash; ++at) {
            if (this->text(file, *at) == text) {
                return *at;
            }
        }
        return std::nullopt;
    }

private:
    PostingSections sections_;
    std::optional<std::vector<PostedText>> entries_;
};

} // namespace starling::cache_files
