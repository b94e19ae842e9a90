// SPDX-License-Identifier: Apache-2.0
#include "token_cache_builder.hpp"

#include "cache-files/text_hash.hpp"
#include "token_cache_format.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace starling::bm25 {

namespace format = token_cache_format;

namespace {

constexpr TermId unused = std::numeric_limits<TermId>::max();

/// Renumbers the terms the entries use: by text, from 0. Returns the used ids in their new order
/// and fills `new_id` (indexed by old id).
std::vector<TermId> renumber_terms(const std::vector<CacheEntry> &entries, const TermDictionary &dictionary,
                                   std::vector<TermId> &new_id) {
    new_id.assign(dictionary.size(), unused);
    std::vector<TermId> used;
    for (const auto &entry : entries) {
        for (const TermId id : entry.terms) {
            if (new_id[id] == unused) {
                new_id[id] = static_cast<TermId>(used.size()); // final once sorted below
                used.push_back(id);
            }
        }
    }
    std::sort(used.begin(), used.end(),
              [&](TermId left, TermId right) { return dictionary.text(left) < dictionary.text(right); });
    for (std::size_t index = 0; index < used.size(); ++index) {
        new_id[used[index]] = static_cast<TermId>(index);
    }
    return used;
}

} // namespace

std::optional<std::vector<std::byte>> build_token_cache_file(std::vector<CacheEntry> entries,
                                                             const TermDictionary &dictionary,
                                                             std::uint64_t fingerprint, std::size_t max_bytes) {
    // Equal hashes are ordered by text only so that the same entries always make the same file.
    std::sort(entries.begin(), entries.end(), [](const CacheEntry &left, const CacheEntry &right) {
        return left.hash != right.hash ? left.hash < right.hash : left.text < right.text;
    });
    std::vector<TermId> new_id;
    const std::vector<TermId> terms = renumber_terms(entries, dictionary, new_id);

    std::uint64_t term_id_count = 0;
    std::uint64_t text_size = 0;
    for (const auto &entry : entries) {
        term_id_count += entry.terms.size();
        text_size += entry.text.size();
    }
    for (const TermId id : terms) {
        text_size += dictionary.text(id).size();
    }
    const std::uint64_t total = format::header_size + entries.size() * format::entry_size +
                                terms.size() * format::term_size + term_id_count * format::term_id_size + text_size;
    // Every count and offset of the format is 32 bits; the total bounds them all.
    if (total > std::min<std::uint64_t>(max_bytes, std::numeric_limits<std::uint32_t>::max())) {
        return std::nullopt;
    }

    std::vector<std::byte> bytes(total);
    std::byte *const data = bytes.data();
    std::byte *entry_record = data + format::header_size;
    std::byte *term_record = entry_record + entries.size() * format::entry_size;
    std::byte *const term_ids = term_record + terms.size() * format::term_size;
    std::byte *const text = term_ids + term_id_count * format::term_id_size;
    std::uint32_t text_used = 0;
    std::uint32_t term_ids_used = 0;
    const auto append_text = [&](std::string_view piece) {
        const std::uint32_t offset = text_used;
        if (!piece.empty()) {
            std::memcpy(text + offset, piece.data(), piece.size());
        }
        text_used += static_cast<std::uint32_t>(piece.size());
        return offset;
    };

    for (const auto &entry : entries) {
        format::store<std::uint64_t>(entry_record + format::entry_hash_at, entry.hash);
        format::store<std::uint32_t>(entry_record + format::entry_text_offset_at, append_text(entry.text));
        format::store<std::uint32_t>(entry_record + format::entry_text_size_at,
                                     static_cast<std::uint32_t>(entry.text.size()));
        format::store<std::uint32_t>(entry_record + format::entry_first_term_at, term_ids_used);
        format::store<std::uint32_t>(entry_record + format::entry_term_count_at,
                                     static_cast<std::uint32_t>(entry.terms.size()));
        for (const TermId id : entry.terms) {
            format::store<std::uint32_t>(term_ids + std::size_t{term_ids_used} * format::term_id_size, new_id[id]);
            ++term_ids_used;
        }
        entry_record += format::entry_size;
    }
    for (const TermId id : terms) {
        const auto term = dictionary.text(id);
        format::store<std::uint32_t>(term_record + format::term_text_offset_at, append_text(term));
        format::store<std::uint32_t>(term_record + format::term_text_size_at, static_cast<std::uint32_t>(term.size()));
        term_record += format::term_size;
    }

    std::memcpy(data + format::magic_at, format::magic.data(), format::magic.size());
    format::store<std::uint32_t>(data + format::version_at, format::version);
    format::store<std::uint32_t>(data + format::entry_count_at, static_cast<std::uint32_t>(entries.size()));
    format::store<std::uint64_t>(data + format::fingerprint_at, fingerprint);
    format::store<std::uint32_t>(data + format::term_count_at, static_cast<std::uint32_t>(terms.size()));
    format::store<std::uint32_t>(data + format::term_id_count_at, static_cast<std::uint32_t>(term_id_count));
    format::store<std::uint32_t>(data + format::text_size_at, static_cast<std::uint32_t>(text_size));
    const std::string_view payload{reinterpret_cast<const char *>(data) + format::header_size,
                                   bytes.size() - format::header_size};
    format::store<std::uint64_t>(data + format::checksum_at, cache_files::hash_text(payload));
    return bytes;
}

} // namespace starling::bm25
