// SPDX-License-Identifier: Apache-2.0
#include "reply_worker.hpp"

#include "descriptor_io.hpp"

#include <starling/plugins/call_record.hpp>
#include <starling/plugins/fatal_signals.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>

namespace starling::app {

namespace {

// The message: the exit code (int32), the length of stdout (uint64), then stdout's bytes.
constexpr std::size_t kHeaderBytes = sizeof(std::int32_t) + sizeof(std::uint64_t);

std::optional<sdk::RenderedReply> complete_reply(const std::string &received) {
    if (received.size() < kHeaderBytes) {
        return std::nullopt;
    }
    std::int32_t exit_code = 0;
    std::uint64_t length = 0;
    std::memcpy(&exit_code, received.data(), sizeof exit_code);
    std::memcpy(&length, received.data() + sizeof exit_code, sizeof length);
    if (received.size() - kHeaderBytes < length) {
        return std::nullopt;
    }
    return sdk::RenderedReply{received.substr(kHeaderBytes, length), exit_code};
}

// Where the worker's crash handler notes the signal, for the parent to read. Once the reply is
// sent the parent is gone, so the handler writes the log line itself (async-signal-safe calls only).
plugins::PluginCallRecord *worker_record = nullptr;
std::string worker_log_file;
volatile sig_atomic_t reply_sent = 0;

void write_text(int descriptor, const char *text) noexcept { write_all(descriptor, text, std::strlen(text)); }

extern "C" void on_worker_fatal_signal(int signal_number) {
    if (worker_record != nullptr) {
        worker_record->fatal_signal.store(signal_number, std::memory_order_relaxed);
        const int log = reply_sent != 0 && !worker_log_file.empty()
                            ? ::open(worker_log_file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600)
                            : -1;
        if (log >= 0) {
            write_text(log, "error hook: the work after the reply crashed with a fatal signal");
            if (worker_record->started_ns.load(std::memory_order_relaxed) != 0) {
                write_text(log, " in plugin call `");
                write_text(log, worker_record->call);
                write_text(log, "` of ");
                write_text(log, worker_record->plugin);
            }
            write_text(log, "\n");
            ::close(log);
        }
    }
    ::_exit(128 + signal_number);
}

void become_worker(plugins::PluginCallRecord &record, const std::filesystem::path &log_file) {
    worker_record = &record;
    worker_log_file = log_file.string();
    plugins::record_plugin_calls_in(&record);
    plugins::handle_fatal_signals(&on_worker_fatal_signal);
    // A parent that is gone (the agent gave up on the hook) must not end the after-reply work.
    ::signal(SIGPIPE, SIG_IGN);
    // The reply travels through the pipe: nothing a plugin prints can reach the agent's stdout.
    const int null_device = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_device >= 0) {
        ::dup2(null_device, STDOUT_FILENO);
        ::close(null_device);
    }
}

std::string signal_text(int signal_number) {
    const char *name = ::strsignal(signal_number);
    return std::to_string(signal_number) + (name == nullptr ? std::string{} : " (" + std::string{name} + ")");
}

/// Reads the worker's reply until it is complete, the pipe closes, or the deadline passes.
/// Returns whether the deadline passed.
bool receive(int descriptor, std::chrono::steady_clock::time_point deadline, std::string &received) {
    std::array<char, 65536> buffer;
    while (!complete_reply(received)) {
        const auto remaining = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (remaining.count() <= 0) {
            return true;
        }
        pollfd ready{descriptor, POLLIN, 0};
        const int polled = ::poll(&ready, 1, static_cast<int>(remaining.count()));
        if (polled < 0 && errno == EINTR) {
            continue;
        }
        if (polled < 0) {
            return false;
        }
        if (polled == 0) {
            return true;
        }
        const auto count = ::read(descriptor, buffer.data(), buffer.size());
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count <= 0) {
            return false;
        }
        received.append(buffer.data(), static_cast<std::size_t>(count));
    }
    return false;
}

std::string what_went_wrong(const plugins::PluginCallRecord &record, bool timed_out, int status,
                            std::chrono::milliseconds budget) {
    const auto running = plugins::running_call(record);
    std::string what = running ? running->describe() : std::string{"the hook's worker, in no plugin call,"};
    if (timed_out) {
        return what + " did not finish within the hook's budget of " + std::to_string(budget.count()) +
               " ms (hooks.budget_ms)";
    }
    if (const int fatal = record.fatal_signal.load(std::memory_order_relaxed); fatal != 0) {
        return what + " crashed with fatal signal " + signal_text(fatal);
    }
    if (WIFSIGNALED(status)) {
        return what + " killed the hook's worker with signal " + signal_text(WTERMSIG(status));
    }
    return what + " ended the hook's worker (exit status " + std::to_string(WEXITSTATUS(status)) +
           ") before it replied";
}

} // namespace

