// SPDX-License-Identifier: Apache-2.0
#include "resident_server.hpp"

#include "descriptor_io.hpp"
#include "hook_run.hpp"
#include "reply_worker.hpp"
#include "resident_channel.hpp"

#include <starling/app/application.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/plugins/call_record.hpp>
#include <starling/plugins/fatal_signals.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <vector>

extern char **environ;

namespace starling::app::resident {

namespace {

/// A request holds the payload and the hook's environment.
constexpr std::size_t kMaxFrameBytes = kMaxPayloadBytes + (4u << 20);

/// How long a connected hook has to send its request: it sends at once, and a peer that does not
/// must not hold the hooks queued behind it.
constexpr std::chrono::seconds kRequestWait{2};

class Descriptor {
public:
    explicit Descriptor(int descriptor) noexcept : descriptor_(descriptor) {}
    ~Descriptor() { close(); }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    [[nodiscard]] int get() const noexcept { return descriptor_; }
    void close() noexcept {
        if (descriptor_ >= 0) {
            ::close(descriptor_);
            descriptor_ = -1;
        }
    }

private:
    int descriptor_;
};

std::optional<sockaddr_un> address_of(const std::filesystem::path &socket) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const auto &text = socket.native();
    if (text.size() >= sizeof address.sun_path) {
        return std::nullopt;
    }
    std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
    return address;
}

// ------------------------------------------------------------------------------------------------
// What the signal handlers of the resident process read: async-signal-safe calls only.

/// The connection of the hook being served, for a handler to tell it what happened; -1 otherwise.
volatile sig_atomic_t served_connection = -1;
/// Set in the child that does the work after a reply: its crash is the log's to say.
volatile sig_atomic_t in_after_reply_work = 0;
/// Whether the hook being served had its prompt logged here, for a handler to tell it.
volatile sig_atomic_t prompt_logged = 0;
/// Set by SIGTERM or SIGINT: the resident leaves its socket and ends between hooks.
volatile sig_atomic_t asked_to_end = 0;

extern "C" void on_end_request(int /*signal*/) { asked_to_end = 1; }
std::string handler_log_file;

/// Appends C strings to a fixed buffer, cutting what does not fit.
struct SignalText {
    std::array<char, 512> buffer{};
    std::size_t size = 0;
    void append(const char *text) noexcept {
        for (; *text != '\0' && size < buffer.size(); ++text) {
            buffer[size++] = *text;
        }
    }
    void append_number(int number) noexcept {
        std::array<char, 12> digits{};
        std::size_t count = 0;
        unsigned value = number < 0 ? 0U : static_cast<unsigned>(number);
        do {
            digits[count++] = static_cast<char>('0' + value % 10);
            value /= 10;
        } while (value != 0 && count < digits.size());
        while (count > 0 && size < buffer.size()) {
            buffer[size++] = digits[--count];
        }
    }
};

/// Ends the resident process from a signal handler: tells the waiting hook, if one is, what
/// happened (`what`, then the plugin call that was running), and the log.
[[noreturn]] void end_from_handler(const char *what, int signal_number) noexcept {
    SignalText message;
    message.append(in_after_reply_work != 0 ? "the work after a hook's reply, started by the resident hook process, "
                                            : "the resident hook process ");
    message.append(what);
    if (signal_number != 0) {
        message.append(" ");
        message.append_number(signal_number);
    }
    const auto &record = plugins::plugin_call_record();
    if (record.started_ns.load(std::memory_order_relaxed) != 0) {
        message.append(" in plugin call `");
        message.append(record.call);
        message.append("` of ");
        message.append(record.plugin);
    }
    if (const int connection = served_connection; connection >= 0) {
        std::array<char, 640> frame{};
        const auto size =
            failure_frame(message.buffer.data(), message.size, prompt_logged != 0, frame.data(), frame.size());
        // A hook's socket is non-blocking: if it stopped reading, this is dropped, never waited on.
        write_all(connection, frame.data(), size);
    }
    if (!handler_log_file.empty()) {
        const int log = ::open(handler_log_file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (log >= 0) {
            constexpr char prefix[] = "error resident: ";
            write_all(log, prefix, sizeof prefix - 1);
            write_all(log, message.buffer.data(), message.size);
            write_all(log, "\n", 1);
            ::close(log);
        }
    }
    ::_exit(signal_number == 0 ? 1 : 128 + signal_number);
}

extern "C" void on_resident_fatal_signal(int signal_number) { end_from_handler("crashed with fatal signal", signal_number); }

extern "C" void on_resident_overrun(int /*signal*/) {
    end_from_handler("did not finish the event within the hook's budget (hooks.budget_ms)", 0);
}

/// Ends the resident process when the event it runs outlasts the hook's budget: the hook has
/// given the safe reply by then, and a resident stuck in a plugin must not hold the next hook.
void arm_overrun_alarm(std::chrono::milliseconds budget) noexcept {
    const auto milliseconds = std::max<std::int64_t>(budget.count(), 1);
    itimerval timer{};
    timer.it_value.tv_sec = milliseconds / 1000;
    timer.it_value.tv_usec = static_cast<suseconds_t>((milliseconds % 1000) * 1000);
    ::setitimer(ITIMER_REAL, &timer, nullptr);
}

void disarm_overrun_alarm() noexcept {
    itimerval none{};
    ::setitimer(ITIMER_REAL, &none, nullptr);
}

/// Writes `body` as one frame to a blocking pipe; false when its reader has gone.
bool send_frame_to_pipe(int descriptor, const std::string &body) {
    const std::uint64_t length = body.size();
    std::string frame(sizeof length, '\0');
    std::memcpy(frame.data(), &length, sizeof length);
    frame += body;
    return core::write_fully(descriptor, frame) == 0;
}

// ------------------------------------------------------------------------------------------------

/// The hook's environment, in place of the resident's while its event runs: the clock
/// (STARLING_NOW) and whatever an adapter reads come from the hook that asked.
class BorrowedEnvironment {
public:
    explicit BorrowedEnvironment(std::vector<std::string> entries) : entries_(std::move(entries)), saved_(environ) {
        pointers_.reserve(entries_.size() + 1);
        for (auto &entry : entries_) {
            pointers_.push_back(entry.data());
        }
        pointers_.push_back(nullptr);
        environ = pointers_.data();
    }
    ~BorrowedEnvironment() { environ = saved_; }
    BorrowedEnvironment(const BorrowedEnvironment &) = delete;
    BorrowedEnvironment &operator=(const BorrowedEnvironment &) = delete;

private:
    std::vector<std::string> entries_;
    std::vector<char *> pointers_;
    char **saved_;
};

/// What the event writes to stderr (the log's mirror), collected for the hook to write to its own.
class StderrCapture {
public:
    StderrCapture() noexcept : file_(::memfd_create("starling-hook-stderr", MFD_CLOEXEC)) {
        if (file_ >= 0) {
            ::dup2(file_, STDERR_FILENO);
        }
    }
    ~StderrCapture() {
        to_null_device(STDERR_FILENO);
        if (file_ >= 0) {
            ::close(file_);
        }
    }
    StderrCapture(const StderrCapture &) = delete;
    StderrCapture &operator=(const StderrCapture &) = delete;

    [[nodiscard]] std::string take() const {
        std::string text;
        if (file_ < 0) {
            return text;
        }
        std::array<char, 4096> buffer;
        for (off_t at = 0;;) {
            const ssize_t count = ::pread(file_, buffer.data(), buffer.size(), at);
            if (count < 0 && errno == EINTR) {
                continue;
            }
            if (count <= 0) {
                break;
            }
            text.append(buffer.data(), static_cast<std::size_t>(count));
            at += count;
        }
        return text;
    }

    static void to_null_device(int descriptor) noexcept {
        const int null_device = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null_device >= 0) {
            ::dup2(null_device, descriptor);
            ::close(null_device);
        }
    }

private:
    int file_;
};

/// The clock of the hook being served: its STARLING_NOW, or the system's. The store keeps reading
/// time from this one object, so it can stay open between hooks.
class HookClock final : public core::Clock {
public:
    [[nodiscard]] std::chrono::sys_seconds now() const override { return current_->now(); }
    /// Reads STARLING_NOW from the environment as it is now (the hook's). Throws
    /// std::invalid_argument when it is malformed, as a hook's own clock would.
    void read_environment() { current_ = core::clock_from_environment(); }

private:
    std::unique_ptr<core::Clock> current_ = std::make_unique<core::SystemClock>();
};

struct Counts {
    std::uint64_t served = 0;
    std::uint64_t declined = 0;
};

/// One resident process: what it keeps between hooks, and how it serves one.
class Resident {
public:
    Resident(Application &application, std::string_view adapter_id, const core::Logger &logger)
        : application_(application), adapter_id_(adapter_id), logger_(logger),
          component_("resident " + std::string{adapter_id}) {}

