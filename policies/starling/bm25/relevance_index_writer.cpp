// SPDX-License-Identifier: Apache-2.0
#include "relevance_index_writer.hpp"

#include "memory_fields.hpp"
#include "relevance_index_format.hpp"
#include "term_matcher.hpp"
#include "cache-files/text_hash.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace starling::bm25 {

namespace format = relevance_index_format;

namespace {

std::string_view as_text(std::span<const std::byte> bytes) noexcept {
    return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

/// A term's count in a field never exceeds the field's length, so checking the lengths checks both.
void check_fits_postings(const FieldCounts &lengths) {
    for (const auto length : lengths) {
        if (length > format::max_posting_value) {
            throw std::length_error("relevance index: a memory's text of " + std::to_string(length) +
                                    " terms does not fit the index format");
        }
    }
}

/// Appends bytes at the end of the file being built; every offset is taken as it is written.
class Output {
public:
    explicit Output(std::size_t header_size) : bytes_(header_size, '\0') {}
    [[nodiscard]] std::uint64_t size() const noexcept { return bytes_.size(); }
    /// Sized once: a file of a large store is hundreds of megabytes, and growing it by doubling
    /// copied it again at every step and held two copies at once.
    void reserve(std::uint64_t size) { bytes_.reserve(static_cast<std::size_t>(size)); }
    void put_zeros(std::uint64_t count) { bytes_.append(static_cast<std::size_t>(count), '\0'); }
    void put_text_at(std::size_t at, std::string_view text) noexcept { text.copy(bytes_.data() + at, text.size()); }
    template <class Integer>
    void put(Integer value) {
        put_text(std::string_view{reinterpret_cast<const char *>(&value), sizeof value});
    }
    void put_text(std::string_view text) {
        bytes_.append(text);
    }
    template <class Integer>
    void put_at(std::size_t at, Integer value) noexcept {
        format::store<Integer>(reinterpret_cast<std::byte *>(bytes_.data()) + at, value);
    }
    [[nodiscard]] std::span<const std::byte> from(std::uint64_t at) const noexcept {
        return std::as_bytes(std::span<const char>{bytes_}).subspan(static_cast<std::size_t>(at));
    }
    [[nodiscard]] std::string take() { return std::move(bytes_); }

private:
    // A string, whose append is a memcpy: the file is built field by field, hundreds of thousands
    // of small appends for a large store.
    std::string bytes_;
};

/// Every term of the batch that occurs, with the memories containing it.
struct Postings {
    std::vector<TermId> terms;               ///< dictionary ids, in order of first occurrence
    std::vector<std::uint32_t> first;        ///< of each term's postings in `entries`
    std::vector<std::uint32_t> own_counts;   ///< of each term: memories containing it outside their context
    std::vector<std::byte> entries;          ///< every posting, term after term
};

Postings collect_postings(const BatchTerms &terms, std::size_t dictionary_size) {
    const BatchPostings batch{terms, dictionary_size};
    Postings postings;
    for (std::size_t id = 0; id < dictionary_size; ++id) {
        if (!batch.of(static_cast<TermId>(id)).empty()) {
            postings.terms.push_back(static_cast<TermId>(id));
        }
    }
    std::sort(postings.terms.begin(), postings.terms.end(),
              [&](TermId left, TermId right) { return batch.of(left).front().first < batch.of(right).front().first; });
    postings.first.resize(postings.terms.size());
    std::uint64_t total = 0;
    for (std::size_t term = 0; term < postings.terms.size(); ++term) {
        postings.first[term] = static_cast<std::uint32_t>(total);
        total += batch.of(postings.terms[term]).size();
    }
    for (std::size_t memory = 0; memory < terms.memory_count(); ++memory) {
        check_fits_postings(terms.lengths(memory));
    }
    postings.entries.resize(total * format::posting_size);
    postings.own_counts.assign(postings.terms.size(), 0);
    std::byte *posting = postings.entries.data();
    for (std::size_t term = 0; term < postings.terms.size(); ++term) {
        for (const auto &found : batch.of(postings.terms[term])) {
            const FieldCounts &lengths = terms.lengths(found.memory);
            postings.own_counts[term] += contains_itself(found.counts) ? 1U : 0U;
            format::store<std::uint32_t>(posting + format::posting_memory_at, found.memory);
            for (std::size_t field = 0; field < field_count; ++field) {
                format::store<std::uint16_t>(posting + format::posting_counts_at + 2 * field,
                                             static_cast<std::uint16_t>(found.counts[field]));
                format::store<std::uint16_t>(posting + format::posting_lengths_at + 2 * field,
                                             static_cast<std::uint16_t>(lengths[field]));
            }
            posting += format::posting_size;
        }
    }
    return postings;
}

} // namespace

std::string encode_relevance_index(const IndexIdentity &identity, const sdk::MemoryBatch &batch,
                                   const BatchTerms &terms, const TermDictionary &dictionary) {
    if (terms.memory_count() != batch.size()) {
        throw std::invalid_argument("relevance index: the terms are not of this batch");
    }
    Postings postings = collect_postings(terms, dictionary.size());
    const std::size_t term_count = postings.terms.size();
    const std::uint64_t bucket_count = std::bit_ceil(std::max<std::uint64_t>(term_count, 1));

    // Terms by bucket; within one, by text, so that the same collection always makes the same file.
    struct BucketedTerm {
        std::uint64_t bucket;
        std::string_view text;
        std::uint32_t term;
    };
    std::vector<BucketedTerm> bucketed;
    bucketed.reserve(term_count);
    for (std::size_t term = 0; term < term_count; ++term) {
        const auto text = dictionary.text(postings.terms[term]);
        bucketed.push_back({cache_files::hash_text(text) & (bucket_count - 1), text, static_cast<std::uint32_t>(term)});
    }
    std::sort(bucketed.begin(), bucketed.end(), [](const BucketedTerm &left, const BucketedTerm &right) {
        return left.bucket != right.bucket ? left.bucket < right.bucket : left.text < right.text;
    });

    std::uint64_t texts_size = 0;
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        texts_size += 4 + batch[memory].key().size() + 4;
        for (const TextTerms &text : terms.texts(memory)) {
            texts_size += 1 + 4;
            for (const TermId id : terms.terms(text)) {
                texts_size += 2 + dictionary.text(id).size();
            }
        }
    }
    std::uint64_t blocks_size = 8 * bucket_count; // every block ends in its checksum
    for (const auto &term : bucketed) {
        blocks_size += 4 + term.text.size() + format::entry_tail_size;
    }

