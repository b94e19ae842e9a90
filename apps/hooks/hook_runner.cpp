// SPDX-License-Identifier: Apache-2.0
#include "hook_runner.hpp"

#include <starling/app/application.hpp>
#include <starling/core/bus/background_work.hpp>
#include <starling/core/bus/event_bus.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/lifecycle/lifecycle.hpp>
#include <starling/core/lifecycle/session_log.hpp>
#include <starling/plugins/static_plugins.hpp>

#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <optional>
#include <signal.h>
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
    [[nodiscard]] bool truncated() const noexcept { return total_bytes > text.size(); }
};

Payload read_stdin() {
    Payload payload;
    // Left uninitialised on purpose: zeroing it touched 16 fresh stack pages on every hook (about
    // 30 µs of page faults) for payloads that are mostly a few hundred bytes; read() fills what is used.
    std::array<char, 65536> buffer;
    while (true) {
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
    }
    return payload;
}

// What the crash handler writes. Prepared before any plugin or store code runs for the event, and
// only read inside the handler with async-signal-safe calls.
std::string crash_reply;
std::string crash_log_path;

void write_all(int descriptor, const char *data, std::size_t size) noexcept {
    while (size > 0) {
        const auto written = ::write(descriptor, data, size);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            return;
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
}

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
    struct sigaction action{};
    action.sa_handler = &on_fatal_signal;
    sigemptyset(&action.sa_mask);
    for (const int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
        ::sigaction(signal_number, &action, nullptr);
    }
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

/// Runs the work the reply does not depend on. In the background, it runs in a child process in a
/// session of its own with stdin, stdout and stderr on /dev/null: the agent sees the hook end (and
/// its output close) as soon as the reply is written, while the child carries on under the store's
/// locks like any other Starling process. If no child can be started, the work is done now.
/// `starling wait` waits for such children (see background_work.hpp).
void run_after_reply(const core::EventBus &bus, const sdk::Event &event, bool background,
                     const std::filesystem::path &store_root, const core::Logger &logger,
                     const std::string &component) {
    const auto run = [&] { static_cast<void>(bus.publish(event, core::Stage::after_reply)); };
    if (!background) {
        run();
        return;
    }
    // Taken before the fork and inherited by the child, so that `starling wait` started after
    // this hook has ended cannot miss the job.
    std::optional<core::FileLock> mark;
    try {
        mark.emplace(core::mark_background_work(store_root));
    } catch (const std::exception &failure) {
        logger.warning(component, std::string{"background work runs unmarked: "} + failure.what());
    }
    const pid_t child = ::fork();
    if (child < 0) {
        logger.warning(component, std::string{"cannot start the background work ("} + std::strerror(errno) +
                                      "); doing it before exiting");
        run();
        return;
    }
    if (child > 0) {
        return;
    }
    ::setsid();
    const int null_device = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_device >= 0) {
        ::dup2(null_device, STDIN_FILENO);
        ::dup2(null_device, STDOUT_FILENO);
        ::dup2(null_device, STDERR_FILENO);
    }
    crash_reply.clear(); // the agent has its reply; a crash from here on only goes to the log
    run();
    ::_exit(0);
}

/// Says, in the log and on stderr, why the configuration file was not used — once per session, not
/// at every hook of it. Where the session's state cannot be kept, at every hook.
void report_unusable_config(Application &application, const std::string &session_id, const core::Logger &logger,
                            const std::string &component) {
    std::optional<std::string> problem;
    try {
        problem = application.config_problem();
    } catch (const std::exception &) {
        return; // not even the defaults: already reported
    }
    if (!problem) {
        return;
    }
    bool first = true;
    try {
        core::SessionLog session{application.store().root() / "sessions",
                                 session_id.empty() ? "no-session" : session_id};
        first = session.first_report_of("configuration unusable");
    } catch (const std::exception &) { // no session state to keep: report at every hook
    }
    if (first) {
        logger.warning(component, "configuration unusable, running on the embedded defaults until it is fixed "
                                  "(`starling config check` shows every error): " + *problem);
    }
}

} // namespace

