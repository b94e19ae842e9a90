// SPDX-License-Identifier: Apache-2.0
//
// How the uses of memories travel: each machine writes only its own usage file,
// `machines/<machine-id>/usage.tsv`, with the uses made on it. Two machines never write the same
// file, so usage never conflicts, and a memory's count on any machine is the sum over the files.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app::sharing {

/// The uses one machine (or all machines) made of one memory.
struct Usage {
    std::uint32_t uses = 0;
    std::chrono::sys_seconds last_used{};

    friend bool operator==(const Usage &, const Usage &) = default;
};

/// Usage by memory, keyed by the memory's wire name without `.md` (`user/k3f9a2q`,
/// `projects/<project-id>/k3f9a2q`), sorted so that the file's lines change only where uses did.
using UsageTable = std::map<std::string, Usage, std::less<>>;

/// The text of a usage file: a comment line, then `name<TAB>uses<TAB>last use` per memory with uses.
[[nodiscard]] std::string serialise_usage(const UsageTable &table);

/// Reads a usage file. Throws SharingError naming `source_name` and the line for a malformed line.
[[nodiscard]] UsageTable parse_usage(std::string_view text, std::string_view source_name);

/// Adds `table`'s uses into `into` (saturating), keeping the latest use.
void add_usage(UsageTable &into, const UsageTable &table);

} // namespace starling::app::sharing