    Output out{format::header_size};
    out.reserve(format::header_size + identity.id.size() + identity.version.size() + 8 * (bucket_count + 1) +
                blocks_size + postings.entries.size() + batch.size() * format::record_size + texts_size);
    out.put_text(identity.id);
    out.put_text(identity.version);
    const std::uint64_t names_end = out.size();
    const std::uint64_t buckets_at = out.size();
    for (std::uint64_t bucket = 0; bucket <= bucket_count; ++bucket) {
        out.put<std::uint64_t>(0); // filled in below
    }
    const std::uint64_t postings_at = out.size() + blocks_size;

    std::size_t next = 0;
    for (std::uint64_t bucket = 0; bucket < bucket_count; ++bucket) {
        const std::uint64_t block_at = out.size();
        out.put_at<std::uint64_t>(static_cast<std::size_t>(buckets_at + 8 * bucket), block_at);
        for (; next < bucketed.size() && bucketed[next].bucket == bucket; ++next) {
            const auto term = bucketed[next].term;
            const std::uint64_t memory_count =
                (term + 1 < term_count ? postings.first[term + 1] : postings.entries.size() / format::posting_size) -
                postings.first[term];
            const auto list = std::span<const std::byte>{postings.entries}.subspan(
                std::size_t{postings.first[term]} * format::posting_size, memory_count * format::posting_size);
            out.put<std::uint32_t>(static_cast<std::uint32_t>(bucketed[next].text.size()));
            out.put_text(bucketed[next].text);
            out.put<std::uint32_t>(static_cast<std::uint32_t>(memory_count));
            out.put<std::uint32_t>(postings.own_counts[term]);
            out.put<std::uint64_t>(postings_at + std::uint64_t{postings.first[term]} * format::posting_size);
            out.put<std::uint64_t>(cache_files::checksum_bytes(as_text(list)));
        }
        out.put<std::uint64_t>(format::block_checksum(bucket, as_text(out.from(block_at))));
    }
    out.put_at<std::uint64_t>(static_cast<std::size_t>(buckets_at + 8 * bucket_count), out.size());
    if (out.size() != postings_at) {
        throw std::logic_error("relevance index: blocks were sized wrongly");
    }
    out.put_text(as_text(postings.entries));
    postings.entries = {}; // no longer needed: the terms below are written without it

