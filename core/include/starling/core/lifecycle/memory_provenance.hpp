// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/session_log.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/provenance.hpp>

#include <optional>
#include <string>

namespace starling::core {

/// Everything known of where a memory came from and what happened to it since: what `starling why`
/// prints, `show --json` carries and the UI's memory page renders.
struct MemoryProvenance {
    /// Its journal (provenance.hpp). When that records no origin, one is read from the memory's own
    /// fields — `imported_from`, the first `captured` message and session, `created` — and
    /// `origin_from_fields` says so.
    MemoryHistory history;
    bool origin_from_fields = false;
    /// The message the origin points at, as its session log (sessions/<stem>.jsonl, redacted when it
    /// was written) still holds it; nullopt once that log is gone, or for an origin that is no message.
    std::optional<LoggedMessage> origin_message;
};

/// The provenance of `memory`, read from the store at `store`'s root: its journal, then the session
/// log its origin points at. Reads only, without a lock: a read-only store answers too. Costs one
/// read of the memory's journal and, for a captured memory, of one session log.
[[nodiscard]] MemoryProvenance provenance_of(const MemoryStore &store, const Memory &memory);

/// The same for a memory known only by its id (an archived or merged-away one): no origin from
/// fields.
[[nodiscard]] MemoryProvenance provenance_of(const MemoryStore &store, std::string_view memory_id);

/// What an event did, in words, with the memory or archive it names: "merged into k3f9a2q",
/// "superseded by m2x8p1r, which corrects it", "promoted". The CLI and the UI say it alike.
[[nodiscard]] std::string event_words(const ProvenanceEvent &event);

} // namespace starling::core
