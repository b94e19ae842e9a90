// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starling::core {

class Redactor;

/// What happened to a memory. `created` and `imported` are origins: the first line of a memory's
/// journal, never dropped when older events are.
enum class ProvenanceKind {
    created,       ///< decided from a message (agent, session, message, decision, reason)
    imported,      ///< brought in by `starling import` (agent: the import source)
    reinforced,    ///< restated by a later message (agent, session, message)
    merged_from,   ///< absorbed the memory `other`
    merged_into,   ///< was absorbed by the memory `other`, and archived
    supersedes,    ///< corrects the memory `other`
    superseded_by, ///< corrected by the memory `other`
    amended_by,    ///< changed in part by the memory `other`, kept beside it
    promoted,      ///< moved to the long-term tier
    demoted,       ///< moved to the short-term tier
    pinned,
    unpinned,
    edited,   ///< its text or fields changed by hand (`reason`: what changed)
    shared,   ///< written to a team folder (`reason`: where)
    received, ///< taken in from a team folder or another machine
    archived, ///< moved to the archive (`reason`: why, `other`: the archive id)
    restored, ///< put back from the archive, or a supersession lifted
};

[[nodiscard]] std::string_view to_string(ProvenanceKind kind) noexcept;
[[nodiscard]] std::optional<ProvenanceKind> provenance_kind_from_string(std::string_view text) noexcept;

/// One line of a memory's history. Empty strings are left out of the journal.
struct ProvenanceEvent {
    std::chrono::sys_seconds time{};
    ProvenanceKind kind = ProvenanceKind::created;
    std::string agent;    ///< who: an adapter's agent id, `cli`, `decay`, `sync`, `team folder`, `import <format>`
    std::string session;  ///< the agent's session id, when a session did it
    std::string message;  ///< the message it was decided from: `<session log stem>#<index>` (sessions/<stem>.jsonl)
    std::string text;     ///< what was said, redacted and cut to 400 bytes: kept when the session log is gone
    std::string decision; ///< the decision policy's verdict: `<type>, <scope>` of what it stored
    std::string reason;   ///< why: the decision's reason, the archive's reason, what an edit changed
    std::string other;    ///< the other memory's id (merges, supersessions) or the archive id
    friend bool operator==(const ProvenanceEvent &, const ProvenanceEvent &) = default;
};

/// An event's texts by the names its journal line and `starling why --json` give them, in that order.
[[nodiscard]] std::array<std::pair<std::string_view, const std::string *>, 7> named_texts(const ProvenanceEvent &event);

/// One memory's history, as `starling why` and the UI show it.
struct MemoryHistory {
    std::string memory_id;
    /// Where it came from; nullopt when its journal records no origin (a memory from before
    /// provenance was kept, or one written by hand).
    std::optional<ProvenanceEvent> origin;
    /// What happened since, oldest first: at most ProvenanceLimits::max_events.
    std::vector<ProvenanceEvent> events;
    /// How many older events were dropped to keep the journal bounded.
    std::size_t dropped = 0;
};

struct ProvenanceLimits {
    /// Events kept per memory beside its origin; older ones are counted, not kept.
    std::size_t max_events = 64;
};

/// Each memory's history: `index/provenance/<id>.jsonl`, one JSON object a line, the origin first,
/// appended under `index/provenance.lock` with one write a line (a writer killed mid-line leaves a
/// line that readers skip and the next append starts after). Keyed by the memory's id, which never
/// changes, so it survives promotion, archive and restore; every text goes through the redactor
/// before it is written. When a memory has more than `max_events` events besides its origin, the
/// journal is rewritten atomically with the newest ones and a `{"dropped":N}` line counting the rest.
/// Reading takes no lock and writes nothing, so a read-only store's histories can still be read,
/// and costs one read of that memory's journal.
class ProvenanceJournal {
public:
    ProvenanceJournal(std::filesystem::path store_root, const Redactor &redactor, ProvenanceLimits limits = {});

    /// `<store_root>/index/provenance/<memory_id>.jsonl`. Throws StoreError for an id that is not
    /// one (only [0-9a-z], at most 32 characters).
    [[nodiscard]] std::filesystem::path journal_path(std::string_view memory_id) const;

    /// Appends one event to the memory's journal, its texts redacted. An origin (created, imported)
    /// is written only when the journal has none yet. Throws StoreError when it cannot be written.
    void append(std::string_view memory_id, ProvenanceEvent event) const;

    /// The memory's history; empty (no origin, no events) when nothing was recorded for it.
    /// Lines that do not parse are skipped. Throws StoreError when the journal cannot be read.
    [[nodiscard]] MemoryHistory history(std::string_view memory_id) const;

private:
    std::filesystem::path directory_;
    std::filesystem::path lock_path_;
    const Redactor *redactor_;
    ProvenanceLimits limits_;
};

/// Where a failure to record provenance is reported (a hook's logger; stderr when none is set):
/// provenance is never worth failing what it describes.
using ProvenanceProblemReporter = std::function<void(std::string_view problem)>;
void set_provenance_problem_reporter(ProvenanceProblemReporter reporter);

/// ProvenanceJournal::append for the store at `store_root`, failing open: a journal that cannot be
/// written is reported to the provenance problem reporter, and nothing is thrown.
void record_provenance(const std::filesystem::path &store_root, const Redactor &redactor, std::string_view memory_id,
                       ProvenanceEvent event) noexcept;

/// The memory's history, as ProvenanceJournal::history reads it.
[[nodiscard]] MemoryHistory memory_history(const std::filesystem::path &store_root, const Redactor &redactor,
                                           std::string_view memory_id);

/// What a message reference (`<stem>#<index>`, or `<stem>#<index>/<claim>` for a claim of it)
/// points at: the session log's stem and the message's index in it.
struct MessageReference {
    std::string session_stem;
    std::size_t index = 0;
};
[[nodiscard]] std::optional<MessageReference> parse_message_reference(std::string_view reference) noexcept;

} // namespace starling::core
