// SPDX-License-Identifier: Apache-2.0
#include "cached_term_table.hpp"

#include "token_cache_format.hpp"

namespace starling::bm25 {

namespace format = token_cache_format;

std::string_view CachedTermTable::text(TermId id) const noexcept {
    const std::byte *record = records_ + std::size_t{id} * format::term_size;
    return {text_ + format::load<std::uint32_t>(record + format::term_text_offset_at),
            format::load<std::uint32_t>(record + format::term_text_size_at)};
}

std::optional<TermId> CachedTermTable::find(std::string_view term) const noexcept {
    std::uint32_t low = 0;
    std::uint32_t high = count_;
    while (low < high) {
        const std::uint32_t middle = low + (high - low) / 2;
        const auto order = text(middle).compare(term);
        if (order == 0) {
            return middle;
        }
        if (order < 0) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return std::nullopt;
}

} // namespace starling::bm25
