// SPDX-License-Identifier: Apache-2.0
//
// The machine index's binary snapshot (`index/snapshot.bin`), decoded in place as every hook does.
// Random bytes almost never carry the right checksum, so an input whose first byte is odd gets its
// header's payload size and checksum made to fit first: that lets the fuzzer reach the record
// decoding behind the checksum, which a torn or corrupt file that happens to match would reach too.
// Such a file may hold what the writer never writes (a key that is no memory key, a tier the key
// does not say): the reader trusts the checksum for that, so what decodes is not re-encoded, only
// read through, byte by byte, so that every view is checked to lie inside the input.
#include "scratch_directory.hpp"

#include "core/src/store/index/index_snapshot.hpp"

#include <cstring>
#include <string>

namespace {

/// Header offsets, from index_snapshot.hpp: magic and version (8), byte-order mark (4), record
/// count (4), payload size (8), payload checksum (8).
constexpr std::size_t payload_size_offset = 16;
constexpr std::size_t checksum_offset = 24;

void fit_header(std::string &bytes) {
    const std::string_view payload = std::string_view{bytes}.substr(starling::core::detail::snapshot_header_size);
    const std::uint64_t payload_size = payload.size();
    const std::uint64_t checksum = starling::core::detail::snapshot_checksum(payload);
    std::memcpy(bytes.data() + payload_size_offset, &payload_size, sizeof payload_size);
    std::memcpy(bytes.data() + checksum_offset, &checksum, sizeof checksum);
}

std::size_t read_through(std::string_view text) {
    std::size_t sum = 0;
    for (const char byte : text) {
        sum += static_cast<unsigned char>(byte);
    }
    return sum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    std::string bytes{starling::fuzz::as_text(data + 1, size - 1)};
    if ((data[0] & 1U) != 0 && bytes.size() >= starling::core::detail::snapshot_header_size) {
        fit_header(bytes);
    }
    (void)starling::core::detail::snapshot_identity(std::string_view{bytes}.substr(
        0, std::min(bytes.size(), starling::core::detail::snapshot_header_size)));
    const auto records = starling::core::detail::decode_index_snapshot(bytes);
    std::size_t sum = 0;
    for (const auto &record : records.value_or(std::vector<starling::core::detail::IndexRecordView>{})) {
        const auto &memory = record.memory;
        for (const std::string_view text :
             {memory.key, memory.project_id, memory.type, memory.summary, memory.tags, memory.id, record.message}) {
            sum += read_through(text);
        }
    }
    // Kept observable, so that the reads are not optimised away.
    volatile std::size_t observed = sum;
    (void)observed;
    return 0;
}
