// SPDX-License-Identifier: Apache-2.0
#include "hook_runner.hpp"

#include "descriptor_io.hpp"
#include "reply_worker.hpp"

#include <starling/app/application.hpp>
#include <starling/app/configured_plugin.hpp>
#include <starling/app/sharing/configured_team_folders.hpp>
#include <starling/app/version.hpp>
#include <starling/core/bus/background_work.hpp>
#include <starling/core/bus/event_bus.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/config/plugin_settings.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/lifecycle/lifecycle.hpp>
#include <starling/core/lifecycle/session_log.hpp>
#include <starling/plugins/fatal_signals.hpp>
#include <starling/plugins/static_plugins.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <optional>
#include <sys/stat.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace starling::app {

namespace {

/// Payloads above this are not parsed: no agent sends hook JSON this large, and a hook must not
/// spend the agent's time on it. The rest of stdin is still drained so the writer never blocks.
constexpr std::size_t kMaxPayloadBytes = 8u << 20;

struct Payload {
    std::string text;
    std::size_t total_bytes = 0;
    bool cut_at_deadline = false; ///< stdin was still open, without its end, at the hook's deadline
    [[nodiscard]] bool truncated() const noexcept { return total_bytes > text.size(); }
};

/// Whether the writer has nothing more ready and what it wrote is one whole JSON object: agents send
/// their payload at once, and some leave stdin open after it.
bool writer_paused_after_a_whole_object(std::string_view text) {
    const auto last = text.find_last_not_of(" \t\r\n");
    if (last == std::string_view::npos || text[last] != '}') {
        return false;
    }
    pollfd more{STDIN_FILENO, POLLIN, 0};
    if (::poll(&more, 1, 0) != 0) {
        return false; // more bytes (or the end) are there: read them
    }
    return nlohmann::json::accept(text);
}

/// Reads stdin until its end, until the writer pauses after a whole JSON object, or until `deadline`:
/// an agent that leaves stdin open must not hold the hook past its budget.
Payload read_stdin(std::chrono::steady_clock::time_point deadline) {
    Payload payload;
    // Left uninitialised on purpose: zeroing it touched 16 fresh stack pages on every hook (about
    // 30 µs of page faults) for payloads that are mostly a few hundred bytes; read() fills what is used.
    std::array<char, 65536> buffer;
    while (true) {
        const auto remaining =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd readable{STDIN_FILENO, POLLIN, 0};
        const int polled = ::poll(&readable, 1, static_cast<int>(std::max<std::int64_t>(remaining.count(), 0)));
        if (polled < 0 && errno == EINTR) {
            continue;
        }
        if (polled == 0) {
            payload.cut_at_deadline = true;
            break;
        }
        const auto count = ::read(STDIN_FILENO, buffer.data(), buffer.size());
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count <= 0) {
            break;
        }
        const auto size = static_cast<std::size_t>(count);
        payload.total_bytes += size;
        if (payload.text.size() < kMaxPayloadBytes) {
            payload.text.append(buffer.data(), std::min(size, kMaxPayloadBytes - payload.text.size()));
        }
        if (writer_paused_after_a_whole_object(payload.text)) {
            break; // an agent that keeps stdin open has said all it will: one JSON object
        }
    }
    return payload;
}

// What the crash handler writes. Armed before anything but reading stdin runs, with the safe reply
// once the adapter has rendered it; only read inside the handler with async-signal-safe calls.
std::string crash_reply;
std::string crash_log_path;

