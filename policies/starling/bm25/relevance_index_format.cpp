// SPDX-License-Identifier: Apache-2.0
#include "relevance_index_format.hpp"

#include "cache-files/text_hash.hpp"

#include <cstring>
#include <string>

namespace starling::bm25::relevance_index_format {

std::uint64_t block_checksum(std::uint64_t bucket, std::string_view entries) {
    std::string covered(sizeof bucket, '\0');
    std::memcpy(covered.data(), &bucket, sizeof bucket);
    covered += entries;
    return cache_files::checksum_bytes(covered);
}

} // namespace starling::bm25::relevance_index_format