    /// Makes what hooks would otherwise make each time. Returns false when this process should not
    /// serve at all (said in the log when that is a problem).
    bool prepare(const Identity &identity, std::filesystem::path socket, std::chrono::minutes idle);
    /// Serves until there is a reason to end. The exit code.
    int run();
    /// Gives up the socket and the lock, so that the next resident can take them at once.
    void leave_socket() noexcept;

private:
    /// Serves one connection; true when the resident ends after it.
    bool serve_connection(int connection);
    /// Whether it served the hook: it declines one whose clock (STARLING_NOW) cannot be read.
    bool serve_hook(int connection, Request request, std::chrono::steady_clock::time_point deadline);
    [[nodiscard]] std::string status_text(const Request &request) const;
    /// Starts a process of its own for the after-reply stage of `request`, holding `mark` for
    /// `starling wait`. Not a fork: after one, every page of this process's heap would be
    /// write-protected, and the next hook would pay a fault for each it writes (2–4 ms at a session
    /// start on 10,000 memories). It starts as cold as a hook's worker did, after the reply.
    void start_after_reply_work(const Request &request, std::optional<core::FileLock> mark);
    /// Lets go of what the work after a reply replaced — the machine index's snapshot, the relevance
    /// indexes — and maps what replaced them, once that work has ended rather than at the next hook:
    /// the last unmapping of a replaced file frees its pages, about a millisecond of a session start
    /// at 10,000 memories.
    void refresh_views();
    /// Whether the socket at our path is still the one we bound.
    [[nodiscard]] bool socket_still_ours() const;
    void reply(int connection, const Reply &answer, std::chrono::steady_clock::time_point deadline) const;

