// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/session_log.hpp>

#include <starling/core/atomic_file.hpp>
#include <starling/core/file_io.hpp>
#include <starling/core/file_lock.hpp>
#include <starling/core/project_id.hpp>
#include <starling/core/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
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
    state_path_ = directory_ / (stem + ".state.json");
    lock_path_ = directory_ / (stem + ".lock");
}

std::size_t SessionLog::append(const LoggedMessage &message) {
    ensure_directories(directory_);
    const FileLock lock{lock_path_};
    const nlohmann::json line{{"ts", format_timestamp(message.time)},
                              {"role", "user"},
                              {"message", message.text},
                              {"cwd", message.working_directory},
                              {"agent", message.agent}};
    // One line per message with a single append: a reader never sees half a record unless the
    // writer was killed mid-write, and messages() skips such a line. No fsync: losing the last
    // message on power loss is acceptable, paying milliseconds on every prompt is not.
    append_to_file(log_path_, dump(line) + "\n", /*durable=*/false);
    return count_lines(read_file_if_exists(log_path_).value_or(std::string{}));
}

std::vector<LoggedMessage> SessionLog::messages() const {
    std::vector<LoggedMessage> messages;
    const auto content = read_file_if_exists(log_path_);
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

SessionState read_state(const std::filesystem::path &path) {
    SessionState state;
    const auto content = read_file_if_exists(path);
    if (!content) {
        return state;
    }
    const auto json = nlohmann::json::parse(*content, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return state; // a garbled state only costs re-evaluation and re-injection, never a crash
    }
    if (json.contains("evaluated") && json["evaluated"].is_number_unsigned()) {
        state.evaluated = json["evaluated"].get<std::size_t>();
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
    return state;
}

} // namespace

SessionState SessionLog::state() const { return read_state(state_path_); }

void SessionLog::update_state(const std::function<void(SessionState &)> &change) {
    ensure_directories(directory_);
    const FileLock lock{lock_path_};
    SessionState state = read_state(state_path_);
    change(state);
    write_state(state);
}

std::vector<LoggedMessage> SessionLog::take_unjudged_messages() {
    ensure_directories(directory_);
    const FileLock lock{lock_path_};
    SessionState state = read_state(state_path_);
    auto messages = this->messages();
    if (state.evaluated >= messages.size()) {
        return {};
    }
    messages.erase(messages.begin(), messages.begin() + static_cast<std::ptrdiff_t>(state.evaluated));
    state.evaluated += messages.size();
    write_state(state);
    return messages;
}

void SessionLog::write_state(const SessionState &state) const {
    const nlohmann::json json{
        {"evaluated", state.evaluated}, {"injected", state.injected}, {"pending_context", state.pending_context}};
    // Losing the state to a power cut only means re-judging messages or re-injecting a memory.
    write_file_atomically(state_path_, dump(json) + "\n", Durability::survives_crash);
}

} // namespace starling::core
