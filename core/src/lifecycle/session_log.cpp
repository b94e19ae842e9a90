// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/session_log.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/store/record/project_id.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace starling::core {

namespace {

constexpr std::size_t kMaxPlainStem = 80;

bool is_plain_stem_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.';
}

std::string dump(const nlohmann::json &json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// Whether a process with this id runs (it may be another one that reused the id: the lease bounds
/// how long that can keep a claim alive). A killed judge stays a zombie until it is reaped, which an
/// init that does not reap may never do, so a zombie counts as dead.
bool process_is_alive(std::int64_t pid) {
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM)) {
        return false;
    }
    const auto stat = read_file_if_exists("/proc/" + std::to_string(pid) + "/stat", 4096);
    if (!stat) {
        return true;
    }
    // "pid (command) state ...": the command may hold spaces and parentheses, the state follows the last ')'.
    const auto command_end = stat->rfind(')');
    return command_end == std::string::npos || command_end + 2 >= stat->size() || (*stat)[command_end + 2] != 'Z';
}

std::size_t count_lines(const std::string &content) {
    return static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n'));
}

} // namespace

std::string SessionLog::file_stem(std::string_view session_id) {
    const bool plain = !session_id.empty() && session_id.size() <= kMaxPlainStem && session_id.front() != '.' &&
                       std::all_of(session_id.begin(), session_id.end(), is_plain_stem_char);
    if (plain) {
        return std::string{session_id};
    }
    std::string stem;
    for (const char c : session_id.substr(0, 40)) {
        stem += is_plain_stem_char(c) && !(stem.empty() && c == '.') ? c : '_';
    }
    if (stem.empty()) {
        stem = "session";
    }
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a_64(session_id)));
    return stem + "~" + hash;
}

SessionLog::SessionLog(std::filesystem::path sessions_directory, std::string_view session_id)
    : directory_(std::move(sessions_directory)) {
    const auto stem = file_stem(session_id);
    log_path_ = directory_ / (stem + ".jsonl");
    state_path_ = directory_ / (stem + ".state.jsonl");
    legacy_state_path_ = directory_ / (stem + ".state.json");
    lock_path_ = directory_ / (stem + ".lock");
    claim_marker_path_ = directory_ / "claims" / stem;
    session_id_ = std::string{session_id};
}

std::size_t SessionLog::append(const LoggedMessage &message) {
    ensure_directories_beneath(directory_.parent_path(), directory_);
    const FileLock lock{lock_path_};
    const nlohmann::json line{{"ts", format_timestamp(message.time)},
                              {"role", "user"},
                              {"message", message.text},
                              {"cwd", message.working_directory},
                              {"agent", message.agent}};
    // One line per message with a single append: a reader never sees half a record unless the
    // writer was killed mid-write (or the disk filled), and messages() skips such a line; this one
    // starts on a fresh line after it, so it is never glued to it. No fsync: losing the last
    // message on power loss is acceptable, paying milliseconds on every prompt is not.
    append_line_to_file(log_path_, dump(line) + "\n", /*durable=*/false);
    return count_lines(read_file_if_exists(log_path_).value_or(std::string{}));
}

std::vector<LoggedMessage> SessionLog::messages() const { return read_logged_messages(log_path_); }

std::vector<LoggedMessage> read_logged_messages(const std::filesystem::path &log_file) {
    std::vector<LoggedMessage> messages;
    const auto content = read_file_if_exists(log_file);
    if (!content) {
        return messages;
    }
    std::size_t position = 0;
    while (position < content->size()) {
        auto end = content->find('\n', position);
        if (end == std::string::npos) {
            end = content->size();
        }
        const auto line = nlohmann::json::parse(content->substr(position, end - position), nullptr, false);
        position = end + 1;
        if (line.is_discarded() || !line.is_object() || !line.contains("message") || !line["message"].is_string()) {
            continue;
        }
        LoggedMessage message;
        message.text = line["message"].get<std::string>();
        if (line.contains("ts") && line["ts"].is_string()) {
            message.time = parse_timestamp(line["ts"].get<std::string>()).value_or(std::chrono::sys_seconds{});
        }
        if (line.contains("cwd") && line["cwd"].is_string()) {
            message.working_directory = line["cwd"].get<std::string>();
        }
        if (line.contains("agent") && line["agent"].is_string()) {
            message.agent = line["agent"].get<std::string>();
        }
        messages.push_back(std::move(message));
    }
    return messages;
}

