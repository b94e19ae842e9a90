// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "resident_protocol.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

/// The resident process: started by a hook that found none, it keeps what every hook would make
/// again — the configuration, the plugins with their settings, the relevance indexes mapped — and
/// runs the events hooks hand it over a Unix socket that only its user can open. A hook still reads
/// its payload, logs the prompt and renders the safe reply itself, so that the agent gets its reply
/// whatever happens to the resident process; it runs the event itself whenever the resident is
/// absent, declines, or was started with another configuration or executable.
namespace starling::app::resident {

/// What asking the resident process came to.
struct Answer {
    enum class Outcome {
        served,   ///< `reply` is the event's
        absent,   ///< nothing served, nothing done: no resident process listens
        declined, ///< nothing done: the resident process cannot serve this hook
        failed,   ///< the event began there and went wrong: `problem` says how
    };
    Outcome outcome = Outcome::absent;
    Reply reply;
    std::string problem;
    /// Whether the hook may start a resident process: none listens, or the one that did is ending.
    bool may_start = false;
};

/// Hands `request` to the resident process at `socket` and waits for its reply until `deadline`.
[[nodiscard]] Answer ask(const std::filesystem::path &socket, const Request &request,
                         std::chrono::steady_clock::time_point deadline);

/// Starts the resident process for `adapter_id` from this executable, detached from the agent (a
/// session of its own, no descriptor of the hook's), without waiting for it.
void start(std::string_view adapter_id);

/// Serves hooks of `adapter_id` until it has been idle for hooks.resident_idle_minutes, the
/// configuration or executable it was started from changes, its socket is taken over, or its
/// STARLING_HOME goes. Returns the process's exit code; problems go to the log.
[[nodiscard]] int serve(std::string_view adapter_id);

/// Runs the after-reply stage of the event whose request the resident process writes on stdin,
/// holding the `starling wait` mark it passes as descriptor 3: how the resident has that work done
/// outside its own process. Returns the exit code.
[[nodiscard]] int run_after_reply_work(std::string_view adapter_id);

/// Prints what the resident process for `adapter_id` has served; 1 when none is running.
[[nodiscard]] int print_status(std::string_view adapter_id);

/// `PROGRAM --resident-hooks [ADAPTER-ID]` serves (how start() runs it), `PROGRAM --resident-status
/// [ADAPTER-ID]` prints print_status(), `PROGRAM --resident-after-reply [ADAPTER-ID]` runs
/// run_after_reply_work() (how the resident starts it); the id is needed by `starling-hook` only,
/// whose `bound_adapter` is empty. Nothing for any other arguments: the hook runs.
[[nodiscard]] std::optional<int> answer_resident_arguments(std::string_view bound_adapter, int argc, char **argv);

} // namespace starling::app::resident
