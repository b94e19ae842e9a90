// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace starling::plugins {

/// Makes `handler` the handler of every signal that ends a process for a fault in its own code
/// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT), replacing whatever handled them. The one list of
/// them, for every crash handler: the hooks', their worker's, the module probe's and the
/// `starling` command's. `handler` runs on the faulting thread and may call only
/// async-signal-safe functions.
void handle_fatal_signals(void (*handler)(int)) noexcept;

} // namespace starling::plugins