extern "C" void on_fatal_signal(int signal_number) {
    constexpr char message[] = "starling: hook crashed (fatal signal); the agent got the safe reply\n";
    write_all(STDERR_FILENO, message, sizeof message - 1);
    if (!crash_log_path.empty()) {
        const int log = ::open(crash_log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (log >= 0) {
            constexpr char line[] = "error hook: crashed with a fatal signal; replied with the safe reply\n";
            write_all(log, line, sizeof line - 1);
            ::close(log);
        }
    }
    write_all(STDOUT_FILENO, crash_reply.data(), crash_reply.size());
    (void)signal_number;
    ::_exit(0);
}

void arm_crash_reply(std::string reply, std::string log_path) {
    crash_reply = std::move(reply);
    crash_log_path = std::move(log_path);
    plugins::handle_fatal_signals(&on_fatal_signal);
}

/// The event used when the payload cannot be parsed: enough for the adapter to render the safe
/// reply of the event named on the command line (the installed hooks always name it).
sdk::Event fallback_event(std::string_view adapter_id, const std::vector<std::string> &arguments) {
    sdk::Event event;
    event.kind = sdk::EventKind::other;
    event.agent = std::string{adapter_id};
    if (!arguments.empty()) {
        event.agent_event = arguments.front();
    }
    return event;
}

/// Whether the adapter declares a notify program and the last argument carries a JSON payload.
bool payload_in_arguments(const plugins::AdapterInstance &adapter, const std::vector<std::string> &arguments) {
    if (arguments.empty()) {
        return false;
    }
    const auto &last = arguments.back();
    const auto first = last.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || last[first] != '{') {
        return false;
    }
    try {
        const auto integration = adapter.integration();
        return integration && integration->notify && integration->notify->payload == "last_argument";
    } catch (const std::exception &) {
        return false;
    }
}

std::filesystem::path bootstrap_log_path() {
    try {
        return core::starling_home_dir(core::from_process_environment()) / "logs" / "starling.log";
    } catch (const std::exception &) {
        return {};
    }
}

/// Whether `problem` (a short stable name) is the session's first report of it: a problem every hook
/// of a session runs into is said once, not at every hook. Where the session's state cannot be
/// kept, every report is a first.
bool first_report_in_session(Application &application, const std::string &session_id, std::string_view problem) {
    try {
        core::SessionLog session{application.store().root() / "sessions",
                                 session_id.empty() ? "no-session" : session_id};
        return session.first_report_of(problem);
    } catch (const std::exception &) {
        return true;
    }
}

/// Says, in the log and on stderr, why the configuration file was not used — once per session.
void report_unusable_config(Application &application, const std::string &session_id, const core::Logger &logger,
                            const std::string &component) {
    std::optional<std::string> problem;
    try {
        problem = application.config_problem();
    } catch (const std::exception &) {
        return; // not even the defaults: already reported
    }
    if (problem && first_report_in_session(application, session_id, "configuration unusable")) {
        logger.warning(component, "configuration unusable, running on the embedded defaults until it is fixed "
                                  "(`starling config check` shows every error): " + *problem);
    }
}

/// Says, in the log and on stderr, that a plugin runs on its defaults because it refused the
/// settings of its table — once per session and table.
void report_refused_settings(Application &application, const std::string &session_id, const core::Logger &logger,
                             const std::string &component, const core::ConfigError &refused) {
    if (first_report_in_session(application, session_id, "plugin settings refused: " + refused.key())) {
        logger.warning(component, refused_settings_warning(refused));
    }
}

/// One hook invocation: what the parent prepares before any module is loaded, and what its worker
/// inherits when it forks.
struct HookRun {
    std::string_view adapter_id;
    std::vector<std::string> arguments;
    Payload payload;
    std::string component;
    Application *application = nullptr;
    const core::Logger *logger = nullptr;
    std::optional<plugins::AdapterInstance> adapter;
    sdk::Event event;
    bool parsed = false;
    sdk::RenderedReply safe;
    /// How many messages the session log held once the parent logged the event's prompt.
    std::optional<std::size_t> logged_prompt_count;
    bool store_unwritable = false; ///< logging the prompt found the store unwritable, and said so

    /// Settings a plugin refused before the session was known, which is when they are reported.
    std::vector<core::ConfigError> refused_settings;
    bool session_known = false;

    /// Whether the event has anything for Starling to do, so that plugins run for it.
    [[nodiscard]] bool has_work() const { return parsed && event.kind != sdk::EventKind::other; }
};

/// Reports what of the configuration the hook runs without, now that the session is known (the
/// adapter has parsed the payload); settings refused from now on are reported as they are.
void report_configuration_problems(HookRun &run) {
    run.session_known = true;
    report_unusable_config(*run.application, run.event.session_id, *run.logger, run.component);
    for (const auto &refused : run.refused_settings) {
        report_refused_settings(*run.application, run.event.session_id, *run.logger, run.component, refused);
    }
    run.refused_settings.clear();
}