    Application &application_;
    std::string adapter_id_;
    const core::Logger &logger_;
    std::string component_;
    Identity identity_;
    std::filesystem::path socket_;
    std::string lock_file_;
    std::filesystem::path starling_home_;
    std::filesystem::path executable_;
    std::string executable_stamp_;
    std::chrono::minutes idle_{0};
    int lock_ = -1;
    int listener_ = -1;
    dev_t socket_device_ = 0;
    ino_t socket_inode_ = 0;
    std::optional<plugins::AdapterInstance> adapter_;
    /// Why every hook is declined, when one is.
    std::string cannot_serve_;
    /// Settings plugins refused as they were made: each session is told (once) as a hook would.
    std::vector<core::ConfigError> refused_settings_;
    HookRun *current_run_ = nullptr;
    HookClock *clock_ = nullptr; ///< owned by the application
    /// A process doing the work after a reply. The resident holds the `starling wait` mark for it
    /// too, until it has ended and refresh_views() has let go of what it replaced.
    struct AfterReplyWork {
        pid_t pid = -1;
        int ended_signal = -1; ///< a pidfd: readable once the process has ended; -1 when none could be had
        bool ended = false;
        std::optional<core::FileLock> mark;
    };
    /// Reaps the work that has ended; once none runs, refreshes the views and drops the marks.
    void collect_after_reply_work();

