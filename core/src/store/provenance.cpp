// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/provenance.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/redaction/redaction.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <iostream>
#include <mutex>
#include <utility>

namespace starling::core {

namespace {

constexpr std::array<std::pair<ProvenanceKind, std::string_view>, 17> kKindNames{{
    {ProvenanceKind::created, "created"},
    {ProvenanceKind::imported, "imported"},
    {ProvenanceKind::reinforced, "reinforced"},
    {ProvenanceKind::merged_from, "merged_from"},
    {ProvenanceKind::merged_into, "merged_into"},
    {ProvenanceKind::supersedes, "supersedes"},
    {ProvenanceKind::superseded_by, "superseded_by"},
    {ProvenanceKind::amended_by, "amended_by"},
    {ProvenanceKind::promoted, "promoted"},
    {ProvenanceKind::demoted, "demoted"},
    {ProvenanceKind::pinned, "pinned"},
    {ProvenanceKind::unpinned, "unpinned"},
    {ProvenanceKind::edited, "edited"},
    {ProvenanceKind::shared, "shared"},
    {ProvenanceKind::received, "received"},
    {ProvenanceKind::archived, "archived"},
    {ProvenanceKind::restored, "restored"},
}};

/// What is kept of what was said: enough to recognise the message when its session log is gone.
constexpr std::size_t kMaxTextBytes = 400;
/// A journal larger than this is not one Starling wrote (64 events of a few hundred bytes).
constexpr std::uint64_t kMaxJournalBytes = std::uint64_t{4} << 20;

bool is_origin(ProvenanceKind kind) noexcept {
    return kind == ProvenanceKind::created || kind == ProvenanceKind::imported;
}

/// Cut at a character boundary, never inside a UTF-8 sequence.
std::string cut_to(std::string text, std::size_t most) {
    if (text.size() <= most) {
        return text;
    }
    std::size_t end = most;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
        --end;
    }
    text.resize(end);
    return text + "…";
}

std::string dump(const nlohmann::json &json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json to_json(const ProvenanceEvent &event) {
    nlohmann::json line{{"at", format_timestamp(event.time)}, {"event", to_string(event.kind)}};
    for (const auto &[name, value] : named_texts(event)) {
        if (!value->empty()) {
            line[std::string{name}] = *value;
        }
    }
    return line;
}

std::string string_member(const nlohmann::json &line, const char *name) {
    const auto found = line.find(name);
    return found != line.end() && found->is_string() ? found->get<std::string>() : std::string{};
}

/// One line of a journal: an event, a count of dropped events, or nothing (a torn or foreign line).
struct JournalLine {
    std::optional<ProvenanceEvent> event;
    std::size_t dropped = 0;
};

JournalLine parse_line(std::string_view text) {
    const auto line = nlohmann::json::parse(text, nullptr, false);
    if (line.is_discarded() || !line.is_object()) {
        return {};
    }
    if (const auto dropped = line.find("dropped"); dropped != line.end()) {
        return {std::nullopt, dropped->is_number_unsigned() ? dropped->get<std::size_t>() : 0};
    }
    const auto kind = provenance_kind_from_string(string_member(line, "event"));
    const auto time = parse_timestamp(string_member(line, "at"));
    if (!kind || !time) {
        return {};
    }
    ProvenanceEvent event;
    event.time = *time;
    event.kind = *kind;
    event.agent = string_member(line, "agent");
    event.session = string_member(line, "session");
    event.message = string_member(line, "message");
    event.text = string_member(line, "text");
    event.decision = string_member(line, "decision");
    event.reason = string_member(line, "reason");
    event.other = string_member(line, "other");
    return {std::move(event), 0};
}

MemoryHistory parse_journal(std::string_view memory_id, std::string_view content) {
    MemoryHistory history;
    history.memory_id = std::string{memory_id};
    std::size_t position = 0;
    while (position < content.size()) {
        auto end = content.find('\n', position);
        if (end == std::string_view::npos) {
            end = content.size(); // a torn last line: parse_line skips it unless it happens to be whole
        }
        JournalLine line = parse_line(content.substr(position, end - position));
        position = end + 1;
        history.dropped += line.dropped;
        if (!line.event) {
            continue;
        }
        if (is_origin(line.event->kind)) {
            if (!history.origin) {
                history.origin = std::move(line.event);
            }
            continue;
        }
        history.events.push_back(std::move(*line.event));
    }
    // Appends under one lock are in time order already; a clock set back keeps the order written.
    std::stable_sort(history.events.begin(), history.events.end(),
                     [](const ProvenanceEvent &a, const ProvenanceEvent &b) { return a.time < b.time; });
    return history;
}

std::string serialise(const MemoryHistory &history) {
    std::string text;
    if (history.origin) {
        text += dump(to_json(*history.origin)) + "\n";
    }
    if (history.dropped > 0) {
        text += dump(nlohmann::json{{"dropped", history.dropped}}) + "\n";
    }
    for (const auto &event : history.events) {
        text += dump(to_json(event)) + "\n";
    }
    return text;
}

std::mutex reporter_mutex;
ProvenanceProblemReporter reporter; // guarded by reporter_mutex

void report(std::string_view problem) noexcept {
    try {
        const std::lock_guard guard{reporter_mutex};
        if (reporter) {
            reporter(problem);
            return;
        }
        std::cerr << "starling: " << problem << '\n';
    } catch (...) {
        // Reporting a problem of bookkeeping must not become one.
    }
}

} // namespace

std::array<std::pair<std::string_view, const std::string *>, 7> named_texts(const ProvenanceEvent &event) {
    return {{{"agent", &event.agent},
             {"session", &event.session},
             {"message", &event.message},
             {"text", &event.text},
             {"decision", &event.decision},
             {"reason", &event.reason},
             {"other", &event.other}}};
}

std::string_view to_string(ProvenanceKind kind) noexcept {
    for (const auto &[value, name] : kKindNames) {
        if (value == kind) {
            return name;
        }
    }
    return "unknown";
}

std::optional<ProvenanceKind> provenance_kind_from_string(std::string_view text) noexcept {
    for (const auto &[value, name] : kKindNames) {
        if (name == text) {
            return value;
        }
    }
    return std::nullopt;
}

ProvenanceJournal::ProvenanceJournal(std::filesystem::path store_root, const Redactor &redactor,
                                     ProvenanceLimits limits)
    : directory_(store_root / "index" / "provenance"), lock_path_(store_root / "index" / "provenance.lock"),
      redactor_(&redactor), limits_(limits) {
    limits_.max_events = std::max<std::size_t>(limits_.max_events, 1);
}

std::filesystem::path ProvenanceJournal::journal_path(std::string_view memory_id) const {
    const bool valid = !memory_id.empty() && memory_id.size() <= 32 &&
                       std::all_of(memory_id.begin(), memory_id.end(),
                                   [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'); });
    if (!valid) {
        throw StoreError("'" + std::string{memory_id} + "' is not a memory id (0-9 and a-z, at most 32 characters)");
    }
    return directory_ / (std::string{memory_id} + ".jsonl");
}

void ProvenanceJournal::append(std::string_view memory_id, ProvenanceEvent event) const {
    const auto path = journal_path(memory_id);
    for (std::string *text : {&event.agent, &event.session, &event.message, &event.decision, &event.reason,
                              &event.other}) {
        *text = redactor_->redact(*text).text;
    }
    event.text = cut_to(redactor_->redact(event.text).text, kMaxTextBytes);

    ensure_directories_beneath(directory_.parent_path().parent_path(), directory_);
    const FileLock lock{lock_path_};
    const auto content = read_file_if_exists(path, kMaxJournalBytes);
    MemoryHistory history = parse_journal(memory_id, content.value_or(std::string{}));
    if (is_origin(event.kind)) {
        if (history.origin) {
            return; // a memory has one origin; a second import or a judge run twice adds none
        }
        // The origin goes first, so that bounding the events never drops it.
        history.origin = std::move(event);
        write_file_atomically(path, serialise(history), Durability::survives_crash);
        return;
    }
    if (history.events.size() < limits_.max_events) {
        append_line_to_file(path, dump(to_json(event)) + "\n", /*durable=*/false);
        return;
    }
    const std::size_t drop = history.events.size() + 1 - limits_.max_events;
    history.events.erase(history.events.begin(), history.events.begin() + static_cast<std::ptrdiff_t>(drop));
    history.dropped += drop;
    history.events.push_back(std::move(event));
    write_file_atomically(path, serialise(history), Durability::survives_crash);
}

MemoryHistory ProvenanceJournal::history(std::string_view memory_id) const {
    const auto content = read_file_if_exists(journal_path(memory_id), kMaxJournalBytes);
    return parse_journal(memory_id, content.value_or(std::string{}));
}

void set_provenance_problem_reporter(ProvenanceProblemReporter new_reporter) {
    const std::lock_guard guard{reporter_mutex};
    reporter = std::move(new_reporter);
}

void record_provenance(const std::filesystem::path &store_root, const Redactor &redactor, std::string_view memory_id,
                       ProvenanceEvent event) noexcept {
    try {
        const std::string kind{to_string(event.kind)};
        try {
            ProvenanceJournal{store_root, redactor}.append(memory_id, std::move(event));
        } catch (const std::exception &error) {
            report("could not record that memory " + std::string{memory_id} + " was " + kind + ": " + error.what());
        }
    } catch (...) {
        report("could not record a memory's provenance: out of memory");
    }
}

MemoryHistory memory_history(const std::filesystem::path &store_root, const Redactor &redactor,
                             std::string_view memory_id) {
    return ProvenanceJournal{store_root, redactor}.history(memory_id);
}

std::optional<MessageReference> parse_message_reference(std::string_view reference) noexcept {
    const auto hash = reference.rfind('#');
    if (hash == std::string_view::npos || hash == 0) {
        return std::nullopt;
    }
    std::string_view number = reference.substr(hash + 1);
    number = number.substr(0, number.find('/')); // a claim of the message: `#3/2`
    MessageReference parsed;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), parsed.index);
    if (error != std::errc{} || end != number.data() + number.size() || number.empty()) {
        return std::nullopt;
    }
    parsed.session_stem = std::string{reference.substr(0, hash)};
    return parsed;
}

} // namespace starling::core
