// SPDX-License-Identifier: Apache-2.0
#include "hook_runner.hpp"

#include "descriptor_io.hpp"
#include "hook_run.hpp"
#include "reply_worker.hpp"
#include "resident_channel.hpp"
#include "resident_server.hpp"

#include <starling/app/application.hpp>
#include <starling/app/configured_plugin.hpp>
#include <starling/app/version.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/config/plugin_settings.hpp>
#include <starling/core/io/fault_injection.hpp>
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
#include <cstdlib>
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

extern char **environ;

namespace starling::app {

namespace {

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

std::filesystem::path bootstrap_log_path() {
    try {
        return core::starling_home_dir(core::from_process_environment()) / "logs" / "starling.log";
    } catch (const std::exception &) {
        return {};
    }
}

/// The adapter `adapter_id` if it is linked into this binary, and nothing from a plugin directory.
/// Deliberately never destroyed, like the application.
const plugins::PluginRegistry &linked_adapter(const core::Logger &logger, std::string_view adapter_id) {
    auto &linked = *new plugins::PluginRegistry{logger, plugins::PluginHostOptions{}};
    linked.add_static_plugins(plugins::linked_static_plugins(), std::vector<std::string>{std::string{adapter_id}});
    return linked;
}

/// The hook's worker: loads the modules the event uses, runs the reply stage, sends the reply,
/// then does the after-reply work — in the background, cut loose from the agent, unless
/// `hooks.background` is off. Whatever a plugin does here, the parent still answers the agent.
void work_in_worker(HookRun &run, ReplySender &sender, bool background) {
    std::optional<plugins::AdapterInstance> module_adapter;
    if (run.adapter == nullptr) {
        // An adapter from a module is loaded here, where its crash cannot take the hook with it;
        // until it has rendered one, there is no safe reply but silence.
        try {
            module_adapter.emplace(run.application->adapter(run.adapter_id));
            run.adapter = &*module_adapter;
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
    ReplyStage stage;
    run_reply_stage(run, stage);
    std::optional<core::FileLock> mark;
    if (background) {
        mark = stage.mark_after_reply_work(run);
    }
    sender.send(stage.rendered);
    stage.write_reply_records();
    if (!stage.after_reply) {
        return;
    }
    if (background) {
        detach_from_agent();
        yield_to_hooks();
    }
    // Nobody waits for this work with a deadline, but a hung plugin may hold the store's lock.
    run.application->watch_plugin_calls();
    stage.publish_after_reply(run);
}

/// The hook's whole environment, for the resident process to run the event in.
std::vector<std::string> own_environment() {
    std::vector<std::string> entries;
    for (char **entry = environ; *entry != nullptr; ++entry) {
        entries.emplace_back(*entry);
    }
    return entries;
}

/// What the hook's event asked of the resident process came to: the agent's reply when it served,
/// or whether the hook runs the event itself and may start a resident afterwards.
struct ResidentOutcome {
    std::optional<sdk::RenderedReply> reply;
    bool run_here = true;
    bool start_resident = false;
    bool prompt_logged = false; ///< by the resident process: the hook does not log it again
};

/// Hands the event to the resident process, when one may serve it: hooks that run their after-reply
/// work in the foreground, run on the embedded defaults, inject faults, cannot write the store, or
/// take their adapter from a module always run the event themselves.
ResidentOutcome ask_resident(HookRun &run, bool own_adapter, std::chrono::steady_clock::time_point deadline) {
    ResidentOutcome outcome;
    Application &application = *run.application;
    const auto &hooks = application.config().hooks;
    if (hooks.resident_idle_minutes == 0 || !hooks.background || !own_adapter || application.config_problem() ||
        std::getenv(core::fault_injection_environment_variable) != nullptr) {
        return outcome;
    }
    // A hook that cannot write the store (in an agent's sandbox, say) runs its event itself: the
    // resident, outside the sandbox, must not write for it what it could not. A store not made yet
    // is made by this hook.
    if (::faccessat(AT_FDCWD, application.config().store.root.c_str(), W_OK, AT_EACCESS) != 0) {
        return outcome;
    }
    resident::Request request;
    std::filesystem::path socket;
    try {
        const auto identity = resident::identity_of(application, run.adapter_id);
        socket = resident::socket_path(resident::socket_directory(), identity.key);
        request.fingerprint = identity.fingerprint;
    } catch (const std::exception &failure) {
        if (first_report_in_session(application, run.event.session_id, "resident process unavailable")) {
            run.logger->warning(run.component, std::string{"no resident process serves hooks, each runs its event "
                                                           "itself: "} + failure.what());
        }
        return outcome;
    }
    std::error_code no_directory;
    request.working_directory = std::filesystem::current_path(no_directory).string();
    request.environment = own_environment();
    request.arguments = run.arguments;
    request.payload = run.payload.text;
    request.budget_left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto answer = resident::ask(socket, request, deadline);
    using Outcome = resident::Answer::Outcome;
    switch (answer.outcome) {
    case Outcome::served:
        write_all(STDERR_FILENO, answer.reply.stderr_text.data(), answer.reply.stderr_text.size());
        outcome.reply = sdk::RenderedReply{std::move(answer.reply.stdout_text), answer.reply.exit_code};
        outcome.run_here = false;
        outcome.prompt_logged = true;
        break;
    case Outcome::failed:
        run.logger->error(run.component, answer.problem + "; the agent got the safe reply");
        outcome.reply = run.safe;
        outcome.run_here = false;
        // A resident that ended without a word may have logged it: twice is better than never.
        outcome.prompt_logged = answer.reply.prompt_logged;
        break;
    case Outcome::absent:
    case Outcome::declined:
        // At debug level only: no session state is written to say it once per session.
        if (!answer.problem.empty()) {
            run.logger->debug(run.component, "the resident process does not serve this hook, which runs its "
                                            "event itself: " + answer.problem);
        }
        outcome.start_resident = answer.may_start;
        break;
    }
    return outcome;
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
              << "  -h, --help         this help\n"
              << "  --version          print the version\n"
              << "  --resident-status" << (adapter_id.empty() ? " ADAPTER-ID" : "")
              << "\n                     whether the resident process that serves these hooks runs, and\n"
              << "                     what it has served (hooks.resident_idle_minutes)\n";
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
    std::optional<plugins::AdapterInstance> own_adapter;
    const auto &linked = linked_adapter(*run.logger, adapter_id);
    try {
        const auto &config = application.config();
        if (const auto *info = linked.find(adapter_id)) {
            auto created = create_configured_plugin(
                config, adapter_id, info->default_settings_json, RefusedSettings::use_declared_defaults,
                [&](const std::string &settings) { return linked.create_adapter(adapter_id, settings); });
            own_adapter.emplace(std::move(created.instance));
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
            own_adapter.emplace(linked.create_adapter(adapter_id, "{}"));
        } catch (const std::exception &no_adapter) {
            run.logger->error(run.component, std::string{"no adapter, replying nothing: "} + no_adapter.what());
            return 0;
        }
    }
    if (own_adapter) {
        run.adapter = &*own_adapter;
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

    // The resident process, when one serves the hook, logs the prompt first thing and says so.
    const auto resident = ask_resident(run, own_adapter.has_value(), deadline);
    // What the user typed is logged before any plugin runs here: a worker killed at the budget, or
    // by a plugin, cannot take the prompt with it. (An adapter from a module has not parsed it yet.)
    if (own_adapter && !resident.prompt_logged) {
        log_prompt_before_plugins(run);
    }
    if (!resident.run_here) {
        write_reply(*resident.reply);
        return resident.reply->exit_code;
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
    if (resident.start_resident) {
        resident::start(adapter_id); // for the hooks after this one
    }
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
