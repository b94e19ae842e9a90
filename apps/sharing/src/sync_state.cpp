// SPDX-License-Identifier: Apache-2.0
#include "sync_state.hpp"

#include <starling/app/sharing/sharing_error.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/time_format.hpp>

#include <sstream>
#include <vector>

namespace starling::app::sharing::detail {
namespace {

constexpr std::string_view header = "# starling sync state: id, key, size, modified (ns), inode, wire name, uses here, last use\n";

std::vector<std::string> fields_of(std::string_view line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (start <= line.size()) {
        const auto end = std::min(line.find('\t', start), line.size());
        fields.emplace_back(line.substr(start, end - start));
        start = end + 1;
    }
    return fields;
}

} // namespace

SyncState read_sync_state(const std::filesystem::path &file) {
    SyncState state;
    const auto text = core::read_file_if_exists(file);
    if (!text) {
        return state;
    }
    std::istringstream lines{*text};
    std::string line;
    std::size_t line_number = 0;
    while (std::getline(lines, line)) {
        ++line_number;
        if (line.empty() || line.starts_with('#')) {
            continue;
        }
        const auto fields = fields_of(line);
        try {
            if (fields.size() == 2 && fields[0] == "imported") {
                state.imported = fields[1];
                continue;
            }
            if (fields.size() != 8) {
                throw std::invalid_argument("expected 8 fields");
            }
            SyncedMemory memory;
            memory.key = fields[1];
            memory.stamp.size = std::stoull(fields[2]);
            memory.stamp.modified = std::chrono::sys_time<std::chrono::nanoseconds>(std::chrono::nanoseconds(std::stoll(fields[3])));
            memory.stamp.inode = std::stoull(fields[4]);
            memory.wire_name = fields[5];
            memory.own.uses = static_cast<std::uint32_t>(std::stoul(fields[6]));
            const auto last = core::parse_timestamp(fields[7]);
            if (!last) {
                throw std::invalid_argument("bad last use");
            }
            memory.own.last_used = *last;
            state.memories.insert_or_assign(fields[0], std::move(memory));
        } catch (const std::exception &problem) {
            throw SharingError(file.string() + ":" + std::to_string(line_number) + ": malformed sync state (" +
                               problem.what() + "); delete the file and sync again to rebuild it");
        }
    }
    return state;
}

void write_sync_state(const std::filesystem::path &file, const SyncState &state) {
    std::string text{header};
    text += "imported\t" + state.imported + "\n";
    for (const auto &[id, memory] : state.memories) {
        text += id + "\t" + memory.key + "\t" + std::to_string(memory.stamp.size) + "\t" +
                std::to_string(memory.stamp.modified.time_since_epoch().count()) + "\t" +
                std::to_string(memory.stamp.inode) + "\t" + memory.wire_name + "\t" + std::to_string(memory.own.uses) +
                "\t" + core::format_timestamp(memory.own.last_used) + "\n";
    }
    core::write_file_atomically(file, text);
}

UsageTable own_usage(const SyncState &state) {
    UsageTable table;
    for (const auto &[id, memory] : state.memories) {
        if (memory.own.uses > 0) {
            table.insert_or_assign(memory.wire_name, memory.own);
        }
    }
    return table;
}

} // namespace starling::app::sharing::detail