int run_hook(std::string_view adapter_id, int argc, char **argv) {
    // Everything a hook creates holds what the user typed: private, plugins' caches included.
    ::umask(077);
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    const Payload payload = read_stdin();
    const std::string component = "hook " + std::string{adapter_id};

    // Until the configuration is read, problems go to the default log.
    const core::Logger bootstrap{bootstrap_log_path(), core::LogLevel::info, /*mirror_to_stderr=*/true};
    // Deliberately never destroyed: the process ends right after the reply, and tearing down a
    // 10,000-entry index entry by entry would cost the waiting agent milliseconds for memory the
    // kernel reclaims anyway. Every file it wrote is complete by then; locks die with the process.
    // A configuration file that cannot be used never switches Starling off: the hook runs on the
    // embedded defaults and says why, once per session.
    Application &application = *new Application{std::nullopt, Application::UnusableConfig::use_embedded_defaults};
    const core::Logger *logger = &bootstrap;
    try {
        logger = &application.logger();
    } catch (const std::exception &failure) {
        bootstrap.error(component, std::string{"no usable configuration, not even the embedded defaults: "} +
                                       failure.what());
    }

    // Declared before the adapter it may create, which must not outlive it.
    std::optional<plugins::PluginRegistry> static_only;
    std::optional<plugins::AdapterInstance> adapter;
    bool starling_usable = true;
    try {
        plugins::PluginRegistry &registry = application.registry();
        adapter.emplace(registry.create_adapter(adapter_id, application.plugin_settings(adapter_id)));
    } catch (const std::exception &failure) {
        // Not even the embedded defaults can run (no usable STARLING_HOME, say): the agent still
        // gets its reply, from the adapter as linked in, and Starling stays out of the way.
        logger->error(component, std::string{"Starling cannot run, the agent gets the safe reply: "} + failure.what());
        starling_usable = false;
        try {
            static_only.emplace(*logger, plugins::PluginHostOptions{});
            static_only->add_static_plugins(plugins::linked_static_plugins());
            adapter.emplace(static_only->create_adapter(adapter_id, "{}"));
        } catch (const std::exception &no_adapter) {
            logger->error(component, std::string{"no adapter, replying nothing: "} + no_adapter.what());
            return 0;
        }
    }

    sdk::Event event = fallback_event(adapter_id, arguments);
    bool parsed = false;
    // An agent's notify program gets its payload as the last argument with nothing on stdin; for
    // anything else an empty stdin means the agent (or its configuration) is broken.
    if (payload.total_bytes == 0 && !payload_in_arguments(*adapter, arguments)) {
        logger->warning(component, "empty payload on stdin; replying with the safe reply");
    }
    if (payload.truncated()) {
        logger->error(component, "payload of " + std::to_string(payload.total_bytes) + " bytes exceeds the " +
                                     std::to_string(kMaxPayloadBytes) + "-byte limit; ignored");
    } else {
        try {
            event = adapter->parse(arguments, payload.text);
            parsed = true;
        } catch (const std::exception &failure) {
            logger->error(component, std::string{"unreadable payload: "} + failure.what());
        }
    }

    sdk::RenderedReply safe;
    try {
        safe = adapter->render(event, sdk::Reply{});
    } catch (const std::exception &failure) {
        logger->error(component, std::string{"cannot render the safe reply: "} + failure.what());
    }
    arm_crash_reply(safe.stdout_text, logger->file().string());
    safe.exit_code = 0;

    if (starling_usable) {
        report_unusable_config(application, event.session_id, *logger, component);
    }

    sdk::RenderedReply rendered = safe;
    std::optional<core::EventBus> bus;
    std::optional<core::Lifecycle> lifecycle;
    if (starling_usable && parsed && event.kind != sdk::EventKind::other) {
        try {
            auto &store = application.store();
            if (!event.working_directory.empty()) {
                event.project = store.resolve_project(event.working_directory);
            }
            bus.emplace(*logger);
            lifecycle.emplace(store, application.active_policies(), application.lifecycle_settings(), *logger);
            lifecycle->subscribe(*bus);
            const auto dispatch = bus->publish(event, core::Stage::reply);
            rendered = adapter->render(event, dispatch.reply);
            if (!dispatch.reply.block_reason) {
                rendered.exit_code = 0; // only a deliberate block may stop the agent
            }
        } catch (const std::exception &failure) {
            logger->error(component, std::string{"event failed, replied with the safe reply: "} + failure.what());
            rendered = safe;
            bus.reset();
        }
    }
    // Straight to the descriptor: with no iostream in the hook binaries, start-up skips initialising
    // the standard streams and their locale.
    write_all(STDOUT_FILENO, rendered.stdout_text.data(), rendered.stdout_text.size());
    if (bus && bus->has_subscribers(event, core::Stage::after_reply)) {
        run_after_reply(*bus, event, application.config().hooks.background, application.store().root(), *logger,
                        component);
    }
    return rendered.exit_code;
}

} // namespace starling::app
