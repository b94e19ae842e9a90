// SPDX-License-Identifier: Apache-2.0
// Where memories came from and what reached the agents: `starling why` (a memory's history) and
// `starling log` (each session's captured prompts, decisions and injection receipts).
#include "command_reference.hpp"
#include "commands.hpp"
#include "provenance_json.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/lifecycle/receipts.hpp>
#include <starling/core/store/record/memory_file.hpp>

#include <array>
#include <iostream>

namespace starling::app {

namespace {

/// At most `most` bytes of `text` on one line, control characters escaped, cut at a character.
std::string excerpt(std::string_view text, std::size_t most = 160) {
    std::string line = printable(text);
    for (char &c : line) {
        if (c == '\n' || c == '\r' || c == '\t') {
            c = ' ';
        }
    }
    if (line.size() <= most) {
        return line;
    }
    std::size_t end = most;
    while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) {
        --end;
    }
    return line.substr(0, end) + "…";
}

nlohmann::json event_json(const core::ProvenanceEvent &event) {
    nlohmann::json json{{"at", core::format_timestamp(event.time)}, {"event", core::to_string(event.kind)}};
    for (const auto &[name, value] : core::named_texts(event)) {
        json[std::string{name}] = *value;
    }
    return json;
}

/// "by AGENT in session S (message M)", as far as the event says.
std::string who_and_where(const core::ProvenanceEvent &event) {
    std::string text;
    if (!event.agent.empty()) {
        text += " by " + excerpt(event.agent);
    }
    if (!event.session.empty()) {
        text += " in session " + excerpt(event.session);
    }
    if (!event.message.empty()) {
        text += " (message " + excerpt(event.message) + ")";
    }
    return text;
}

void print_history(std::string_view heading, const core::MemoryProvenance &provenance) {
    const auto &history = provenance.history;
    std::cout << heading << "\n\norigin";
    if (provenance.origin_from_fields) {
        std::cout << " (from the memory's fields)";
    }
    std::cout << '\n';
    if (const auto &origin = history.origin) {
        std::cout << "  " << core::format_timestamp(origin->time) << "  " << core::to_string(origin->kind)
                  << who_and_where(*origin) << '\n';
        if (provenance.origin_message) {
            std::cout << "  message: \"" << excerpt(provenance.origin_message->text, 400) << "\" (session log, "
                      << core::format_timestamp(provenance.origin_message->time) << ")\n";
        } else if (!origin->text.empty()) {
            std::cout << "  said: \"" << excerpt(origin->text, 400) << "\"";
            std::cout << (origin->message.empty() ? "\n" : " (its session log is gone)\n");
        }
        if (!origin->decision.empty()) {
            std::cout << "  decision: " << excerpt(origin->decision) << '\n';
        }
        if (!origin->reason.empty()) {
            std::cout << "  reason: " << excerpt(origin->reason, 400) << '\n';
        }
    }
    std::cout << "\nevents\n";
    if (history.dropped > 0) {
        std::cout << "  (" << history.dropped << " older events not kept)\n";
    }
    if (history.events.empty()) {
        std::cout << "  none since\n";
    }
    for (const auto &event : history.events) {
        std::cout << "  " << core::format_timestamp(event.time) << "  " << excerpt(core::event_words(event)) << who_and_where(event);
        if (!event.reason.empty()) {
            std::cout << ": " << excerpt(event.reason);
        }
        std::cout << '\n';
    }
}

/// An archived memory that `name` names — its id, four or more characters of it, or the key it had —
/// newest archive first, with its archive id; nothing when none does.
std::optional<std::pair<core::Memory, core::ArchiveEntry>> archived_memory_named(core::MemoryStore &store,
                                                                                  const std::string &name) {
    const auto entries = store.archived();
    for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
        if (entry->restored_key) {
            continue;
        }
        try {
            const auto copy = store.root() / entry->archived_path;
            auto memory = core::parse_memory(core::read_file(copy), copy.string());
            const auto id = core::memory_id_of(memory);
            if (entry->original_key == name || entry->id == name || id == name ||
                (name.size() >= 4 && id.starts_with(name))) {
                return std::pair{std::move(memory), *entry};
            }
        } catch (const std::exception &) {
            // an archive copy that cannot be read names nothing; `starling doctor` reports it
        }
    }
    return std::nullopt;
}

} // namespace

