// SPDX-License-Identifier: Apache-2.0
//
// The machine index's journal (`index/journal.tsv`) on top of a small valid snapshot, loaded as
// every hook loads it and listed in full. A line that does not decode makes the index garbled (and
// rebuilt), never a crash; a line that decodes encodes back to a line that decodes the same.
#include "scratch_directory.hpp"

#include "core/src/store/index/index_record.hpp"
#include "core/src/store/index/index_snapshot.hpp"
#include "core/src/store/index/machine_index.hpp"

#include <chrono>
#include <cstdlib>
#include <vector>

namespace {

using starling::core::detail::IndexRecordView;

std::string snapshot_bytes() {
    std::vector<IndexRecordView> records(2);
    records[0].memory.key = "memory/projects/app-1a2b3c4d/long/2026-01-01_ports.md";
    records[1].memory.key = "memory/user/long/2026-02-02_dark.md";
    for (IndexRecordView &record : records) {
        record.memory.type = "feedback";
        record.memory.summary = "a summary";
        record.memory.created = std::chrono::sys_seconds{std::chrono::seconds{1'700'000'000}};
        record.memory.last_accessed = record.memory.created;
    }
    return starling::core::detail::encode_index_snapshot(records);
}

void check_line_round_trip(std::string_view line) {
    starling::core::detail::UnescapedFields unescaped;
    const auto record = starling::core::detail::decode_index_record_view(line, unescaped);
    if (!record) {
        return;
    }
    std::string encoded = starling::core::detail::encode_index_record(*record);
    encoded.pop_back(); // its '\n'
    const auto again = starling::core::detail::decode_index_record_view(encoded, unescaped);
    if (!again || starling::core::detail::encode_index_record(*again) != encoded + '\n') {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const starling::fuzz::ScratchDirectory scratch;
    static const std::string snapshot = snapshot_bytes();
    const std::string_view journal = starling::fuzz::as_text(data, size);
    starling::fuzz::write_bytes(scratch.path() / "snapshot.bin", snapshot);
    starling::fuzz::write_bytes(scratch.path() / "journal.tsv", journal);

    starling::core::detail::MachineIndex index{scratch.path()};
    if (index.refresh() == starling::core::detail::MachineIndex::State::current) {
        std::size_t visited = 0;
        index.for_each([&](const IndexRecordView &record) { visited += record.memory.key.size(); });
        (void)visited;
    }
    for (std::string_view rest = journal; !rest.empty();) {
        const auto end = std::min(rest.find('\n'), rest.size());
        check_line_round_trip(rest.substr(0, end));
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    return 0;
}
