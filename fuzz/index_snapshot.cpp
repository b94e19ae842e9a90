// SPDX-License-Identifier: Apache-2.0
//
// The machine index's binary snapshot (`index/snapshot.bin`), decoded in place as every hook does.
// Random bytes almost never carry the right checksum, so an input whose first byte is odd gets its
// header's payload size and checksum made to fit first: that lets the fuzzer reach the record
// decoding behind the checksum, which a torn or corrupt file that happens to match would reach too.
// What decodes must encode back to the same bytes.
#include "scratch_directory.hpp"

#include "core/src/store/index_snapshot.hpp"

#include <cstdlib>
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
    if (records && starling::core::detail::encode_index_snapshot(*records) != bytes) {
        std::abort();
    }
    return 0;
}