nlohmann::json provenance_json(const core::MemoryProvenance &provenance) {
    const auto &history = provenance.history;
    nlohmann::json json{{"id", history.memory_id},
                        {"origin", nullptr},
                        {"origin_from_fields", provenance.origin_from_fields},
                        {"origin_message", nullptr},
                        {"events", nlohmann::json::array()},
                        {"dropped_events", history.dropped}};
    if (history.origin) {
        json["origin"] = event_json(*history.origin);
    }
    if (provenance.origin_message) {
        json["origin_message"] = {{"at", core::format_timestamp(provenance.origin_message->time)},
                                  {"text", provenance.origin_message->text},
                                  {"agent", provenance.origin_message->agent},
                                  {"cwd", provenance.origin_message->working_directory}};
    }
    for (const auto &event : history.events) {
        json["events"].push_back(event_json(event));
    }
    return json;
}

int run_why_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("why", words);
    arguments.expect_operands(1, 1, "the ID, KEY or path of the memory whose history to show");
    auto &store = application.store();
    const std::string &name = arguments.operands().front();
    std::string key;
    core::Memory memory;
    std::optional<core::ArchiveEntry> archive;
    try {
        key = store.find_memory(name);
        memory = store.read(key);
    } catch (const core::StoreError &) {
        // A forgotten or merged-away memory still has its history: the archive knows its id.
        auto archived = archived_memory_named(store, name);
        if (!archived) {
            throw;
        }
        memory = std::move(archived->first);
        archive = std::move(archived->second);
        key = archive->original_key;
    }
    const auto provenance = core::provenance_of(store, memory);
    if (arguments.flag("json")) {
        auto json = provenance_json(provenance);
        json["key"] = key;
        json["summary"] = memory.summary;
        json["archive_id"] = archive ? nlohmann::json(archive->id) : nlohmann::json(nullptr);
        print_json(json);
        return 0;
    }
    std::string heading = "memory " + core::memory_id_of(memory) + ": " + excerpt(memory.summary) + "\n  " + key;
    if (archive) {
        heading += " (archived as " + archive->id + ": starling restore " + archive->id + ")";
    }
    print_history(heading, provenance);
    return 0;
}

