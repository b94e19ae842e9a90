// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// One user message as the session log keeps it (already redacted).
struct LoggedMessage {
    std::chrono::sys_seconds time{};
    std::string text;
    std::string working_directory;
    std::string agent;
};

/// The per-session state that is not the messages themselves.
/// A process judging a session's messages: those from `evaluated` up to `until` are its to judge.
/// A claim outlives its process only until someone looks (claim_unjudged_messages takes it over).
struct JudgeClaim {
    std::size_t until = 0;
    std::int64_t pid = 0;
    std::chrono::sys_seconds since{};
    friend bool operator==(const JudgeClaim &, const JudgeClaim &) = default;
};

/// The messages a claim hands out: the log's messages from index `first` on.
struct ClaimedMessages {
    std::size_t first = 0;
    std::vector<LoggedMessage> messages;
    /// Another live judge holds the session's messages: what it did not claim is handed out once it
    /// is done.
    bool held_by_another = false;
};

struct SessionState {
    std::size_t evaluated = 0;              ///< messages whose outcome is written (judged and stored or discarded)
    std::optional<JudgeClaim> claim;        ///< the messages being judged right now, by whom
    /// Memory keys already in this session's context: injected, or kept from what the user said in it.
    std::vector<std::string> injected;
    std::string pending_context;            ///< context computed where the agent had no channel
    std::vector<std::string> warned;        ///< problems already reported in this session, each once
};

/// The messages of a session log file (`sessions/<stem>.jsonl`), in order; nothing when there is no
/// such file. Lines that do not parse (a writer killed mid-line) are skipped.
[[nodiscard]] std::vector<LoggedMessage> read_logged_messages(const std::filesystem::path &log_file);

/// The log of one agent session: `sessions/<stem>.jsonl`, one JSON line per user message, keyed by
/// the agent's own session id, never shared between sessions. `sessions/<stem>.state.jsonl` keeps
/// what the lifecycle must remember between hook processes of the session, as a journal of changes
/// (one appended line each; the state is their sum). Every read-modify-write holds
/// `sessions/<stem>.lock`.
class SessionLog {
public:
    SessionLog(std::filesystem::path sessions_directory, std::string_view session_id);

    /// A file name for a session id: the id itself when it is made of [A-Za-z0-9._-] (at most 80
    /// bytes), otherwise a sanitised prefix plus a hash of the id, so distinct ids never share a log.
    [[nodiscard]] static std::string file_stem(std::string_view session_id);

    [[nodiscard]] const std::filesystem::path &log_path() const noexcept { return log_path_; }

    /// Appends a message and returns how many messages the session has logged now.
    std::size_t append(const LoggedMessage &message);

    /// Every logged message, in order. Lines that do not parse (a writer killed mid-line) are skipped.
    [[nodiscard]] std::vector<LoggedMessage> messages() const;

    [[nodiscard]] SessionState state() const;

    /// Read-modify-write of the state under the session lock.
    void update_state(const std::function<void(SessionState &)> &change);

    /// True the first time a session asks about `problem` (a short stable name), false ever after:
    /// a problem that every hook of a session runs into is reported once, not at every hook.
    [[nodiscard]] bool first_report_of(std::string_view problem);

    /// Capture is write-ahead: the messages not yet judged are claimed for this process under the
    /// session lock, not marked judged, so that however many hooks of the session ask at once each
    /// message is handed out once, and one whose judge died before its outcome was written is handed
    /// out again. Nothing while a live process holds a claim younger than `lease`; a claim whose
    /// process is gone, or older than `lease`, is taken over.
    [[nodiscard]] ClaimedMessages claim_unjudged_messages(std::chrono::sys_seconds now, std::chrono::seconds lease);

    /// Records that the outcome of every message before `index` is written (judged, then stored or
    /// discarded): called after each message, so a crash loses at most the one being written.
    /// Reaching the end of this process's claim ends it.
    void mark_judged_before(std::size_t index);

    /// Gives up this process's claim on what is not judged yet, for a later hook to retry.
    void release_claim();

    /// The ids of sessions whose messages a judge claimed and did not finish: each claim leaves a
    /// marker in `sessions/claims/` until it ends, so that finding the ones a killed judge left takes
    /// a listing of a folder that is nearly always empty, not a read of every session's state.
    /// Includes claims still being worked on; claim_unjudged_messages tells them apart.
    [[nodiscard]] static std::vector<std::string> sessions_with_claims(const std::filesystem::path &sessions_directory);

private:
    /// [session lock held] Appends what changed from `before` to `after` to the state journal, on a
    /// line of its own even after a line a killed writer left without its end (`torn_tail`).
    void record_state_change(const SessionState &before, const SessionState &after, bool torn_tail) const;
    void remove_claim_marker() const;

    std::filesystem::path directory_;
    std::filesystem::path log_path_;
    std::filesystem::path state_path_;
    std::filesystem::path legacy_state_path_; ///< the whole state in one file, before the journal
    std::filesystem::path lock_path_;
    std::filesystem::path claim_marker_path_;
    std::string session_id_;
};

} // namespace starling::core