/// Settings a plugin refused, so that it runs on its defaults: reported now if the session is
/// known, else kept for report_configuration_problems().
void note_refused_settings(HookRun &run, core::ConfigError refused) {
    if (run.session_known) {
        report_refused_settings(*run.application, run.event.session_id, *run.logger, run.component, refused);
    } else {
        run.refused_settings.push_back(std::move(refused));
    }
}

/// The adapter `adapter_id` if it is linked into this binary, and nothing from a plugin directory.
/// Deliberately never destroyed, like the application.
const plugins::PluginRegistry &linked_adapter(const core::Logger &logger, std::string_view adapter_id) {
    auto &linked = *new plugins::PluginRegistry{logger, plugins::PluginHostOptions{}};
    linked.add_static_plugins(plugins::linked_static_plugins(), std::vector<std::string>{std::string{adapter_id}});
    return linked;
}

/// Turns the payload into the event with the adapter, and renders the event's safe reply.
void parse_and_render_safe(HookRun &run) {
    run.event = fallback_event(run.adapter_id, run.arguments);
    // An agent's notify program gets its payload as the last argument with nothing on stdin; for
    // anything else an empty stdin means the agent (or its configuration) is broken.
    if (run.payload.total_bytes == 0 && !payload_in_arguments(*run.adapter, run.arguments)) {
        run.logger->warning(run.component, "empty payload on stdin; replying with the safe reply");
    }
    if (run.payload.truncated()) {
        run.logger->error(run.component, "payload of " + std::to_string(run.payload.total_bytes) +
                                             " bytes exceeds the " + std::to_string(kMaxPayloadBytes) +
                                             "-byte limit; ignored");
    } else {
        try {
            run.event = run.adapter->parse(run.arguments, run.payload.text);
            run.parsed = true;
        } catch (const std::exception &failure) {
            run.logger->error(run.component, std::string{"unreadable payload: "} + failure.what());
        }
    }
    try {
        run.safe = run.adapter->render(run.event, sdk::Reply{});
    } catch (const std::exception &failure) {
        run.logger->error(run.component, std::string{"cannot render the safe reply: "} + failure.what());
    }
    run.safe.exit_code = 0;
}

/// The hook's worker: loads the modules the event uses, runs the reply stage, sends the reply,
/// then does the after-reply work — in the background, cut loose from the agent, unless
/// `hooks.background` is off. Whatever a plugin does here, the parent still answers the agent.
void work_in_worker(HookRun &run, ReplySender &sender, bool background) {
    Application &application = *run.application;
    if (!run.adapter) {
        // An adapter from a module is loaded here, where its crash cannot take the hook with it;
        // until it has rendered one, there is no safe reply but silence.
        try {
            run.adapter.emplace(application.adapter(run.adapter_id));
        } catch (const std::exception &failure) {
            run.logger->error(run.component, std::string{"no adapter, replying nothing: "} + failure.what());
            sender.send(sdk::RenderedReply{});
            return;
        }
        parse_and_render_safe(run);
        report_configuration_problems(run);
        if (!run.has_work()) {
            sender.send(run.safe);
            return;
        }
    }
    sdk::RenderedReply rendered = run.safe;
    std::optional<core::EventBus> bus;
    std::optional<core::Lifecycle> lifecycle;
    try {
        auto &store = application.store();
        if (!run.event.working_directory.empty()) {
            run.event.project = store.resolve_project(run.event.working_directory);
        }
        bus.emplace(*run.logger);
        lifecycle.emplace(store, application.active_policies(), application.lifecycle_settings(), *run.logger);
        if (run.logged_prompt_count) {
            lifecycle->prompt_logged(*run.logged_prompt_count);
        }
        if (run.store_unwritable) {
            lifecycle->store_unwritable();
        }
        lifecycle->subscribe(*bus);
        sharing::subscribe_team_folder_upkeep(*bus, store, application.config().sharing, *run.logger);
        const auto dispatch = bus->publish(run.event, core::Stage::reply);
        rendered = run.adapter->render(run.event, dispatch.reply);
        if (!dispatch.reply.block_reason) {
            rendered.exit_code = 0; // only a deliberate block may stop the agent
        }
    } catch (const std::exception &failure) {
        run.logger->error(run.component, std::string{"event failed, replied with the safe reply: "} + failure.what());
        rendered = run.safe;
        bus.reset();
    }
    // On a store that cannot be written, the work after the reply (folding uses, consolidating,
    // indexing) could only fail again.
    const bool after_reply = bus && lifecycle && !lifecycle->store_unwritable_seen() &&
                             bus->has_subscribers(run.event, core::Stage::after_reply);
    // Taken before the reply lets the parent exit, so that `starling wait` started after the hook
    // has ended cannot miss the work.
    std::optional<core::FileLock> mark;
    if (after_reply && background) {
        try {
            mark.emplace(core::mark_background_work(application.store().root()));
        } catch (const std::exception &failure) {
            run.logger->warning(run.component, std::string{"background work runs unmarked: "} + failure.what());
        }
    }
    sender.send(rendered);
    if (!after_reply) {
        return;
    }
    if (background) {
        detach_from_agent();
    }
    // Nobody waits for this work with a deadline, but a hung plugin may hold the store's lock.
    application.watch_plugin_calls();
    static_cast<void>(bus->publish(run.event, core::Stage::after_reply));
}