    std::vector<AfterReplyWork> after_reply_work_;
    /// The project of the last hook served: the relevance indexes refresh_views() opens.
    std::string last_project_;
    std::chrono::system_clock::time_point started_ = std::chrono::system_clock::now();
    Counts counts_;
};

bool Resident::prepare(const Identity &identity, std::filesystem::path socket, std::chrono::minutes idle) {
    identity_ = identity;
    socket_ = std::move(socket);
    idle_ = idle;
    starling_home_ = core::starling_home_dir(application_.environment());
    executable_ = own_executable();
    executable_stamp_ = file_stamp(executable_);
    // One resident per socket: one started by a hook that raced another's leaves at once.
    lock_file_ = socket_.string() + ".lock";
    const int lock = ::open(lock_file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lock < 0 || ::flock(lock, LOCK_EX | LOCK_NB) != 0) {
        if (lock >= 0) {
            ::close(lock);
        }
        return false;
    }
    // The one that leaves removes the lock file while it holds it: a lock taken on a file that
    // has since been removed or replaced is nobody's to serve under.
    struct stat held {};
    struct stat named {};
    if (::fstat(lock, &held) != 0 || ::stat(lock_file_.c_str(), &named) != 0 || held.st_dev != named.st_dev ||
        held.st_ino != named.st_ino) {
        ::close(lock);
        return false;
    }
    lock_ = lock;
    auto clock = std::make_unique<HookClock>();
    clock_ = clock.get();
    application_.use_clock(std::move(clock));
    application_.report_refused_settings_to([this](const core::ConfigError &refused) {
        refused_settings_.push_back(refused);
        if (current_run_ != nullptr) {
            note_refused_settings(*current_run_, refused);
        }
    });
    application_.load_only_modules_in_use({adapter_id_});
    try {
        const auto *info = application_.registry().find(adapter_id_);
        if (info == nullptr || !info->is_static) {
            return false; // hooks ask only when their adapter is linked in, as ours would be
        }
        adapter_.emplace(application_.adapter(adapter_id_));
        // Made now rather than by the first hook that needs them: that is what this process is for.
        static_cast<void>(application_.decision_policy());
        static_cast<void>(application_.decay_policy());
        static_cast<void>(application_.relevance_policy());
        for (const auto &plugin : application_.registry().plugins()) {
            if (!plugin.is_static) {
                cannot_serve_ = "plugin '" + plugin.id + "' comes from a module (" + plugin.file.string() +
                                "), which runs in each hook's own worker: there its crash or hang cannot take "
                                "down a process other hooks rely on";
                break;
            }
        }
    } catch (const std::exception &failure) {
        // Each hook runs the event itself and reports this as it would without a resident.
        cannot_serve_ = std::string{"the plugins cannot be made: "} + failure.what();
    }
    const auto address = address_of(socket_);
    listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (!address || listener_ < 0) {
        logger_.warning(component_, "cannot serve hooks: no socket at " + socket_.string());
        return false;
    }
    // A socket file left by a resident that was killed: the lock says nobody serves it.
    ::unlink(socket_.c_str());
    if (::bind(listener_, reinterpret_cast<const sockaddr *>(&*address), sizeof *address) != 0 ||
        ::chmod(socket_.c_str(), 0600) != 0 || ::listen(listener_, 64) != 0) {
        logger_.warning(component_, "cannot serve hooks at " + socket_.string() + ": " + std::strerror(errno));
        return false;
    }
    struct stat bound {};
    if (::stat(socket_.c_str(), &bound) != 0) {
        return false;
    }
    socket_device_ = bound.st_dev;
    socket_inode_ = bound.st_ino;
    return true;
}

bool Resident::socket_still_ours() const {
    struct stat now {};
    return ::stat(socket_.c_str(), &now) == 0 && now.st_dev == socket_device_ && now.st_ino == socket_inode_;
}

void Resident::leave_socket() noexcept {
    if (listener_ >= 0) {
        if (socket_still_ours()) {
            ::unlink(socket_.c_str());
        }
        ::close(listener_);
        listener_ = -1;
    }
    if (lock_ >= 0) {
        ::unlink(lock_file_.c_str()); // still held: nobody else has it now
        ::close(lock_);
        lock_ = -1;
    }
}

void Resident::collect_after_reply_work() {
    bool any_ended = false;
    bool all_ended = true;
    for (auto &work : after_reply_work_) {
        if (!work.ended && ::waitpid(work.pid, nullptr, WNOHANG) == work.pid) {
            work.ended = true;
            any_ended = true;
            if (work.ended_signal >= 0) {
                ::close(work.ended_signal);
                work.ended_signal = -1;
            }
        }
        all_ended = all_ended && work.ended;
    }
    if (any_ended && all_ended) {
        refresh_views();
        after_reply_work_.clear(); // the marks go: `starling wait` returns
    }
}

int Resident::run() {
    auto last_hook = std::chrono::steady_clock::now();
    std::vector<pollfd> ready;
    while (asked_to_end == 0) {
        ready.assign(1, pollfd{listener_, POLLIN, 0});
        bool unsignalled = false;
        for (const auto &work : after_reply_work_) {
            if (!work.ended && work.ended_signal >= 0) {
                ready.push_back(pollfd{work.ended_signal, POLLIN, 0});
            }
            unsignalled = unsignalled || (!work.ended && work.ended_signal < 0);
        }
        // Without a pidfd for some work, ten times a second, to notice its end soon after.
        const int polled = ::poll(ready.data(), ready.size(), unsignalled ? 100 : 1000);
        if (asked_to_end != 0) {
            break;
        }
        if (polled < 0 && errno != EINTR) {
            logger_.warning(component_, std::string{"stops serving hooks: "} + std::strerror(errno));
            break;
        }
        collect_after_reply_work();
        if (polled <= 0 || (ready.front().revents & POLLIN) == 0) {
            if (!after_reply_work_.empty()) {
                continue;
            }
            std::error_code ignored;
            // Idle, replaced by another resident, its store gone, or its executable upgraded or
            // uninstalled: nobody needs this process any more.
            if (std::chrono::steady_clock::now() - last_hook >= idle_ || !socket_still_ours() ||
                !std::filesystem::is_directory(starling_home_, ignored) || file_stamp(executable_) != executable_stamp_) {
                break;
            }
            continue;
        }
        Descriptor connection{::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK)};
        if (connection.get() < 0) {
            continue;
        }
        last_hook = std::chrono::steady_clock::now();
        try {
            if (serve_connection(connection.get())) {
                break;
            }
        } catch (const std::exception &failure) {
            // The hook gives the safe reply when the connection closes without one.
            disarm_overrun_alarm();
            served_connection = -1;
            prompt_logged = 0;
            logger_.error(component_, std::string{"a hook could not be served: "} + failure.what());
        }
    }
    leave_socket();
    return 0;
}

