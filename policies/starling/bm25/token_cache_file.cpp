// SPDX-License-Identifier: Apache-2.0
#include "token_cache_file.hpp"

#include "cache-files/text_hash.hpp"
#include "token_cache_format.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace starling::bm25 {

namespace format = token_cache_format;

namespace {

RejectedCacheFile rejected(RejectedCacheFile::Reason reason, std::string detail) {
    return RejectedCacheFile{reason, std::move(detail)};
}

RejectedCacheFile damaged(std::string detail) {
    return rejected(RejectedCacheFile::Reason::damaged, std::move(detail));
}

/// Whether [offset, offset + size) lies within a section of `limit` bytes; 64-bit, so the sum of
/// two 32-bit fields cannot wrap.
bool fits(std::uint64_t offset, std::uint64_t size, std::uint64_t limit) noexcept {
    return offset <= limit && size <= limit - offset;
}

} // namespace

std::variant<TokenCacheFile, RejectedCacheFile> open_token_cache_file(std::span<const std::byte> bytes,
                                                                      std::uint64_t fingerprint) {
    using Reason = RejectedCacheFile::Reason;
    const std::byte *data = bytes.data();
    if (bytes.size() < format::header_size ||
        std::memcmp(data + format::magic_at, format::magic.data(), format::magic.size()) != 0) {
        return rejected(Reason::foreign, "not a bm25 token cache file");
    }
    if (const auto version = format::load<std::uint32_t>(data + format::version_at); version != format::version) {
        return rejected(Reason::other_version, "format version " + std::to_string(version) + ", expected " +
                                                   std::to_string(format::version));
    }
    if (format::load<std::uint64_t>(data + format::fingerprint_at) != fingerprint) {
        return rejected(Reason::other_settings, "written for other tokenizer settings");
    }

    const std::uint64_t entry_count = format::load<std::uint32_t>(data + format::entry_count_at);
    const std::uint64_t term_count = format::load<std::uint32_t>(data + format::term_count_at);
    const std::uint64_t term_id_count = format::load<std::uint32_t>(data + format::term_id_count_at);
    const std::uint64_t text_size = format::load<std::uint32_t>(data + format::text_size_at);
    const std::uint64_t payload_size = entry_count * format::entry_size + term_count * format::term_size +
                                       term_id_count * format::term_id_size + text_size;
    if (payload_size != bytes.size() - format::header_size) {
        return damaged("its sections need " + std::to_string(payload_size) + " bytes after the header, it has " +
                       std::to_string(bytes.size() - format::header_size));
    }
    const std::string_view payload{reinterpret_cast<const char *>(data) + format::header_size, payload_size};
    if (cache_files::hash_text(payload) != format::load<std::uint64_t>(data + format::checksum_at)) {
        return damaged("checksum mismatch");
    }

    TokenCacheFile file;
    file.entries_ = data + format::header_size;
    file.entry_count_ = entry_count;
    const std::byte *terms = file.entries_ + entry_count * format::entry_size;
    file.term_ids_ = terms + term_count * format::term_size;
    file.text_ = reinterpret_cast<const char *>(file.term_ids_ + term_id_count * format::term_id_size);

    // At least two buckets, so that the shift stays below 64; about one entry per bucket.
    const int bucket_bits = std::max(1, static_cast<int>(std::bit_width(entry_count)) - 1);
    file.bucket_shift_ = static_cast<unsigned>(64 - bucket_bits);
    file.bucket_starts_.resize((std::size_t{1} << bucket_bits) + 1);
    std::size_t next_bucket = 0;
    std::uint64_t previous_hash = 0;
    for (std::size_t entry = 0; entry < entry_count; ++entry) {
        const std::byte *record = file.entries_ + entry * format::entry_size;
        const auto hash = format::load<std::uint64_t>(record + format::entry_hash_at);
        if (entry > 0 && hash < previous_hash) {
            return damaged("entries are not sorted by hash");
        }
        previous_hash = hash;
        for (const std::size_t bucket = hash >> file.bucket_shift_; next_bucket <= bucket; ++next_bucket) {
            file.bucket_starts_[next_bucket] = static_cast<std::uint32_t>(entry);
        }
        if (!fits(format::load<std::uint32_t>(record + format::entry_text_offset_at),
                  format::load<std::uint32_t>(record + format::entry_text_size_at), text_size) ||
            !fits(format::load<std::uint32_t>(record + format::entry_first_term_at),
                  format::load<std::uint32_t>(record + format::entry_term_count_at), term_id_count)) {
            return damaged("entry " + std::to_string(entry) + " reaches beyond its section");
        }
    }
    for (; next_bucket < file.bucket_starts_.size(); ++next_bucket) {
        file.bucket_starts_[next_bucket] = static_cast<std::uint32_t>(entry_count);
    }
    for (std::size_t term = 0; term < term_count; ++term) {
        const std::byte *record = terms + term * format::term_size;
        if (!fits(format::load<std::uint32_t>(record + format::term_text_offset_at),
                  format::load<std::uint32_t>(record + format::term_text_size_at), text_size)) {
            return damaged("term " + std::to_string(term) + " reaches beyond the text");
        }
    }
    file.terms_ = CachedTermTable{terms, static_cast<std::uint32_t>(term_count), file.text_};
    // Binary search needs the order, and a term listed twice would get two ids.
    for (std::uint32_t term = 1; term < term_count; ++term) {
        if (!(file.terms_.text(term - 1) < file.terms_.text(term))) {
            return damaged("terms are not sorted, or not distinct");
        }
    }
    for (std::size_t index = 0; index < term_id_count; ++index) {
        if (format::load<std::uint32_t>(file.term_ids_ + index * format::term_id_size) >= term_count) {
            return damaged("a term id is out of range");
        }
    }
    return file;
}

std::uint64_t TokenCacheFile::hash(std::size_t entry) const noexcept {
    return format::load<std::uint64_t>(entries_ + entry * format::entry_size + format::entry_hash_at);
}

std::string_view TokenCacheFile::text(std::size_t entry) const noexcept {
    const std::byte *record = entries_ + entry * format::entry_size;
    return {text_ + format::load<std::uint32_t>(record + format::entry_text_offset_at),
            format::load<std::uint32_t>(record + format::entry_text_size_at)};
}

std::size_t TokenCacheFile::term_count(std::size_t entry) const noexcept {
    return format::load<std::uint32_t>(entries_ + entry * format::entry_size + format::entry_term_count_at);
}

void TokenCacheFile::copy_terms(std::size_t entry, std::span<TermId> out) const noexcept {
    // memcpy's pointers must be valid even for zero bytes, and an entry without terms has none.
    if (out.empty()) {
        return;
    }
    const auto first = format::load<std::uint32_t>(entries_ + entry * format::entry_size + format::entry_first_term_at);
    std::memcpy(out.data(), term_ids_ + std::size_t{first} * format::term_id_size, out.size() * format::term_id_size);
}

std::optional<std::size_t> TokenCacheFile::find(std::uint64_t hash, std::string_view text) const noexcept {
    if (bucket_starts_.empty()) {
        return std::nullopt;
    }
    const std::size_t bucket = hash >> bucket_shift_;
    const std::size_t end = bucket_starts_[bucket + 1];
    for (std::size_t entry = bucket_starts_[bucket]; entry < end; ++entry) {
        const std::uint64_t entry_hash = this->hash(entry);
        if (entry_hash > hash) {
            break;
        }
        if (entry_hash == hash && this->text(entry) == text) {
            return entry;
        }
    }
    return std::nullopt;
}

} // namespace starling::bm25
