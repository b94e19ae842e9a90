// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/memory_provenance.hpp>

#include <starling/core/io/store_error.hpp>
#include <starling/core/store/record/frontmatter.hpp>

namespace starling::core {

namespace {

/// The items of a list field, or none when it is missing or a hand edit broke it.
std::vector<std::string> list_field(const Memory &memory, std::string_view key) {
    const FrontmatterEntry *entry = memory.extra_field(key);
    if (entry == nullptr) {
        return {};
    }
    try {
        return decode_list(*entry, {});
    } catch (const StoreError &) {
        return {};
    }
}

/// The origin a memory's own fields tell, for one whose journal records none: imported, captured
/// from a message, or written (by hand, or before provenance was kept).
ProvenanceEvent origin_from_fields(const Memory &memory) {
    ProvenanceEvent origin;
    origin.time = memory.created;
    if (const FrontmatterEntry *imported = memory.extra_field("imported_from")) {
        std::string source;
        try {
            source = decode_scalar(*imported, {});
        } catch (const StoreError &) {
            source = imported->value; // as written, when a hand edit broke its quoting
        }
        origin.kind = ProvenanceKind::imported;
        origin.agent = "import " + source.substr(0, source.find(':'));
        origin.reason = "imported from " + source;
        return origin;
    }
    origin.kind = ProvenanceKind::created;
    if (const auto captured = list_field(memory, "captured"); !captured.empty()) {
        origin.message = captured.front();
    }
    if (!memory.sessions.empty() && memory.earlier_sessions == 0) {
        origin.session = memory.sessions.front();
    }
    origin.reason = "read from the memory's fields: no history was recorded when it was written";
    return origin;
}

std::optional<LoggedMessage> logged_message(const MemoryStore &store, const std::string &reference) {
    const auto parsed = parse_message_reference(reference);
    if (!parsed || parsed->session_stem.find('/') != std::string::npos || parsed->session_stem.starts_with('.')) {
        return std::nullopt;
    }
    try {
        auto messages = read_logged_messages(store.root() / "sessions" / (parsed->session_stem + ".jsonl"));
        if (parsed->index < messages.size()) {
            return std::move(messages[parsed->index]);
        }
    } catch (const StoreError &) {
        // a log that cannot be read is a log that is gone, for the history: the origin says the rest
    }
    return std::nullopt;
}

MemoryProvenance provenance_with_message(const MemoryStore &store, MemoryHistory history) {
    MemoryProvenance provenance;
    provenance.history = std::move(history);
    if (provenance.history.origin && !provenance.history.origin->message.empty()) {
        provenance.origin_message = logged_message(store, provenance.history.origin->message);
    }
    return provenance;
}

} // namespace

MemoryProvenance provenance_of(const MemoryStore &store, const Memory &memory) {
    MemoryHistory history = memory_history(store.root(), store.redactor(), memory_id_of(memory));
    const bool from_fields = !history.origin;
    if (from_fields) {
        history.origin = origin_from_fields(memory);
    }
    MemoryProvenance provenance = provenance_with_message(store, std::move(history));
    provenance.origin_from_fields = from_fields;
    return provenance;
}

std::string event_words(const ProvenanceEvent &event) {
    using enum ProvenanceKind;
    switch (event.kind) {
    case merged_from: return "merged in " + event.other;
    case merged_into: return "merged into " + event.other;
    case supersedes: return "supersedes " + event.other + ", which it corrects";
    case superseded_by: return "superseded by " + event.other + ", which corrects it";
    case amended_by: return "changed in part by " + event.other + ", kept beside it";
    case archived: return "archived" + (event.other.empty() ? std::string{} : " as " + event.other);
    case restored: return "restored" + (event.other.empty() ? std::string{} : " from " + event.other);
    default: return std::string{to_string(event.kind)};
    }
}

MemoryProvenance provenance_of(const MemoryStore &store, std::string_view memory_id) {
    return provenance_with_message(store, memory_history(store.root(), store.redactor(), memory_id));
}

} // namespace starling::core