void Resident::reply(int connection, const Reply &answer, std::chrono::steady_clock::time_point deadline) const {
    if (!send_frame(connection, encode(answer), deadline)) {
        logger_.warning(component_, "a hook left before its reply was sent");
    }
}

bool Resident::serve_connection(int connection) {
    ucred peer{};
    socklen_t size = sizeof peer;
    if (::getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0 || peer.uid != ::geteuid()) {
        logger_.warning(component_, "refused a connection from user " + std::to_string(peer.uid) +
                                        ": only this user's hooks are served");
        return false;
    }
    Request request;
    try {
        request = decode_request(receive_frame(connection, std::chrono::steady_clock::now() + kRequestWait,
                                               kMaxFrameBytes));
    } catch (const std::exception &failure) {
        logger_.warning(component_, std::string{"a request that cannot be read: "} + failure.what());
        return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + request.budget_left;
    if (request.kind == RequestKind::status) {
        reply(connection, Reply{ReplyStatus::served, 0, status_text(request), {}, false}, deadline);
        return false;
    }
    if (request.fingerprint != identity_.fingerprint) {
        // Started from another executable or configuration: the hook runs the event itself and
        // starts a resident that is current, which needs the socket and the lock now.
        leave_socket();
        reply(connection,
              Reply{ReplyStatus::declined, 0, "started from another executable or configuration", {}, true},
              deadline);
        return true;
    }
    if (!cannot_serve_.empty()) {
        ++counts_.declined;
        reply(connection, Reply{ReplyStatus::declined, 0, cannot_serve_, {}, false}, deadline);
        return false;
    }
    ++(serve_hook(connection, std::move(request), deadline) ? counts_.served : counts_.declined);
    return false;
}

bool Resident::serve_hook(int connection, Request request, std::chrono::steady_clock::time_point deadline) {
    const BorrowedEnvironment environment{request.environment};
    if (request.working_directory.empty() || ::chdir(request.working_directory.c_str()) != 0) {
        static_cast<void>(::chdir("/"));
    }
    std::optional<StderrCapture> stderr_text{std::in_place};
    served_connection = connection;
    arm_overrun_alarm(request.budget_left);
    try {
        clock_->read_environment();
    } catch (const std::exception &failure) {
        // The hook runs the event itself, and reports this as it would without a resident.
        disarm_overrun_alarm();
        served_connection = -1;
        reply(connection, Reply{ReplyStatus::declined, 0, failure.what(), {}, false}, deadline);
        return false;
    }

    HookRun run;
    run.adapter_id = adapter_id_;
    run.arguments = request.arguments;
    run.payload.total_bytes = request.payload.size();
    run.payload.text = request.payload;
    run.component = "hook " + adapter_id_;
    run.application = &application_;
    run.logger = &logger_;
    run.adapter = &*adapter_;
    run.refused_settings = refused_settings_;
    current_run_ = &run;
    parse_and_render_safe(run);
    report_configuration_problems(run);
    ReplyStage stage;
    stage.rendered = run.safe;
    if (run.has_work()) {
        log_prompt_before_plugins(run);
        prompt_logged = 1;
        run_reply_stage(run, stage);
    }
    auto mark = stage.mark_after_reply_work(run);
    current_run_ = nullptr;
    disarm_overrun_alarm();
    served_connection = -1;
    reply(connection, Reply{ReplyStatus::served, stage.rendered.exit_code, stage.rendered.stdout_text,
                            stderr_text->take(), false, true},
          deadline);
    stage.write_reply_records();
    prompt_logged = 0;
    stderr_text.reset();
    last_project_ = run.event.project;
    if (stage.after_reply) {
        request.kind = RequestKind::after_reply;
        request.relevance_index_stale = stage.lifecycle->relevance_index_stale();
        start_after_reply_work(request, std::move(mark));
    }
    static_cast<void>(::chdir("/"));
    return true;
}

void Resident::start_after_reply_work(const Request &request, std::optional<core::FileLock> mark) {
    std::array<int, 2> ends{-1, -1};
    if (::pipe2(ends.data(), O_CLOEXEC) != 0) {
        logger_.warning(component_, std::string{"the work after the reply is not done: no pipe ("} +
                                        std::strerror(errno) + ")");
        return;
    }
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO);
    ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    if (mark && mark->descriptor() >= 0) {
        // Inherited without O_CLOEXEC: the child holds the mark until it ends.
        ::posix_spawn_file_actions_adddup2(&actions, mark->descriptor(), 3);
    }
    posix_spawnattr_t attributes;
    ::posix_spawnattr_init(&attributes);
    ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
    const std::string name = executable_.filename().string();
    const std::array<const char *, 4> arguments{name.c_str(), "--resident-after-reply", adapter_id_.c_str(), nullptr};
    pid_t child = -1;
    const int failed = ::posix_spawn(&child, executable_.c_str(), &actions, &attributes,
                                     const_cast<char *const *>(arguments.data()), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    ::posix_spawnattr_destroy(&attributes);
    ::close(ends[0]);
    if (failed == 0) {
        AfterReplyWork work;
        work.pid = child;
        work.ended_signal = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
        work.mark = std::move(mark);
        after_reply_work_.push_back(std::move(work));
    }
    if (failed != 0) {
        logger_.warning(component_, std::string{"the work after the reply is not done: cannot start "} +
                                        executable_.string() + " (" + std::strerror(failed) + ")");
    } else if (!send_frame_to_pipe(ends[1], encode(request))) {
        logger_.warning(component_, "the work after the reply is not done: its process did not take the event");
    }
    ::close(ends[1]);
}

void Resident::refresh_views() {
    if (!cannot_serve_.empty()) {
        return;
    }
    try {
        auto &store = application_.store();
        const auto scope = last_project_.empty() ? core::Scope::user() : core::Scope::project(last_project_);
        static_cast<void>(store.list_indexed(core::ListFilter{scope, core::Tier::long_term, std::nullopt}));
        const auto version = store.index_version();
        const auto *relevance = application_.active_policies().relevance;
        if (version && relevance != nullptr && relevance->keeps_index()) {
            std::vector<core::MemoryCollection> collections;
            for (const auto &each : core::prompt_scopes(last_project_)) {
                collections.push_back({core::collection_id(each), *version});
            }
            // Nothing asked, nothing ranked: the indexes are opened anew where they changed.
            static_cast<void>(relevance->rank("", collections, clock_->now(), 0));
        }
    } catch (const std::exception &failure) {
        logger_.debug(component_, std::string{"could not look at the store after the work after a reply: "} +
                                      failure.what());
    }
}

std::string Resident::status_text(const Request &request) const {
    std::string text = "resident hook process for " + adapter_id_ + ": pid " + std::to_string(::getpid()) +
                       ", serving since " +
                       core::format_timestamp(std::chrono::floor<std::chrono::seconds>(started_)) + "\n";
    text += "  socket: " + socket_.string() + "\n";
    text += "  hooks served: " + std::to_string(counts_.served) + ", declined: " + std::to_string(counts_.declined) +
            "\n";
    text += "  ends after " + std::to_string(idle_.count()) + " minutes without a hook (hooks.resident_idle_minutes)\n";
    if (!cannot_serve_.empty()) {
        text += "  declines every hook: " + cannot_serve_ + "\n";
    }
    if (request.fingerprint != identity_.fingerprint) {
        text += "  started from another executable or configuration: the next hook replaces it\n";
    }
    return text;
}

void print(int descriptor, const std::string &text) { write_all(descriptor, text.data(), text.size()); }

} // namespace