void write_reply(const sdk::RenderedReply &reply) {
    // Straight to the descriptor: with no iostream in the hook binaries, start-up skips initialising
    // the standard streams and their locale.
    write_all(STDOUT_FILENO, reply.stdout_text.data(), reply.stdout_text.size());
}

} // namespace

std::optional<int> answer_asked_by_hand(std::string_view program, std::string_view adapter_id, int argc,
                                        char **argv) {
    if (argc != 2) {
        return std::nullopt;
    }
    const std::string_view option{argv[1]};
    if (option == "--version") {
        std::cout << program << " (starling) " << kVersion << '\n';
        return 0;
    }
    if (option != "--help" && option != "-h") {
        return std::nullopt;
    }
    std::cout << "Usage: " << program << (adapter_id.empty() ? " ADAPTER-ID" : "") << " [ARGS...] < PAYLOAD\n\n"
              << "  Starling's hook for "
              << (adapter_id.empty() ? "an agent whose adapter a plugin module adds" : std::string{adapter_id})
              << ".\n  The agent runs it at each hook event: it reads the event's JSON payload on stdin,\n"
              << "  injects and captures memories, and replies on stdout as the agent expects, within\n"
              << "  hooks.budget_ms. `starling install AGENT` sets it up, and `starling inject` shows\n"
              << "  what it would inject: nobody needs to run it by hand.\n\n"
              << "Options:\n"
              << "  -h, --help    this help\n"
              << "  --version     print the version\n";
    return 0;
}