namespace {

nlohmann::json receipt_memory_json(const core::ReceiptMemory &memory) {
    return {{"key", memory.key}, {"score", memory.score}, {"tokens", memory.tokens}, {"reason", memory.reason}};
}

nlohmann::json receipt_json(const core::InjectionReceipt &receipt) {
    nlohmann::json json{{"at", core::format_timestamp(receipt.time)},
                        {"event", receipt.event},
                        {"session", receipt.session},
                        {"agent", receipt.agent},
                        {"project", receipt.project},
                        {"message", receipt.message ? nlohmann::json(*receipt.message) : nlohmann::json(nullptr)},
                        {"budget_tokens", receipt.budget_tokens},
                        {"tokens", receipt.tokens},
                        {"threshold", receipt.threshold},
                        {"injected", nlohmann::json::array()},
                        {"listed", receipt.listed},
                        {"left_out", nlohmann::json::array()},
                        {"more_left_out", receipt.more_left_out},
                        {"best_below_threshold", nullptr}};
    for (const auto &memory : receipt.injected) {
        json["injected"].push_back(receipt_memory_json(memory));
    }
    for (const auto &memory : receipt.left_out) {
        json["left_out"].push_back(receipt_memory_json(memory));
    }
    if (receipt.best_below_threshold) {
        json["best_below_threshold"] = receipt_memory_json(*receipt.best_below_threshold);
    }
    return json;
}

nlohmann::json summary_json(const core::SessionSummary &session) {
    return {{"session", session.session_id},   {"stem", session.stem},
            {"agent", session.agent},          {"directory", session.directory},
            {"project", session.project},      {"last_activity", core::format_timestamp(session.last_activity)},
            {"prompts", session.prompts},      {"decisions", session.decisions},
            {"receipts", session.receipts}};
}

void print_receipt(const core::InjectionReceipt &receipt) {
    std::cout << "  " << core::format_timestamp(receipt.time) << "  " << receipt.event;
    if (receipt.message) {
        std::cout << " #" << *receipt.message;
    }
    std::cout << " (" << excerpt(receipt.agent) << "): " << receipt.injected.size()
              << (receipt.injected.size() == 1 ? " memory, " : " memories, ") << receipt.tokens << " of "
              << receipt.budget_tokens << " tokens";
    if (receipt.event == "prompt") {
        std::cout << ", threshold " << two_decimals(receipt.threshold);
    }
    std::cout << '\n';
    for (const auto &memory : receipt.injected) {
        std::cout << "    + " << memory.key << "  score " << two_decimals(memory.score) << ", " << memory.tokens
                  << " tokens: " << excerpt(memory.reason, 240) << '\n';
    }
    for (const auto &key : receipt.listed) {
        std::cout << "    = " << key << ": named by a line (the budget left no room for its text)\n";
    }
    for (const auto &memory : receipt.left_out) {
        std::cout << "    - " << memory.key << "  score " << two_decimals(memory.score) << ": "
                  << excerpt(memory.reason, 240) << '\n';
    }
    if (receipt.more_left_out > 0) {
        std::cout << "    - " << receipt.more_left_out << " more left out, not named here\n";
    }
    if (const auto &best = receipt.best_below_threshold) {
        std::cout << "    nothing injected: the best, " << best->key << ", scored " << two_decimals(best->score)
                  << ", below " << two_decimals(receipt.threshold) << '\n';
    }
}

int print_session(core::MemoryStore &store, const std::filesystem::path &sessions, const std::string &name,
                  bool json) {
    const auto stem = core::find_session_stem(sessions, name);
    if (!stem) {
        throw std::runtime_error("no session '" + name + "' in " + sessions.string() +
                                 ": `starling log` lists the recent sessions with their ids");
    }
    const auto summary = core::summarize_session(sessions, *stem);
    const auto messages = core::read_logged_messages(sessions / (*stem + ".jsonl"));
    const auto receipts = core::ReceiptLog{sessions, *stem, store.redactor()}.read();
    if (json) {
        auto out = summary_json(summary);
        out["messages"] = nlohmann::json::array();
        for (std::size_t index = 0; index < messages.size(); ++index) {
            out["messages"].push_back({{"index", index},
                                       {"at", core::format_timestamp(messages[index].time)},
                                       {"text", messages[index].text},
                                       {"agent", messages[index].agent},
                                       {"cwd", messages[index].working_directory}});
        }
        out["decisions_made"] = nlohmann::json::array();
        for (const auto &decision : receipts.decisions) {
            out["decisions_made"].push_back({{"at", core::format_timestamp(decision.time)},
                                             {"message", decision.message},
                                             {"action", decision.action},
                                             {"key", decision.key},
                                             {"decision", decision.decision},
                                             {"reason", decision.reason}});
        }
        out["injections"] = nlohmann::json::array();
        for (const auto &receipt : receipts.injections) {
            out["injections"].push_back(receipt_json(receipt));
        }
        out["dropped_receipts"] = receipts.dropped;
        print_json(out);
        return 0;
    }
    std::cout << "session " << excerpt(summary.session_id) << " (" << (summary.agent.empty() ? "?" : summary.agent)
              << "), last active " << core::format_timestamp(summary.last_activity) << '\n';
    if (!summary.directory.empty()) {
        std::cout << "  in " << excerpt(summary.directory) << '\n';
    }
    std::cout << "\nprompts captured (" << messages.size() << ")\n";
    for (std::size_t index = 0; index < messages.size(); ++index) {
        std::cout << "  #" << index << "  " << core::format_timestamp(messages[index].time) << "  \""
                  << excerpt(messages[index].text) << "\"\n";
    }
    std::cout << "\ndecisions (" << receipts.decisions.size() << ")\n";
    for (const auto &decision : receipts.decisions) {
        std::cout << "  #" << decision.message << "  " << decision.action;
        if (!decision.key.empty()) {
            std::cout << " " << decision.key << " (" << excerpt(decision.decision) << ")";
        }
        std::cout << ": " << excerpt(decision.reason, 240) << '\n';
    }
    std::cout << "\nreceipts (" << receipts.injections.size() << ")\n";
    if (receipts.dropped > 0) {
        std::cout << "  (" << receipts.dropped << " older receipts not kept)\n";
    }
    for (const auto &receipt : receipts.injections) {
        print_receipt(receipt);
    }
    return 0;
}

} // namespace

int run_log_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("log", words);
    arguments.expect_operands(0, 0, "");
    auto &store = application.store();
    const auto sessions = store.root() / "sessions";
    const bool json = arguments.flag("json");
    if (const auto session = arguments.value("session")) {
        if (arguments.value("limit")) {
            throw UsageError("--limit lists recent sessions; with --session one session is shown in full");
        }
        return print_session(store, sessions, *session, json);
    }
    const std::size_t limit = parse_count(arguments.value("limit").value_or("20"), "--limit");
    const auto recent = core::recent_sessions(sessions, limit);
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto &session : recent) {
            out.push_back(summary_json(session));
        }
        print_json(out);
        return 0;
    }
    if (recent.empty()) {
        std::cout << "no session recorded yet in " << sessions.string() << '\n';
        return 0;
    }
    for (const auto &session : recent) {
        std::cout << core::format_timestamp(session.last_activity) << "  " << excerpt(session.session_id) << "  "
                  << (session.agent.empty() ? "?" : session.agent) << "  "
                  << excerpt(session.project.empty() ? session.directory : session.project) << "\n    "
                  << session.prompts << " prompts captured, " << session.decisions << " decisions, "
                  << session.receipts << " receipts\n";
    }
    std::cout << "(starling log --session ID for one session in full)\n";
    return 0;
}

} // namespace starling::app