Answer ask(const std::filesystem::path &socket, const Request &request, std::chrono::steady_clock::time_point deadline) {
    Answer answer;
    const auto address = address_of(socket);
    if (!address) {
        answer.problem = socket.string() + " is longer than a socket's path may be";
        return answer;
    }
    const Descriptor connection{::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)};
    if (connection.get() < 0) {
        answer.problem = std::string{"cannot open a socket: "} + std::strerror(errno);
        return answer;
    }
    if (::connect(connection.get(), reinterpret_cast<const sockaddr *>(&*address), sizeof *address) != 0) {
        answer.may_start = errno == ENOENT || errno == ECONNREFUSED;
        if (!answer.may_start) {
            answer.problem = "cannot connect to " + socket.string() + ": " + std::strerror(errno);
        }
        return answer;
    }
    if (!send_frame(connection.get(), encode(request), deadline)) {
        answer.problem = "the resident hook process did not take the request";
        return answer;
    }
    try {
        answer.reply = decode_reply(receive_frame(connection.get(), deadline, kMaxFrameBytes));
    } catch (const std::exception &failure) {
        answer.outcome = Answer::Outcome::failed;
        answer.problem = std::string{"the resident hook process did not reply: "} + failure.what();
        return answer;
    }
    switch (answer.reply.status) {
    case ReplyStatus::served:
        answer.outcome = Answer::Outcome::served;
        break;
    case ReplyStatus::declined:
        answer.outcome = Answer::Outcome::declined;
        answer.may_start = answer.reply.ending;
        answer.problem = answer.reply.stdout_text;
        break;
    case ReplyStatus::failed:
        answer.outcome = Answer::Outcome::failed;
        answer.problem = answer.reply.stdout_text;
        break;
    }
    return answer;
}

