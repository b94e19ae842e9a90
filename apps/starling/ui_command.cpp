// SPDX-License-Identifier: Apache-2.0
//
// `starling ui`: the local memory viewer (apps/ui, docs/ui.md), composed with what only the
// `starling` command has: the health report, which it runs as `starling health --json`.
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/child_process.hpp>
#include <starling/app/output.hpp>
#include <starling/app/ui/html.hpp>
#include <starling/app/ui/ui_server.hpp>
#include <starling/app/ui/viewer.hpp>
#include <starling/core/io/atomic_file.hpp>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

namespace starling::app {

namespace {

unsigned short port_of(const std::string &text) {
    const std::size_t port = parse_count(text, "--port");
    if (port == 0 || port > 65535) {
        throw UsageError("--port must be between 1 and 65535, not '" + text + "'");
    }
    return static_cast<unsigned short>(port);
}

/// A section name of `starling health --json` as a heading: "near_duplicates" -> "Near duplicates".
std::string heading_of(std::string name) {
    std::replace(name.begin(), name.end(), '_', ' ');
    if (!name.empty()) {
        name.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(name.front())));
    }
    return name;
}

/// `starling health --json`, run by this very binary in a child process, as the overview's notes.
/// A process of its own, not a thread: plugin calls are recorded process-wide (for the watchdog and
/// the crash report), and two threads calling plugins at once would garble that record.
std::vector<ui::HealthNote> health_report_of_child(const std::optional<std::filesystem::path> &config_file) {
    std::vector<std::string> arguments;
    if (config_file) {
        arguments = {"--config", config_file->string()};
    }
    arguments.insert(arguments.end(), {"health", "--json"});
    const ProcessResult result = run_process("/proc/self/exe", arguments);
    // Exit 1 says that a section needs attention: a report all the same.
    if (result.exit_code != 0 && result.exit_code != 1) {
        throw std::runtime_error("starling health ended with " +
                                 (result.signal != 0 ? "signal " + std::to_string(result.signal)
                                                     : "exit " + std::to_string(result.exit_code)) +
                                 ": " + result.stderr_text.substr(0, result.stderr_text.find('\n')));
    }
    const auto report = nlohmann::ordered_json::parse(result.stdout_text, nullptr, false); // in the report's order
    if (!report.is_object() || !report.contains("sections") || !report["sections"].is_object()) {
        throw std::runtime_error("starling health --json printed no report");
    }
    std::vector<ui::HealthNote> notes;
    for (const auto &[name, section] : report["sections"].items()) {
        ui::HealthNote note;
        note.title = heading_of(name);
        note.needs_attention = section.value("status", "") == "attention";
        note.verdict = section.value("verdict", "");
        note.advice = section.value("advice", "");
        notes.push_back(std::move(note));
    }
    return notes;
}

/// `starling health`'s report for the overview, made beside the pages (a background thread waits
/// for the child that makes it) at the first ask and again whenever the store's index version moved
/// since the last report. It takes about a second on 10,000 memories, which no page waits for.
class HealthInBackground {
public:
    explicit HealthInBackground(std::optional<std::filesystem::path> config_file) : config_file_(std::move(config_file)) {}
    HealthInBackground(const HealthInBackground &) = delete;
    HealthInBackground &operator=(const HealthInBackground &) = delete;
    ~HealthInBackground() {
        if (worker_.joinable()) {
            worker_.join();
        }
    }

    /// The latest report; starts a new one when `store_version` is not the one it was made for.
    ui::HealthSnapshot latest(const std::string &store_version) {
        const std::lock_guard lock{mutex_};
        if (!running_ && (!made_for_ || *made_for_ != store_version)) {
            if (worker_.joinable()) {
                worker_.join();
            }
            running_ = true;
            worker_ = std::thread([this, store_version] { make_report(store_version); });
        }
        ui::HealthSnapshot snapshot = snapshot_;
        snapshot.refreshing = running_ && snapshot.ready;
        return snapshot;
    }

private:
    void make_report(const std::string &store_version) {
        std::vector<ui::HealthNote> notes;
        std::string failure;
        try {
            notes = health_report_of_child(config_file_);
        } catch (const std::exception &error) {
            failure = error.what();
        }
        const std::lock_guard lock{mutex_};
        if (failure.empty()) {
            snapshot_.ready = true;
            snapshot_.notes = std::move(notes);
        }
        snapshot_.failure = failure;
        made_for_ = store_version;
        running_ = false;
    }

