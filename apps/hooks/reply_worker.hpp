// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/plugin.hpp> // RenderedReply

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace starling::app {

/// The worker's end of the pipe its reply goes through.
class ReplySender {
public:
    explicit ReplySender(int descriptor) noexcept : descriptor_(descriptor) {}
    /// Sends the reply and closes the pipe; only the first call sends.
    void send(const sdk::RenderedReply &reply) noexcept;
    [[nodiscard]] bool sent() const noexcept { return descriptor_ < 0; }

private:
    int descriptor_;
};

/// What a hook got from its reply worker.
struct WorkerOutcome {
    /// The worker's reply, when it sent one within the budget.
    std::optional<sdk::RenderedReply> reply;
    /// Otherwise what happened, naming the plugin call that was running: "plugin 'x' in `score`
    /// did not finish within the hook's budget of 800 ms (hooks.budget_ms)".
    std::string failure;
    pid_t worker = -1;
};

/// Runs `work` in a child process — the hook's worker — and waits until `deadline` (the end of the
/// hook's `budget`, which failures name) for the reply
/// it sends: plugins run there, so that a plugin that hangs, crashes or ends its process cannot
/// take the hook's reply with it. A worker that has not replied in time is killed. The worker may
/// go on after sending its reply (the after-reply work); it ends when `work` returns. The plugin
/// host records each call the worker makes into a page shared with this process, which is how the
/// failure names the plugin. A crash after the reply is the worker's to report: in `log_file`.
[[nodiscard]] WorkerOutcome run_reply_worker(std::chrono::steady_clock::time_point deadline,
                                             std::chrono::milliseconds budget, const std::filesystem::path &log_file,
                                             const std::function<void(ReplySender &)> &work);

/// Waits until the worker has ended or `deadline` has passed; true when it ended.
[[nodiscard]] bool wait_for_worker(pid_t worker, std::chrono::steady_clock::time_point deadline) noexcept;

/// Makes a worker that receives SIGUSR1 cut itself loose from the agent (detach_from_agent) and go on:
/// how a hook that runs its after-reply work in the foreground (`hooks.background = false`) still ends
/// within its budget. Set before the worker is forked, which inherits it.
void detach_worker_on_signal() noexcept;

/// Tells `worker` to go on detached (see detach_worker_on_signal).
void detach_worker(pid_t worker) noexcept;

/// Cuts a worker that has sent its reply loose from the agent: a session of its own, and stdin,
/// stdout and stderr on /dev/null, so that the agent sees the hook end as soon as its parent does.
void detach_from_agent() noexcept;

/// How much lower than the hooks the work after a reply runs (nice): consolidating and rebuilding
/// the relevance indexes take both cores of a small machine for a fifth of a second at 10,000
/// memories, and the next hook — a prompt given right after its session's start — must not wait
/// for them.
inline constexpr int after_reply_niceness = 10;

/// Lowers this process's CPU priority by after_reply_niceness, for work nobody waits on.
void yield_to_hooks() noexcept;

} // namespace starling::app