void ReplySender::send(const sdk::RenderedReply &reply) noexcept {
    if (descriptor_ < 0) {
        return;
    }
    std::array<char, kHeaderBytes> header{};
    const std::int32_t exit_code = reply.exit_code;
    const std::uint64_t length = reply.stdout_text.size();
    std::memcpy(header.data(), &exit_code, sizeof exit_code);
    std::memcpy(header.data() + sizeof exit_code, &length, sizeof length);
    // Header and text in one write: the parent wakes once for the reply, not once for each part
    // (a wake-up across cores costs tens of microseconds in a virtual machine).
    std::array<iovec, 2> parts{iovec{header.data(), header.size()},
                               iovec{const_cast<char *>(reply.stdout_text.data()), reply.stdout_text.size()}};
    write_all(descriptor_, parts);
    ::close(descriptor_);
    descriptor_ = -1;
    reply_sent = 1;
}

WorkerOutcome run_reply_worker(std::chrono::steady_clock::time_point deadline, std::chrono::milliseconds budget,
                               const std::filesystem::path &log_file, const std::function<void(ReplySender &)> &work) {
    WorkerOutcome outcome;
    void *page = ::mmap(nullptr, sizeof(plugins::PluginCallRecord), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        outcome.failure = std::string{"cannot map the page the hook's worker reports on: "} + std::strerror(errno);
        return outcome;
    }
    auto *record = new (page) plugins::PluginCallRecord{};
    std::array<int, 2> pipe_ends{-1, -1};
    if (::pipe2(pipe_ends.data(), O_CLOEXEC) != 0) {
        outcome.failure = std::string{"cannot open the hook worker's pipe: "} + std::strerror(errno);
        ::munmap(page, sizeof(plugins::PluginCallRecord));
        return outcome;
    }
    const pid_t worker = ::fork();
    if (worker == 0) {
        ::close(pipe_ends[0]);
        become_worker(*record, log_file);
        ReplySender sender{pipe_ends[1]};
        try {
            work(sender);
        } catch (...) { // work reports its own failures; nothing may unwind past the fork
        }
        ::_exit(0);
    }
    ::close(pipe_ends[1]);
    if (worker < 0) {
        outcome.failure = std::string{"cannot start the hook's worker: "} + std::strerror(errno);
        ::close(pipe_ends[0]);
        ::munmap(page, sizeof(plugins::PluginCallRecord));
        return outcome;
    }
    outcome.worker = worker;
    std::string received;
    const bool timed_out = receive(pipe_ends[0], deadline, received);
    ::close(pipe_ends[0]);
    outcome.reply = complete_reply(received);
    if (!outcome.reply) {
        // Killed before the record is read: a dead worker cannot be halfway through writing it.
        ::kill(worker, SIGKILL);
        int status = 0;
        while (::waitpid(worker, &status, 0) < 0 && errno == EINTR) {
        }
        outcome.failure = what_went_wrong(*record, timed_out, status, budget);
    }
    ::munmap(page, sizeof(plugins::PluginCallRecord));
    return outcome;
}

bool wait_for_worker(pid_t worker, std::chrono::steady_clock::time_point deadline) noexcept {
    while (true) {
        int status = 0;
        const pid_t ended = ::waitpid(worker, &status, WNOHANG);
        if (ended == worker || (ended < 0 && errno != EINTR)) {
            return true;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        // Polled: a hook has no other child to be told about, and a few milliseconds are its grain.
        ::usleep(2000);
    }
}

namespace {

extern "C" void detach_on_signal(int /*signal*/) { detach_from_agent(); }

} // namespace

void detach_worker_on_signal() noexcept {
    struct sigaction action {};
    action.sa_handler = &detach_on_signal;
    ::sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGUSR1, &action, nullptr);
}

void detach_worker(pid_t worker) noexcept { ::kill(worker, SIGUSR1); }

void yield_to_hooks() noexcept {
    // Failing leaves the work at the hooks' priority: slower hooks, never lost work.
    errno = 0;
    const int current = ::getpriority(PRIO_PROCESS, 0);
    if (errno == 0) {
        static_cast<void>(::setpriority(PRIO_PROCESS, 0, current + after_reply_niceness));
    }
}

void detach_from_agent() noexcept {
    ::setsid();
    const int null_device = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_device >= 0) {
        ::dup2(null_device, STDIN_FILENO);
        ::dup2(null_device, STDOUT_FILENO);
        ::dup2(null_device, STDERR_FILENO);
        ::close(null_device);
    }
}

} // namespace starling::app
