// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>
#include <starling/core/bus/event_bus.hpp>
#include <starling/core/config/config_error.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/lifecycle/lifecycle.hpp>
#include <starling/sdk/plugin.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app {

/// Payloads above this are not parsed: no agent sends hook JSON this large, and a hook must not
/// spend the agent's time on it. The rest of stdin is still drained so the writer never blocks.
inline constexpr std::size_t kMaxPayloadBytes = 8u << 20;

/// What a hook read on stdin.
struct Payload {
    std::string text;
    std::size_t total_bytes = 0;
    bool cut_at_deadline = false; ///< stdin was still open, without its end, at the hook's deadline
    [[nodiscard]] bool truncated() const noexcept { return total_bytes > text.size(); }
};

/// One hook invocation, as the hook process prepares it and its worker, or the resident process
/// that serves it (resident_server.hpp), runs it.
struct HookRun {
    std::string_view adapter_id;
    std::vector<std::string> arguments;
    Payload payload;
    std::string component;
    Application *application = nullptr;
    const core::Logger *logger = nullptr;
    /// The agent's adapter: the hook's own, or the resident process's, which outlives the run.
    plugins::AdapterInstance *adapter = nullptr;
    sdk::Event event;
    bool parsed = false;
    sdk::RenderedReply safe;
    /// How many messages the session log held once the hook logged the event's prompt.
    std::optional<std::size_t> logged_prompt_count;
    bool store_unwritable = false; ///< logging the prompt found the store unwritable, and said so

    /// Settings a plugin refused before the session was known, which is when they are reported.
    std::vector<core::ConfigError> refused_settings;
    bool session_known = false;

    /// Whether the event has anything for Starling to do, so that plugins run for it.
    [[nodiscard]] bool has_work() const { return parsed && event.kind != sdk::EventKind::other; }
};

/// Whether `problem` (a short stable name) is the session's first report of it: a problem every hook
/// of a session runs into is said once, not at every hook. Where the session's state cannot be
/// kept, every report is a first.
[[nodiscard]] bool first_report_in_session(Application &application, const std::string &session_id,
                                           std::string_view problem);

/// Turns the payload into the event with the adapter, and renders the event's safe reply.
void parse_and_render_safe(HookRun &run);

/// Reports what of the configuration the hook runs without, now that the session is known (the
/// adapter has parsed the payload); settings refused from now on are reported as they are.
void report_configuration_problems(HookRun &run);

/// Settings a plugin refused, so that it runs on its defaults: reported now if the session is
/// known, else kept for report_configuration_problems().
void note_refused_settings(HookRun &run, core::ConfigError refused);

/// Logs the event's prompt, if it has one, before any plugin runs: a process that a plugin ends or
/// the budget kills cannot take what the user typed with it. Sets logged_prompt_count, or
/// store_unwritable when the store cannot be written (said in the log and on stderr).
void log_prompt_before_plugins(HookRun &run);

/// The reply stage of one event, run: what the agent gets, and what the after-reply stage needs.
/// Never moved: the bus holds subscriptions that point into the lifecycle beside it.
struct ReplyStage {
    ReplyStage() = default;
    ReplyStage(const ReplyStage &) = delete;
    ReplyStage &operator=(const ReplyStage &) = delete;

    sdk::RenderedReply rendered;
    std::optional<core::EventBus> bus;
    std::optional<core::Lifecycle> lifecycle;
    /// Whether work is subscribed to the after-reply stage and can be done (the store is writable).
    bool after_reply = false;

    /// Marks the work after the reply as begun, for `starling wait`: taken before the reply lets the
    /// agent go on, so that a `starling wait` started after the hook has ended cannot miss the work —
    /// the after-reply stage, and what records the reply (core::Lifecycle::write_reply_records).
    /// Nothing when there is no such work, or when the mark cannot be taken (said in the log).
    [[nodiscard]] std::optional<core::FileLock> mark_after_reply_work(HookRun &run) const;
    /// Writes what records the reply (core::Lifecycle::write_reply_records), once it is sent and
    /// before the after-reply stage, which folds the uses they note.
    void write_reply_records();
    /// Runs the after-reply stage.
    void publish_after_reply(const HookRun &run) const;
};

/// Resolves the event's project, builds the lifecycle on the bus, publishes the reply stage and
/// renders the reply, into `stage`. Never throws: a failure is logged and gives the safe reply.
void run_reply_stage(HookRun &run, ReplyStage &stage);

/// Runs the after-reply stage of the event alone, in a process of its own that did not run its
/// reply stage: `relevance_index_stale` is what that stage's injection found. Each plugin call is
/// watched (plugins.call_budget_ms). Never throws: a failure is logged.
void run_after_reply_stage_alone(HookRun &run, bool relevance_index_stale);

} // namespace starling::app
