// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/receipts.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/lifecycle/session_log.hpp>
#include <starling/core/redaction/redaction.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace starling::core {

namespace {

constexpr std::string_view kLogSuffix = ".jsonl";
constexpr std::string_view kStateSuffix = ".state.jsonl";
constexpr std::string_view kReceiptsSuffix = ".receipts.jsonl";

std::string dump(const nlohmann::json &json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string string_member(const nlohmann::json &line, const char *name) {
    const auto found = line.find(name);
    return found != line.end() && found->is_string() ? found->get<std::string>() : std::string{};
}

std::size_t size_member(const nlohmann::json &line, const char *name) {
    const auto found = line.find(name);
    return found != line.end() && found->is_number_unsigned() ? found->get<std::size_t>() : 0;
}

double number_member(const nlohmann::json &line, const char *name) {
    const auto found = line.find(name);
    return found != line.end() && found->is_number() ? found->get<double>() : 0.0;
}

nlohmann::json memory_json(const ReceiptMemory &memory, const Redactor &redactor) {
    return {{"key", memory.key},
            {"score", memory.score},
            {"tokens", memory.tokens},
            {"reason", redactor.redact(memory.reason).text}};
}

std::optional<ReceiptMemory> memory_from(const nlohmann::json &item) {
    if (!item.is_object()) {
        return std::nullopt;
    }
    return ReceiptMemory{string_member(item, "key"), number_member(item, "score"), size_member(item, "tokens"),
                         string_member(item, "reason")};
}

std::vector<ReceiptMemory> memories_from(const nlohmann::json &line, const char *name) {
    std::vector<ReceiptMemory> memories;
    const auto found = line.find(name);
    if (found == line.end() || !found->is_array()) {
        return memories;
    }
    for (const auto &item : *found) {
        if (auto memory = memory_from(item)) {
            memories.push_back(std::move(*memory));
        }
    }
    return memories;
}

std::optional<InjectionReceipt> injection_from(const nlohmann::json &line) {
    const auto time = parse_timestamp(string_member(line, "at"));
    if (!time) {
        return std::nullopt;
    }
    InjectionReceipt receipt;
    receipt.time = *time;
    receipt.event = string_member(line, "event");
    receipt.session = string_member(line, "session");
    receipt.agent = string_member(line, "agent");
    receipt.project = string_member(line, "project");
    if (const auto message = line.find("message"); message != line.end() && message->is_number_unsigned()) {
        receipt.message = message->get<std::size_t>();
    }
    receipt.budget_tokens = size_member(line, "budget_tokens");
    receipt.tokens = size_member(line, "tokens");
    receipt.threshold = number_member(line, "threshold");
    receipt.injected = memories_from(line, "injected");
    receipt.left_out = memories_from(line, "left_out");
    receipt.more_left_out = size_member(line, "more_left_out");
    if (const auto listed = line.find("listed"); listed != line.end() && listed->is_array()) {
        for (const auto &key : *listed) {
            if (key.is_string()) {
                receipt.listed.push_back(key.get<std::string>());
            }
        }
    }
    if (const auto best = line.find("best_below_threshold"); best != line.end()) {
        receipt.best_below_threshold = memory_from(*best);
    }
    return receipt;
}

std::optional<DecisionReceipt> decision_from(const nlohmann::json &line) {
    const auto time = parse_timestamp(string_member(line, "at"));
    if (!time) {
        return std::nullopt;
    }
    return DecisionReceipt{*time,
                           size_member(line, "message"),
                           string_member(line, "action"),
                           string_member(line, "key"),
                           string_member(line, "decision"),
                           string_member(line, "reason")};
}

/// The receipts of a file's content, every one of them, and the count of those dropped before.
SessionReceipts parse_receipts(std::string_view content) {
    SessionReceipts receipts;
    std::size_t position = 0;
    while (position < content.size()) {
        auto end = content.find('\n', position);
        if (end == std::string_view::npos) {
            end = content.size();
        }
        const auto line = nlohmann::json::parse(content.substr(position, end - position), nullptr, false);
        position = end + 1;
        if (line.is_discarded() || !line.is_object()) {
            continue; // the torn tail of a killed writer, or not ours
        }
        const auto kind = string_member(line, "receipt");
        if (kind == "injection") {
            if (auto receipt = injection_from(line)) {
                receipts.injections.push_back(std::move(*receipt));
            }
        } else if (kind == "decision") {
            if (auto receipt = decision_from(line)) {
                receipts.decisions.push_back(std::move(*receipt));
            }
        } else if (kind == "dropped") {
            receipts.dropped += size_member(line, "count");
        }
    }
    return receipts;
}

template <typename Receipt>
std::size_t keep_newest(std::vector<Receipt> &receipts, std::size_t most) {
    if (receipts.size() <= most) {
        return 0;
    }
    const std::size_t drop = receipts.size() - most;
    receipts.erase(receipts.begin(), receipts.begin() + static_cast<std::ptrdiff_t>(drop));
    return drop;
}

std::string injection_line(const InjectionReceipt &receipt, const Redactor &redactor) {
    nlohmann::json line{{"receipt", "injection"},
                        {"at", format_timestamp(receipt.time)},
                        {"event", receipt.event},
                        {"session", redactor.redact(receipt.session).text},
                        {"agent", receipt.agent},
                        {"project", receipt.project},
                        {"budget_tokens", receipt.budget_tokens},
                        {"tokens", receipt.tokens},
                        {"threshold", receipt.threshold},
                        {"injected", nlohmann::json::array()},
                        {"listed", receipt.listed},
                        {"left_out", nlohmann::json::array()},
                        {"more_left_out", receipt.more_left_out}};
    if (receipt.message) {
        line["message"] = *receipt.message;
    }
    for (const auto &memory : receipt.injected) {
        line["injected"].push_back(memory_json(memory, redactor));
    }
    for (const auto &memory : receipt.left_out) {
        line["left_out"].push_back(memory_json(memory, redactor));
    }
    if (receipt.best_below_threshold) {
        line["best_below_threshold"] = memory_json(*receipt.best_below_threshold, redactor);
    }
    return dump(line) + "\n";
}

std::string decision_line(const DecisionReceipt &receipt, const Redactor &redactor) {
    return dump(nlohmann::json{{"receipt", "decision"},
                               {"at", format_timestamp(receipt.time)},
                               {"message", receipt.message},
                               {"action", receipt.action},
                               {"key", receipt.key},
                               {"decision", redactor.redact(receipt.decision).text},
                               {"reason", redactor.redact(receipt.reason).text}}) +
           "\n";
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

/// The stem of a session's file name: `<stem>.jsonl` or `<stem>.receipts.jsonl`; nothing for its
/// other files (state, lock) and for anything else.
std::optional<std::string> stem_of_session_file(const std::string &name) {
    if (name.starts_with('.') || ends_with(name, kStateSuffix)) {
        return std::nullopt;
    }
    if (ends_with(name, kReceiptsSuffix)) {
        return name.substr(0, name.size() - kReceiptsSuffix.size());
    }
    if (ends_with(name, kLogSuffix)) {
        return name.substr(0, name.size() - kLogSuffix.size());
    }
    return std::nullopt;
}

bool session_files_exist(const std::filesystem::path &directory, const std::string &stem) {
    return stamp_file(directory / (stem + std::string{kLogSuffix})) ||
           stamp_file(directory / (stem + std::string{kReceiptsSuffix}));
}

} // namespace

ReceiptLog::ReceiptLog(std::filesystem::path sessions_directory, std::string_view session_stem,
                       const Redactor &redactor, ReceiptLimits limits)
    : directory_(std::move(sessions_directory)), redactor_(&redactor), limits_(limits) {
    path_ = directory_ / (std::string{session_stem} + std::string{kReceiptsSuffix});
    lock_path_ = directory_ / (std::string{session_stem} + ".lock");
    limits_.max_receipts = std::max<std::size_t>(limits_.max_receipts, 1);
}

void ReceiptLog::append(const InjectionReceipt &receipt) const { append_line(injection_line(receipt, *redactor_)); }

void ReceiptLog::append(const DecisionReceipt &receipt) const { append_line(decision_line(receipt, *redactor_)); }

void ReceiptLog::append_line(const std::string &line) const {
    ensure_directories_beneath(directory_.parent_path(), directory_);
    // The session's lock, which its log and state take too: a prune's rewrite never loses an append.
    const FileLock lock{lock_path_};
    append_line_to_file(path_, line, /*durable=*/false);
    const auto stamp = stamp_file(path_);
    if (!stamp || stamp->size <= limits_.prune_bytes) {
        return;
    }
    SessionReceipts receipts = parse_receipts(read_file(path_));
    const std::size_t dropped = receipts.dropped + keep_newest(receipts.injections, limits_.max_receipts) +
                                keep_newest(receipts.decisions, limits_.max_receipts);
    std::string content = dump(nlohmann::json{{"receipt", "dropped"}, {"count", dropped}}) + "\n";
    // Already redacted when first written: redacting again changes nothing.
    for (const auto &decision : receipts.decisions) {
        content += decision_line(decision, *redactor_);
    }
    for (const auto &injection : receipts.injections) {
        content += injection_line(injection, *redactor_);
    }
    write_file_atomically(path_, content, Durability::survives_crash);
}

SessionReceipts ReceiptLog::read() const {
    SessionReceipts receipts = parse_receipts(read_file_if_exists(path_).value_or(std::string{}));
    receipts.dropped += keep_newest(receipts.injections, limits_.max_receipts);
    receipts.dropped += keep_newest(receipts.decisions, limits_.max_receipts);
    return receipts;
}

SessionSummary summarize_session(const std::filesystem::path &sessions_directory, const std::string &stem) {
    SessionSummary summary;
    summary.stem = stem;
    summary.session_id = stem;
    const auto messages = read_logged_messages(sessions_directory / (stem + std::string{kLogSuffix}));
    summary.prompts = messages.size();
    if (!messages.empty()) {
        summary.agent = messages.back().agent;
        summary.directory = messages.back().working_directory;
        summary.last_activity = messages.back().time;
    }
    const auto receipts = parse_receipts(
        read_file_if_exists(sessions_directory / (stem + std::string{kReceiptsSuffix})).value_or(std::string{}));
    summary.receipts = receipts.injections.size();
    summary.decisions = receipts.decisions.size();
    if (!receipts.injections.empty()) {
        const auto &last = receipts.injections.back();
        if (!last.session.empty()) {
            summary.session_id = last.session;
        }
        if (summary.agent.empty()) {
            summary.agent = last.agent;
        }
        summary.project = last.project;
        summary.last_activity = std::max(summary.last_activity, last.time);
    }
    if (!receipts.decisions.empty()) {
        summary.last_activity = std::max(summary.last_activity, receipts.decisions.back().time);
    }
    return summary;
}

std::vector<SessionSummary> recent_sessions(const std::filesystem::path &sessions_directory, std::size_t most) {
    // Each session's newest file time, from one listing of the folder: only the most recent are read.
    std::map<std::string, std::filesystem::file_time_type> newest;
    std::error_code error;
    for (std::filesystem::directory_iterator entry{sessions_directory, error}, end; !error && entry != end;
         entry.increment(error)) {
        const auto stem = stem_of_session_file(entry->path().filename().string());
        std::error_code time_error;
        const auto time = entry->last_write_time(time_error);
        if (!stem || time_error || !entry->is_regular_file(time_error)) {
            continue;
        }
        // Not newest[*stem]: a file_time_type of zero is the file clock's epoch, which lies ahead.
        const auto [known, added] = newest.try_emplace(*stem, time);
        if (!added) {
            known->second = std::max(known->second, time);
        }
    }
    std::vector<std::pair<std::filesystem::file_time_type, std::string>> by_time;
    for (const auto &[stem, time] : newest) {
        by_time.emplace_back(time, stem);
    }
    std::sort(by_time.begin(), by_time.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<SessionSummary> sessions;
    for (const auto &[time, stem] : by_time) {
        if (sessions.size() == most) {
            break;
        }
        sessions.push_back(summarize_session(sessions_directory, stem));
    }
    // The times recorded inside the files, which a fixed clock (STARLING_NOW) makes the truth.
    std::stable_sort(sessions.begin(), sessions.end(), [](const SessionSummary &a, const SessionSummary &b) {
        return a.last_activity > b.last_activity;
    });
    return sessions;
}

std::optional<std::string> find_session_stem(const std::filesystem::path &sessions_directory, std::string_view name) {
    if (name.empty()) {
        return std::nullopt;
    }
    if (const auto stem = SessionLog::file_stem(name); session_files_exist(sessions_directory, stem)) {
        return stem;
    }
    // A stem as `starling log` printed it: an id with other characters was given a hashed one.
    const std::string stem{name};
    const bool plain_name = stem.find('/') == std::string::npos && !stem.starts_with('.');
    if (plain_name && session_files_exist(sessions_directory, stem)) {
        return stem;
    }
    return std::nullopt;
}

} // namespace starling::core
