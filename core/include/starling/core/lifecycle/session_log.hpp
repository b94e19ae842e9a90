// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
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
struct SessionState {
    std::size_t evaluated = 0;              ///< messages the decision policy has already judged
    std::vector<std::string> injected;      ///< memory keys already put into this session's context
    std::string pending_context;            ///< context computed where the agent had no channel
    std::vector<std::string> warned;        ///< problems already reported in this session, each once
};

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

    /// The messages not yet judged, marked judged under the session lock: however many hooks of the
    /// session ask at once, each message is handed out exactly once.
    [[nodiscard]] std::vector<LoggedMessage> take_unjudged_messages();

private:
    /// [session lock held] Appends what changed from `before` to `after` to the state journal, on a
    /// line of its own even after a line a killed writer left without its end (`torn_tail`).
    void record_state_change(const SessionState &before, const SessionState &after, bool torn_tail) const;

    std::filesystem::path directory_;
    std::filesystem::path log_path_;
    std::filesystem::path state_path_;
    std::filesystem::path legacy_state_path_; ///< the whole state in one file, before the journal
    std::filesystem::path lock_path_;
};

} // namespace starling::core