void start(std::string_view adapter_id) {
    std::filesystem::path executable;
    try {
        executable = own_executable();
    } catch (const std::exception &) {
        return;
    }
    const std::string adapter{adapter_id};
    const std::string name = executable.filename().string();
    const pid_t child = ::fork();
    if (child != 0) {
        int status = 0;
        while (child > 0 && ::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        return;
    }
    // In a session of its own and nobody's child: the agent never waits for it, and no zombie is left.
    ::setsid();
    if (::fork() != 0) {
        ::_exit(0);
    }
    // No descriptor of the hook's: an agent (or a test) that reads the hook's output until its end
    // must see that end when the hook exits.
    StderrCapture::to_null_device(STDIN_FILENO);
    StderrCapture::to_null_device(STDOUT_FILENO);
    StderrCapture::to_null_device(STDERR_FILENO);
    ::close_range(3, ~0U, 0);
    ::execl(executable.c_str(), name.c_str(), "--resident-hooks", adapter.c_str(), static_cast<char *>(nullptr));
    ::_exit(127);
}

int serve(std::string_view adapter_id) {
    ::umask(077);
    ::signal(SIGPIPE, SIG_IGN);
    static_cast<void>(::chdir("/"));
    // Deliberately never destroyed, as in a hook: the process ends when serving does.
    Application &application = *new Application{std::nullopt, Application::UnusableConfig::use_embedded_defaults};
    const core::Logger *logger = nullptr;
    Identity identity;
    std::filesystem::path socket;
    std::chrono::minutes idle{0};
    try {
        logger = &application.logger();
        // A hook whose configuration cannot be used never asks: it says why, once per session.
        if (application.config_problem()) {
            return 0;
        }
        idle = std::chrono::minutes{application.config().hooks.resident_idle_minutes};
        if (idle.count() == 0) {
            return 0;
        }
        identity = identity_of(application, adapter_id);
        socket = socket_path(socket_directory(), identity.key);
    } catch (const std::exception &failure) {
        if (logger != nullptr) {
            logger->warning("resident " + std::string{adapter_id}, std::string{"cannot serve hooks: "} + failure.what());
        }
        return 1;
    }
    handler_log_file = logger->file().string();
    plugins::handle_fatal_signals(&on_resident_fatal_signal);
    // Without SA_RESTART: the wait for a hook returns, and the resident leaves its socket behind it.
    struct sigaction end_request {};
    end_request.sa_handler = &on_end_request;
    ::sigemptyset(&end_request.sa_mask);
    ::sigaction(SIGTERM, &end_request, nullptr);
    ::sigaction(SIGINT, &end_request, nullptr);
    struct sigaction overrun {};
    overrun.sa_handler = &on_resident_overrun;
    ::sigemptyset(&overrun.sa_mask);
    ::sigaction(SIGALRM, &overrun, nullptr);

    auto &resident = *new Resident{application, adapter_id, *logger};
    try {
        if (!resident.prepare(identity, std::move(socket), idle)) {
            resident.leave_socket();
            return 0;
        }
        return resident.run();
    } catch (const std::exception &failure) {
        logger->warning("resident " + std::string{adapter_id}, std::string{"stops serving hooks: "} + failure.what());
        resident.leave_socket();
        return 1;
    }
}

/// `PROGRAM --resident-after-reply ADAPTER-ID`: the after-reply stage of the event whose request
/// the resident writes on stdin, in a session of its own; fd 3 holds the `starling wait` mark.
int run_after_reply_work(std::string_view adapter_id) {
    ::umask(077);
    ::signal(SIGPIPE, SIG_IGN);
    in_after_reply_work = 1;
    yield_to_hooks();
    Request request;
    try {
        request = decode_request(
            receive_frame(STDIN_FILENO, std::chrono::steady_clock::now() + kRequestWait, kMaxFrameBytes));
    } catch (const std::exception &failure) {
        print(STDERR_FILENO, std::string{"starling: no event to work on after its reply: "} + failure.what() + "\n");
        return 1;
    }
    if (request.kind != RequestKind::after_reply) {
        print(STDERR_FILENO, "starling: the request on stdin is not an after-reply one\n");
        return 64;
    }
    // This process lives for this one event: the hook's environment and directory become its own.
    static_cast<void>(new BorrowedEnvironment{request.environment});
    if (request.working_directory.empty() || ::chdir(request.working_directory.c_str()) != 0) {
        static_cast<void>(::chdir("/"));
    }
    // Deliberately never destroyed, as in a hook.
    Application &application = *new Application{std::nullopt, Application::UnusableConfig::use_embedded_defaults};
    try {
        const auto &logger = application.logger();
        handler_log_file = logger.file().string();
        plugins::handle_fatal_signals(&on_resident_fatal_signal);
        // Said once per session already, by the hook and the resident.
        application.report_refused_settings_to([](const core::ConfigError &) {});
        application.load_only_modules_in_use({std::string{adapter_id}});
        auto &adapter = *new plugins::AdapterInstance{application.adapter(adapter_id)};
        HookRun run;
        run.adapter_id = adapter_id;
        run.arguments = request.arguments;
        run.payload.total_bytes = request.payload.size();
        run.payload.text = request.payload;
        run.component = "hook " + std::string{adapter_id};
        run.application = &application;
        run.logger = &logger;
        run.adapter = &adapter;
        parse_and_render_safe(run);
        if (run.has_work()) {
            run_after_reply_stage_alone(run, request.relevance_index_stale);
        }
    } catch (const std::exception &failure) {
        print(STDERR_FILENO, std::string{"starling: the work after the reply failed: "} + failure.what() + "\n");
        return 1;
    }
    return 0;
}

int print_status(std::string_view adapter_id) {
    try {
        Application application{std::nullopt, Application::UnusableConfig::use_embedded_defaults};
        const auto identity = identity_of(application, adapter_id);
        const auto socket = socket_path(socket_directory(), identity.key);
        Request request;
        request.kind = RequestKind::status;
        request.fingerprint = identity.fingerprint;
        request.budget_left = std::chrono::seconds{2};
        const auto answer = ask(socket, request, std::chrono::steady_clock::now() + request.budget_left);
        if (answer.outcome == Answer::Outcome::served) {
            print(STDOUT_FILENO, answer.reply.stdout_text);
            return 0;
        }
        print(STDOUT_FILENO, "no resident hook process for " + std::string{adapter_id} + " (" + socket.string() +
                                 (answer.problem.empty() ? std::string{} : ": " + answer.problem) + ")\n");
        return 1;
    } catch (const std::exception &failure) {
        print(STDERR_FILENO, std::string{"starling: "} + failure.what() + "\n");
        return 1;
    }
}

std::optional<int> answer_resident_arguments(std::string_view bound_adapter, int argc, char **argv) {
    if (argc < 2) {
        return std::nullopt;
    }
    const std::string_view option{argv[1]};
    if (option != "--resident-hooks" && option != "--resident-status" && option != "--resident-after-reply") {
        return std::nullopt;
    }
    const std::string_view adapter = argc == 3 ? std::string_view{argv[2]} : bound_adapter;
    if (argc > 3 || adapter.empty() || (!bound_adapter.empty() && adapter != bound_adapter)) {
        print(STDERR_FILENO, "usage: " + std::string{argv[0]} + " " + std::string{option} +
                                 (bound_adapter.empty() ? " ADAPTER-ID" : " [" + std::string{bound_adapter} + "]") +
                                 "\n");
        return 64;
    }
    if (option == "--resident-after-reply") {
        return run_after_reply_work(adapter);
    }
    return option == "--resident-hooks" ? serve(adapter) : print_status(adapter);
}

} // namespace starling::app::resident
