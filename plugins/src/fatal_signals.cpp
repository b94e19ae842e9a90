// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/fatal_signals.hpp>

#include <signal.h>

#include <initializer_list>

namespace starling::plugins {

void handle_fatal_signals(void (*handler)(int)) noexcept {
    struct sigaction action{};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    for (const int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
        ::sigaction(signal_number, &action, nullptr);
    }
}

} // namespace starling::plugins
