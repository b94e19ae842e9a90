// SPDX-License-Identifier: Apache-2.0
#include "module_probe.hpp"

#include <starling/plugins/fatal_signals.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace starling::plugins {

namespace {

// The probe's status when the module crashed it: 128 + the signal, as a shell reports it, so that
// no core dump is written for a crash that is expected to be possible.
extern "C" void on_probe_fatal_signal(int signal_number) { ::_exit(128 + signal_number); }

std::string signal_text(int signal_number) {
    const char *name = ::strsignal(signal_number);
    return std::to_string(signal_number) + (name == nullptr ? std::string{} : " (" + std::string{name} + ")");
}

/// Waits until the probe's end of the pipe closes (it exits) or the budget passes; true on time.
bool ended_in_time(int descriptor, std::chrono::milliseconds budget) {
    const auto deadline = std::chrono::steady_clock::now() + budget;
    std::array<char, 256> ignored;
    while (true) {
        const auto remaining = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (remaining.count() <= 0) {
            return false;
        }
        pollfd ready{descriptor, POLLIN, 0};
        const int polled = ::poll(&ready, 1, static_cast<int>(remaining.count()));
        if (polled < 0 && errno == EINTR) {
            continue;
        }
        if (polled <= 0) {
            return polled < 0;
        }
        const auto count = ::read(descriptor, ignored.data(), ignored.size());
        if (count == 0 || (count < 0 && errno != EINTR)) {
            return true;
        }
    }
}

} // namespace

std::optional<std::string> probe_in_child(const std::function<void()> &work, std::chrono::milliseconds budget,
                                          std::string_view activity) {
    std::array<int, 2> pipe_ends{-1, -1};
    if (::pipe2(pipe_ends.data(), O_CLOEXEC) != 0) {
        return std::nullopt;
    }
    const pid_t probe = ::fork();
    if (probe == 0) {
        ::close(pipe_ends[0]);
        handle_fatal_signals(&on_probe_fatal_signal);
        try {
            work();
        } catch (...) { // an ordinary error: doing the work for real reports it
        }
        ::_exit(0);
    }
    ::close(pipe_ends[1]);
    if (probe < 0) {
        ::close(pipe_ends[0]);
        return std::nullopt;
    }
    const bool in_time = ended_in_time(pipe_ends[0], budget);
    ::close(pipe_ends[0]);
    if (!in_time) {
        ::kill(probe, SIGKILL);
    }
    int status = 0;
    while (::waitpid(probe, &status, 0) < 0 && errno == EINTR) {
    }
    if (!in_time) {
        return "did not finish " + std::string{activity} + " within " + std::to_string(budget.count()) + " ms";
    }
    if (WIFSIGNALED(status)) {
        return "ended the process with signal " + signal_text(WTERMSIG(status)) + " while " + std::string{activity};
    }
    const int code = WEXITSTATUS(status);
    if (code > 128) {
        return "crashed with fatal signal " + signal_text(code - 128) + " while " + std::string{activity};
    }
    if (code != 0) {
        return "ended the process (exit status " + std::to_string(code) + ") while " + std::string{activity};
    }
    return std::nullopt;
}

} // namespace starling::plugins
