// SPDX-License-Identifier: Apache-2.0
//
// The term table of a token cache file, read in place: a term's id is its index, and the table is
// sorted by text, so the few terms of a query are found by binary search and nothing is built
// when the file is loaded.
#pragma once

#include "term_id.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace starling::bm25 {

class CachedTermTable {
public:
    /// An empty table.
    CachedTermTable() = default;
    /// `count` term records of the file format, whose text offsets point into `text`. The caller
    /// has checked every record (token_cache_file.cpp); both spans outlive the table.
    CachedTermTable(const std::byte *records, std::uint32_t count, const char *text) noexcept
        : records_(records), count_(count), text_(text) {}

    [[nodiscard]] std::size_t size() const noexcept { return count_; }
    [[nodiscard]] std::string_view text(TermId id) const noexcept;
    [[nodiscard]] std::optional<TermId> find(std::string_view term) const noexcept;

private:
    const std::byte *records_ = nullptr;
    std::uint32_t count_ = 0;
    const char *text_ = nullptr;
};

} // namespace starling::bm25