int run_hook(std::string_view adapter_id, int argc, char **argv) {
    // Everything a hook creates holds what the user typed: private, plugins' caches included.
    ::umask(077);
    // The agent waits from here: the budget counts from the hook's start, stdin included.
    const auto started = std::chrono::steady_clock::now();
    HookRun run;
    run.adapter_id = adapter_id;
    run.arguments.assign(argv + 1, argv + argc);
    run.component = "hook " + std::string{adapter_id};

    // Until the configuration is read, problems go to the default log.
    const core::Logger bootstrap{bootstrap_log_path(), core::LogLevel::info, /*mirror_to_stderr=*/true};
    // The crash guard is up before any plugin code runs; it has no reply to give until the adapter
    // has rendered the safe one.
    arm_crash_reply({}, bootstrap.file().string());
    // Deliberately never destroyed: the process ends right after the reply, and tearing down a
    // 10,000-entry index entry by entry would cost the waiting agent milliseconds for memory the
    // kernel reclaims anyway. Every file it wrote is complete by then; locks die with the process.
    // A configuration file that cannot be used never switches Starling off: the hook runs on the
    // embedded defaults and says why, once per session.
    Application &application = *new Application{std::nullopt, Application::UnusableConfig::use_embedded_defaults};
    run.application = &application;
    run.logger = &bootstrap;
    try {
        run.logger = &application.logger();
    } catch (const std::exception &failure) {
        bootstrap.error(run.component, std::string{"no usable configuration, not even the embedded defaults: "} +
                                           failure.what());
    }
    // hooks.budget_ms's default, for a hook with no usable configuration at all (said below).
    std::chrono::milliseconds budget{800};
    try {
        budget = std::chrono::milliseconds{application.config().hooks.budget_ms};
    } catch (const std::exception &) {
    }
    const auto deadline = started + budget;
    run.payload = read_stdin(deadline);
    if (run.payload.cut_at_deadline) {
        run.logger->warning(run.component, "stdin was still open after the hook's budget of " +
                                               std::to_string(budget.count()) + " ms (hooks.budget_ms), " +
                                               std::to_string(run.payload.total_bytes) +
                                               " byte(s) read: going on with them");
    }
    application.load_only_modules_in_use({std::string{adapter_id}});
    // A plugin whose settings are refused runs on its defaults: said once the session is known.
    application.report_refused_settings_to(
        [&run](const core::ConfigError &refused) { note_refused_settings(run, refused); });

    // The agent's adapter as linked into this binary renders the safe reply before any module is
    // loaded. An adapter from a module (starling-hook) is only loaded in the worker.
    bool starling_usable = true;
    const auto &linked = linked_adapter(*run.logger, adapter_id);
    try {
        const auto &config = application.config();
        if (const auto *info = linked.find(adapter_id)) {
            auto created = create_configured_plugin(
                config, adapter_id, info->default_settings_json, RefusedSettings::use_declared_defaults,
                [&](const std::string &settings) { return linked.create_adapter(adapter_id, settings); });
            run.adapter.emplace(std::move(created.instance));
            if (created.refused_settings) {
                note_refused_settings(run, std::move(*created.refused_settings));
            }
        }
    } catch (const std::exception &failure) {
        // Not even the embedded defaults can run (no usable STARLING_HOME, say): the agent still
        // gets its reply, from the adapter as linked in, and Starling stays out of the way.
        run.logger->error(run.component,
                          std::string{"Starling cannot run, the agent gets the safe reply: "} + failure.what());
        starling_usable = false;
        try {
            run.adapter.emplace(linked.create_adapter(adapter_id, "{}"));
        } catch (const std::exception &no_adapter) {
            run.logger->error(run.component, std::string{"no adapter, replying nothing: "} + no_adapter.what());
            return 0;
        }
    }
    if (run.adapter) {
        parse_and_render_safe(run);
        arm_crash_reply(run.safe.stdout_text, run.logger->file().string());
        if (starling_usable) {
            report_configuration_problems(run);
        }
        if (!starling_usable || !run.has_work()) {
            write_reply(run.safe);
            return 0;
        }
    }

    // What the user typed is logged before any plugin runs: a worker killed at the budget, or by a
    // plugin, cannot take the prompt with it.
    if (run.adapter && run.event.kind == sdk::EventKind::prompt_submitted && !run.event.prompt.empty()) {
        try {
            run.logged_prompt_count = core::log_prompt(application.store(), run.event);
        } catch (const core::StoreError &failure) {
            run.store_unwritable = true;
            run.logger->warning(run.component, std::string{"cannot write the store ("} + failure.what() +
                                                   "): this prompt is not captured; memories are still injected");
        } catch (const std::exception &failure) {
            run.logger->error(run.component, std::string{"cannot log the prompt: "} + failure.what());
        }
    }
    const bool background = application.config().hooks.background;
    if (!background) {
        detach_worker_on_signal();
    }
    const auto outcome = run_reply_worker(deadline, budget, run.logger->file(),
                                          [&](ReplySender &sender) { work_in_worker(run, sender, background); });
    if (!outcome.reply) {
        run.logger->error(run.component, outcome.failure + "; the agent got the safe reply");
        write_reply(run.safe);
        return 0;
    }
    write_reply(*outcome.reply);
    // In the foreground as configured, but never past the budget: what is left goes on detached.
    if (!background && !wait_for_worker(outcome.worker, deadline)) {
        detach_worker(outcome.worker);
        run.logger->warning(run.component, "the work after the reply outlasted the hook's budget of " +
                                               std::to_string(budget.count()) +
                                               " ms (hooks.budget_ms, hooks.background = false): it goes on "
                                               "detached from the agent");
    }
    return outcome.reply->exit_code;
}

} // namespace starling::app
