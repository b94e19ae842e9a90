// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

class Redactor;

/// One memory of an injection receipt.
struct ReceiptMemory {
    std::string key;
    double score = 0.0;      ///< the relevance policy's score; 1 for a standing memory
    std::size_t tokens = 0;  ///< what its text cost of the budget; 0 when it was left out
    std::string reason;      ///< why it was chosen, or left out
    friend bool operator==(const ReceiptMemory &, const ReceiptMemory &) = default;
};

/// What one injection put into an agent's context, and why: written where the injection is decided.
struct InjectionReceipt {
    std::chrono::sys_seconds time{};
    std::string event;   ///< `session-start`, `subagent-start` or `prompt`
    std::string session; ///< the agent's session id
    std::string agent;
    std::string project; ///< the project id injected for; empty outside a project
    /// The prompt's index in the session log (sessions/<stem>.jsonl), when it was logged.
    std::optional<std::size_t> message;
    std::size_t budget_tokens = 0;
    std::size_t tokens = 0; ///< of the budget, what the injected text used
    double threshold = 0.0; ///< the least score a prompt's best memory needed; 0 at session start
    std::vector<ReceiptMemory> injected;
    std::vector<std::string> listed;       ///< session start: standing memories named by a line (keys)
    std::vector<ReceiptMemory> left_out;   ///< qualified, but the budget was spent
    std::size_t more_left_out = 0;         ///< left out beyond those `left_out` names
    std::optional<ReceiptMemory> best_below_threshold; ///< nothing injected: what came closest
    friend bool operator==(const InjectionReceipt &, const InjectionReceipt &) = default;
};

/// What the decision policy made of one message of the session.
struct DecisionReceipt {
    std::chrono::sys_seconds time{};
    std::size_t message = 0; ///< the message's index in the session log
    std::string action;      ///< created, updated or discarded
    std::string key;         ///< the memory written or updated; empty when discarded
    std::string decision;    ///< `<type>, <scope>` when stored
    std::string reason;
    friend bool operator==(const DecisionReceipt &, const DecisionReceipt &) = default;
};

/// A session's receipts, oldest first.
struct SessionReceipts {
    std::vector<InjectionReceipt> injections;
    std::vector<DecisionReceipt> decisions;
    /// How many older receipts were dropped to keep the file bounded.
    std::size_t dropped = 0;
};

struct ReceiptLimits {
    /// Receipts of each kind kept per session: the newest.
    std::size_t max_receipts = 200;
    /// The file is cut down to the newest `max_receipts` of each kind once it is larger than this.
    std::uint64_t prune_bytes = std::uint64_t{512} << 10;
};

/// A session's receipts: `sessions/<stem>.receipts.jsonl` beside its message log, one JSON line per
/// receipt, appended under the session's lock (`sessions/<stem>.lock`) with one write a line, every
/// text redacted. A line a killed writer left half-written is skipped. Bounded by ReceiptLimits; it
/// goes wherever its session's log goes, as one of the session's files. Reading takes no lock.
class ReceiptLog {
public:
    /// The receipts of the session whose files are named `session_stem` (SessionLog::file_stem of
    /// its id).
    ReceiptLog(std::filesystem::path sessions_directory, std::string_view session_stem, const Redactor &redactor,
               ReceiptLimits limits = {});

    [[nodiscard]] const std::filesystem::path &path() const noexcept { return path_; }

    /// Append one receipt. Throws StoreError when it cannot be written.
    void append(const InjectionReceipt &receipt) const;
    void append(const DecisionReceipt &receipt) const;

    /// The newest `max_receipts` of each kind, oldest first. Throws StoreError when the file cannot be read.
    [[nodiscard]] SessionReceipts read() const;

private:
    void append_line(const std::string &line) const;

    std::filesystem::path directory_;
    std::filesystem::path path_;
    std::filesystem::path lock_path_;
    const Redactor *redactor_;
    ReceiptLimits limits_;
};

/// One session as `starling log` lists it.
struct SessionSummary {
    std::string stem;       ///< its files' name in sessions/: what `starling log --session` takes
    std::string session_id; ///< the agent's id for it, as its receipts record it (else the stem)
    std::string agent;
    std::string directory;  ///< where its last message was typed
    std::string project;    ///< the project its last injection was for
    std::chrono::sys_seconds last_activity{};
    std::size_t prompts = 0;   ///< messages captured in its log
    std::size_t decisions = 0; ///< decision receipts
    std::size_t receipts = 0;  ///< injection receipts
};

/// The sessions with a log or receipts in `sessions_directory`, the most recently active first, at
/// most `most` of them (each costs a read of its files).
[[nodiscard]] std::vector<SessionSummary> recent_sessions(const std::filesystem::path &sessions_directory,
                                                          std::size_t most);

/// The stem of the session `name` names in `sessions_directory`: an agent's session id (as
/// SessionLog::file_stem makes its file names) or a stem `starling log` printed; nullopt when
/// neither has a log or receipts there.
[[nodiscard]] std::optional<std::string> find_session_stem(const std::filesystem::path &sessions_directory,
                                                           std::string_view name);

/// The summary of the session whose files are named `stem`.
[[nodiscard]] SessionSummary summarize_session(const std::filesystem::path &sessions_directory, const std::string &stem);

} // namespace starling::core