namespace {

/// Applies one line of the state journal: "evaluated" and "pending_context" replace, "injected"
/// adds keys (after "injected_reset": true, to an empty list), "warned" adds problems. The state file of earlier versions
/// was one object of the same fields, so it reads as a first line.
void apply_state_line(std::string_view text, SessionState &state) {
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return; // a line cut short by a killed writer: what it said is lost, the rest stands
    }
    if (json.contains("evaluated") && json["evaluated"].is_number_unsigned()) {
        state.evaluated = json["evaluated"].get<std::size_t>();
    }
    if (json.contains("claim")) {
        const auto &claim = json["claim"];
        if (claim.is_object() && claim.contains("until") && claim["until"].is_number_unsigned() &&
            claim.contains("pid") && claim["pid"].is_number_integer() && claim.contains("since") &&
            claim["since"].is_number_integer()) {
            state.claim = JudgeClaim{claim["until"].get<std::size_t>(), claim["pid"].get<std::int64_t>(),
                                     std::chrono::sys_seconds{std::chrono::seconds{claim["since"].get<std::int64_t>()}}};
        } else {
            state.claim.reset();
        }
    }
    if (json.contains("injected_reset") && json["injected_reset"] == true) {
        state.injected.clear();
    }
    if (json.contains("injected") && json["injected"].is_array()) {
        for (const auto &key : json["injected"]) {
            if (key.is_string()) {
                state.injected.push_back(key.get<std::string>());
            }
        }
    }
    if (json.contains("pending_context") && json["pending_context"].is_string()) {
        state.pending_context = json["pending_context"].get<std::string>();
    }
    if (json.contains("warned") && json["warned"].is_array()) {
        for (const auto &problem : json["warned"]) {
            if (problem.is_string()) {
                state.warned.push_back(problem.get<std::string>());
            }
        }
    }
}

struct StateJournal {
    SessionState state;
    /// The journal's last line lacks its '\n' (its writer was killed): the next line must not be
    /// glued to it.
    bool torn_tail = false;
};

StateJournal read_state_journal(const std::filesystem::path &journal, const std::filesystem::path &legacy) {
    StateJournal read;
    auto content = read_file_if_exists(journal);
    read.torn_tail = content && !content->empty() && content->back() != '\n';
    if (!content) {
        content = read_file_if_exists(legacy);
    }
    if (!content) {
        return read;
    }
    std::string_view rest = *content;
    while (!rest.empty()) {
        const auto end = std::min(rest.find('\n'), rest.size());
        apply_state_line(rest.substr(0, end), read.state);
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    return read;
}

/// The journal line that turns `before` into `after`; empty when nothing changed.
std::string state_change(const SessionState &before, const SessionState &after) {
    nlohmann::json change = nlohmann::json::object();
    if (after.evaluated != before.evaluated) {
        change["evaluated"] = after.evaluated;
    }
    if (after.claim != before.claim) {
        change["claim"] = after.claim ? nlohmann::json{{"until", after.claim->until},
                                                       {"pid", after.claim->pid},
                                                       {"since", after.claim->since.time_since_epoch().count()}}
                                      : nlohmann::json(nullptr);
    }
    const bool only_added = after.injected.size() >= before.injected.size() &&
                            std::equal(before.injected.begin(), before.injected.end(), after.injected.begin());
    const auto first_added = only_added ? before.injected.size() : 0;
    if (!only_added) {
        change["injected_reset"] = true;
    }
    if (after.injected.size() > first_added) {
        change["injected"] = std::vector<std::string>(
            after.injected.begin() + static_cast<std::ptrdiff_t>(first_added), after.injected.end());
    }
    if (after.pending_context != before.pending_context) {
        change["pending_context"] = after.pending_context;
    }
    // Problems are only ever added.
    if (after.warned.size() > before.warned.size()) {
        change["warned"] = std::vector<std::string>(
            after.warned.begin() + static_cast<std::ptrdiff_t>(before.warned.size()), after.warned.end());
    }
    return change.empty() ? std::string{} : dump(change) + "\n";
}

} // namespace

SessionState SessionLog::state() const { return read_state_journal(state_path_, legacy_state_path_).state; }

bool SessionLog::first_report_of(std::string_view problem) {
    bool first = false;
    update_state([&](SessionState &state) {
        first = std::find(state.warned.begin(), state.warned.end(), problem) == state.warned.end();
        if (first) {
            state.warned.emplace_back(problem);
        }
    });
    return first;
}