    // Records first, then the terms they point to; each record is written once its terms are.
    const std::uint64_t records_at = out.size();
    out.put_zeros(batch.size() * format::record_size);
    std::uint32_t max_access_count = 0;
    std::uint32_t max_session_count = 0;
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        const auto view = batch[memory];
        const std::uint64_t first = out.size();
        out.put<std::uint32_t>(static_cast<std::uint32_t>(view.key().size()));
        out.put_text(view.key());
        const std::uint64_t text_count_at = out.size();
        out.put<std::uint32_t>(0);
        const auto texts = terms.texts(memory);
        out.put_at<std::uint32_t>(static_cast<std::size_t>(text_count_at), static_cast<std::uint32_t>(texts.size()));
        for (const TextTerms &text : texts) {
            out.put<std::uint8_t>(static_cast<std::uint8_t>(text.field));
            out.put<std::uint32_t>(static_cast<std::uint32_t>(text.count));
            for (const TermId id : terms.terms(text)) {
                const auto term = dictionary.text(id);
                if (term.size() > format::max_term_size) {
                    throw std::length_error("relevance index: a term of " + std::to_string(term.size()) +
                                            " bytes does not fit the index format");
                }
                out.put<std::uint16_t>(static_cast<std::uint16_t>(term.size()));
                out.put_text(term);
            }
        }
        const auto block_bytes = out.from(first);

        std::array<std::byte, format::record_size> record{};
        format::store<std::int64_t>(record.data() + format::record_last_accessed_at, view.last_accessed());
        format::store<std::uint32_t>(record.data() + format::record_access_count_at, view.access_count());
        format::store<std::uint32_t>(record.data() + format::record_session_count_at, view.session_count());
        format::store<std::uint64_t>(record.data() + format::record_texts_at, first);
        format::store<std::uint32_t>(record.data() + format::record_texts_size_at,
                                     static_cast<std::uint32_t>(block_bytes.size()));
        format::store<std::uint64_t>(record.data() + format::record_texts_checksum_at, cache_files::checksum_bytes(as_text(block_bytes)));
        format::store<std::uint64_t>(record.data() + format::record_checksum_at,
                                     cache_files::checksum_bytes(as_text(std::span<const std::byte>{record}.first(format::record_checksum_at))));
        out.put_text_at(static_cast<std::size_t>(records_at + memory * format::record_size), as_text(record));
        max_access_count = std::max(max_access_count, view.access_count());
        max_session_count = std::max(max_session_count, view.session_count());
    }
    if (out.size() > std::numeric_limits<std::uint32_t>::max()) {
        throw std::length_error("relevance index: more than 4 GiB");
    }

    out.put_at<std::uint64_t>(format::magic_at, std::bit_cast<std::uint64_t>(format::magic));
    out.put_at<std::uint32_t>(format::version_at, format::version);
    out.put_at<std::uint32_t>(format::byte_order_at, format::byte_order_mark);
    out.put_at<std::uint64_t>(format::fingerprint_at, identity.fingerprint);
    out.put_at<std::uint32_t>(format::memory_count_at, static_cast<std::uint32_t>(batch.size()));
    out.put_at<std::uint32_t>(format::term_count_at, static_cast<std::uint32_t>(term_count));
    out.put_at<std::uint32_t>(format::bucket_count_at, static_cast<std::uint32_t>(bucket_count));
    out.put_at<std::uint32_t>(format::flags_at, batch.has_bodies() ? format::flag_bodies : 0U);
    std::array<std::uint64_t, field_count> length_totals{};
    for (std::size_t memory = 0; memory < terms.memory_count(); ++memory) {
        for (std::size_t field = 0; field < field_count; ++field) {
            length_totals[field] += terms.lengths(memory)[field];
        }
    }
    for (std::size_t field = 0; field < field_count; ++field) {
        out.put_at<std::uint64_t>(format::length_totals_at + 8 * field, length_totals[field]);
    }
    out.put_at<std::uint32_t>(format::max_access_count_at, max_access_count);
    out.put_at<std::uint32_t>(format::max_session_count_at, max_session_count);
    out.put_at<std::uint32_t>(format::id_size_at, static_cast<std::uint32_t>(identity.id.size()));
    out.put_at<std::uint32_t>(format::version_size_at, static_cast<std::uint32_t>(identity.version.size()));
    out.put_at<std::uint64_t>(format::buckets_at, buckets_at);
    out.put_at<std::uint64_t>(format::records_at, records_at);
    out.put_at<std::uint64_t>(format::file_size_at, out.size());
    out.put_at<std::uint64_t>(format::body_checksum_at, cache_files::checksum_bytes(as_text(out.from(names_end))));
    std::string header_and_names{as_text(out.from(0).first(format::header_checksum_at))};
    header_and_names += as_text(out.from(format::header_size).first(static_cast<std::size_t>(names_end - format::header_size)));
    out.put_at<std::uint64_t>(format::header_checksum_at, cache_files::checksum_bytes(header_and_names));
    return out.take();
}

} // namespace starling::bm25