    std::optional<std::filesystem::path> config_file_;
    std::mutex mutex_;
    std::thread worker_;
    bool running_ = false;
    std::optional<std::string> made_for_;
    ui::HealthSnapshot snapshot_;
};

/// A page only this user can read that sends the browser on to `url`: the browser is started with
/// the file's name, never the token, which every local user could read in its command line.
std::filesystem::path write_launch_page(const std::string &url) {
    std::string folder = (std::filesystem::temp_directory_path() / "starling-ui-XXXXXX").string();
    if (::mkdtemp(folder.data()) == nullptr) {
        throw std::runtime_error("cannot make a private folder for the page that opens the browser in " +
                                 std::filesystem::temp_directory_path().string());
    }
    const std::filesystem::path page = std::filesystem::path(folder) / "open.html";
    core::write_file_atomically(page, "<!DOCTYPE html><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0;url=" +
                                          ui::escape_html(url) + "\"><a href=\"" + ui::escape_html(url) +
                                          "\">Open Starling</a>\n");
    return page;
}

/// Starts $BROWSER, else xdg-open, on `target` and does not wait for it: a double fork, so that the
/// browser is nobody's child here and its output does not mix with the server's.
void open_browser(const std::string &target) {
    const char *browser = std::getenv("BROWSER");
    const std::string program = browser != nullptr && *browser != '\0' ? browser : "xdg-open";
    const pid_t child = ::fork();
    if (child < 0) {
        std::cerr << "starling: cannot start a browser (fork failed); open the URL above yourself\n";
        return;
    }
    if (child == 0) {
        ::setsid();
        if (::fork() != 0) {
            ::_exit(0);
        }
        const int null_device = ::open("/dev/null", O_RDWR);
        if (null_device >= 0) {
            ::dup2(null_device, STDIN_FILENO);
            ::dup2(null_device, STDOUT_FILENO);
            ::dup2(null_device, STDERR_FILENO);
        }
        ::execlp(program.c_str(), program.c_str(), target.c_str(), static_cast<char *>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
}

} // namespace

int run_ui_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("ui", words);
    arguments.expect_operands(0, 0, "");
    std::optional<unsigned short> port;
    if (const auto text = arguments.value("port")) {
        port = port_of(*text);
    }
    const std::size_t idle_minutes = parse_count(arguments.value("idle-minutes").value_or("30"), "--idle-minutes");
    if (idle_minutes == 0) {
        throw UsageError("--idle-minutes must be at least 1");
    }
    // The store and the policies load before the port opens: a configuration that cannot be used is
    // reported now, not in the first page.
    static_cast<void>(application.store());
    static_cast<void>(application.active_policies());
    ui::LocalServer server{port};
    ui::ViewerSettings settings;
    settings.port = server.port();
    settings.secrets = ui::make_run_secrets();
    settings.project_directory = std::filesystem::current_path();
    const std::string url =
        "http://127.0.0.1:" + std::to_string(settings.port) + "/?token=" + settings.secrets.access_token;
    HealthInBackground health{application.config_file()};
    ui::MemoryViewer viewer{application,
                            {[&] { return health.latest(application.store().index_version().value_or("")); }},
                            settings};
    std::cout << "starling ui: serving " << application.store().root().string() << " at\n  " << url
              << "\nuntil Ctrl-C, or " << idle_minutes << " minutes without a request\n"
              << std::flush;
    std::optional<std::filesystem::path> launch_page;
    if (!arguments.flag("no-browser")) {
        launch_page = write_launch_page(url);
        open_browser(launch_page->string());
    }
    const std::string stopped = server.serve([&](const ui::HttpRequest &request) { return viewer.handle(request); },
                                             std::chrono::minutes{idle_minutes}, [&] { viewer.prepare_search(); });
    if (launch_page) {
        std::error_code ignored;
        std::filesystem::remove_all(launch_page->parent_path(), ignored);
    }
    std::cout << "starling ui: stopped (" << (stopped == "idle" ? "idle for " + std::to_string(idle_minutes) + " minutes" : stopped)
              << ")\n";
    return 0;
}

} // namespace starling::app
