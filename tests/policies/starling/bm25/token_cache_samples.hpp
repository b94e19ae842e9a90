// SPDX-License-Identifier: Apache-2.0
// Token cache files for the tests of policies/starling/bm25/token_cache_*: built by the real builder from
// texts and hand-picked terms, and bent afterwards where a test needs a damaged file.
#pragma once

#include "policies/starling/bm25/term_dictionary.hpp"
#include "policies/starling/bm25/token_cache_builder.hpp"
#include "policies/starling/bm25/token_cache_format.hpp"
#include "policies/cache-files/text_hash.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace starling::test {

inline constexpr std::uint64_t sample_fingerprint = 0x0123456789abcdefULL;

/// Texts with their terms, as a scoring call would hand them to the builder.
class SampleEntries {
public:
    SampleEntries &add(std::string text, const std::vector<std::string> &terms,
                       cache_files::TextHash hash = &cache_files::hash_text) {
        texts_.push_back(std::move(text));
        auto &ids = ids_.emplace_back();
        for (const auto &term : terms) {
            ids.push_back(dictionary_.intern(term));
        }
        hashes_.push_back(hash(texts_.back()));
        return *this;
    }

    /// A term the dictionary knows but no entry uses.
    SampleEntries &add_unused_term(std::string_view term) {
        (void)dictionary_.intern(term);
        return *this;
    }

    [[nodiscard]] std::vector<bm25::CacheEntry> entries() const {
        std::vector<bm25::CacheEntry> entries;
        for (std::size_t index = 0; index < texts_.size(); ++index) {
            entries.push_back({hashes_[index], texts_[index], ids_[index]});
        }
        return entries;
    }
    [[nodiscard]] const bm25::TermDictionary &dictionary() const noexcept { return dictionary_; }

    [[nodiscard]] std::vector<std::byte> build(std::uint64_t fingerprint = sample_fingerprint) const {
        auto bytes = bm25::build_token_cache_file(entries(), dictionary_, fingerprint, std::size_t{1} << 20);
        return bytes ? std::move(*bytes) : std::vector<std::byte>{};
    }

private:
    bm25::TermDictionary dictionary_;
    std::deque<std::string> texts_;
    std::deque<std::vector<bm25::TermId>> ids_;
    std::vector<std::uint64_t> hashes_;
};

/// Three entries: "Deploy the queue" (deploy, queue), "billing" (billing), "" (no terms).
inline std::vector<std::byte> sample_file(std::uint64_t fingerprint = sample_fingerprint) {
    return SampleEntries{}
        .add("Deploy the queue", {"deploy", "queue"})
        .add("billing", {"billing"})
        .add("", {})
        .build(fingerprint);
}

template <class Integer>
void poke(std::vector<std::byte> &bytes, std::size_t offset, Integer value) {
    bm25::token_cache_format::store<Integer>(bytes.data() + offset, value);
}

template <class Integer>
Integer peek(const std::vector<std::byte> &bytes, std::size_t offset) {
    return bm25::token_cache_format::load<Integer>(bytes.data() + offset);
}

/// Makes the checksum match again after a test changed the payload, so that the reader's other
/// checks are the ones that have to catch the change.
inline void reseal(std::vector<std::byte> &bytes) {
    namespace format = bm25::token_cache_format;
    const std::string_view payload{reinterpret_cast<const char *>(bytes.data()) + format::header_size,
                                   bytes.size() - format::header_size};
    poke<std::uint64_t>(bytes, format::checksum_at, cache_files::hash_text(payload));
}

} // namespace starling::test