void SessionLog::update_state(const std::function<void(SessionState &)> &change) {
    ensure_directories_beneath(directory_.parent_path(), directory_);
    const FileLock lock{lock_path_};
    const StateJournal journal = read_state_journal(state_path_, legacy_state_path_);
    SessionState after = journal.state;
    change(after);
    record_state_change(journal.state, after, journal.torn_tail);
}

ClaimedMessages SessionLog::claim_unjudged_messages(std::chrono::sys_seconds now, std::chrono::seconds lease) {
    ensure_directories_beneath(directory_.parent_path(), directory_);
    const FileLock lock{lock_path_};
    const StateJournal journal = read_state_journal(state_path_, legacy_state_path_);
    if (journal.state.claim && process_is_alive(journal.state.claim->pid) && now - journal.state.claim->since < lease) {
        ClaimedMessages held;
        held.held_by_another = journal.state.claim->pid != static_cast<std::int64_t>(::getpid());
        return held;
    }
    auto messages = this->messages();
    const std::size_t first = journal.state.evaluated;
    SessionState after = journal.state;
    after.claim.reset();
    if (first < messages.size()) {
        after.claim = JudgeClaim{messages.size(), static_cast<std::int64_t>(::getpid()), now};
    }
    if (after.claim) {
        ensure_directories_beneath(directory_.parent_path(), claim_marker_path_.parent_path());
        write_file_atomically(claim_marker_path_, session_id_);
    }
    record_state_change(journal.state, after, journal.torn_tail);
    if (first >= messages.size()) {
        remove_claim_marker();
        return {};
    }
    messages.erase(messages.begin(), messages.begin() + static_cast<std::ptrdiff_t>(first));
    return {first, std::move(messages)};
}

void SessionLog::mark_judged_before(std::size_t index) {
    bool ended = false;
    update_state([&](SessionState &state) {
        state.evaluated = std::max(state.evaluated, index);
        if (state.claim && state.claim->pid == static_cast<std::int64_t>(::getpid()) &&
            state.evaluated >= state.claim->until) {
            state.claim.reset();
            ended = true;
        }
    });
    if (ended) {
        remove_claim_marker();
    }
}

void SessionLog::release_claim() {
    bool released = false;
    update_state([&](SessionState &state) {
        if (state.claim && state.claim->pid == static_cast<std::int64_t>(::getpid())) {
            state.claim.reset();
            released = true;
        }
    });
    if (released) {
        remove_claim_marker();
    }
}

void SessionLog::remove_claim_marker() const {
    std::error_code ignored; // a marker left behind costs one look at the session, never a message
    fault_point(FaultStep::unlink);
    std::filesystem::remove(claim_marker_path_, ignored);
}

std::vector<std::string> SessionLog::sessions_with_claims(const std::filesystem::path &sessions_directory) {
    std::vector<std::string> sessions;
    std::error_code error;
    for (const auto &marker : std::filesystem::directory_iterator(sessions_directory / "claims", error)) {
        // A judge killed while writing its marker leaves a temporary file with part of a session id:
        // no marker, and gone once its writer is.
        const std::string name = marker.path().filename().string();
        if (is_atomic_write_temp_name(name)) {
            if (is_dead_writers_temp_name(name)) {
                std::error_code ignored;
                std::filesystem::remove(marker.path(), ignored);
            }
            continue;
        }
        if (const auto id = read_file_if_exists(marker.path(), 4096); id && !id->empty()) {
            sessions.push_back(*id);
        }
    }
    std::sort(sessions.begin(), sessions.end());
    return sessions;
}

void SessionLog::record_state_change(const SessionState &before, const SessionState &after, bool torn_tail) const {
    // The first line of a new journal carries the whole state, so that a state kept by an earlier
    // version in the legacy file carries over.
    const bool new_journal = !std::filesystem::exists(state_path_);
    std::string line = state_change(new_journal ? SessionState{} : before, after);
    if (line.empty()) {
        return;
    }
    if (torn_tail) {
        line.insert(line.begin(), '\n'); // leaves the fragment a line of its own, which reading skips
    }
    // Appended, not replaced: a hook that injects changes the state on every prompt, and a
    // replacement made a new file each time. One write per change, under the session lock; no
    // fsync, since losing the last change to a power cut only re-injects a memory or re-judges a
    // message, and a line cut short is skipped on reading.
    append_to_file(state_path_, line, /*durable=*/false);
}

} // namespace starling::core
