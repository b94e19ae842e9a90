// SPDX-License-Identifier: Apache-2.0
//
// Which files a shell command reads. Agents without a read tool (Codex) read through their shell, and
// the others do too at times; a memory read with `cat` is used as much as one read with a Read tool.
// Only commands whose file operands are plainly read are known: cat, head, tail, sed -n, less, more,
// rg, grep and their kin. A command that writes in place (sed -i) reads nothing here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace starling::adapters {

/// The files `command` reads, as written (relative paths stay relative), in order. Quoting is undone
/// as the shell undoes it; every simple command of a pipeline or list counts.
[[nodiscard]] std::vector<std::string> files_read_by(std::string_view command);

} // namespace starling::adapters
