// SPDX-License-Identifier: Apache-2.0
#include "store/store_internals.hpp"
#include "store/record/text_checks.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace starling::core {
namespace {

using detail::has_control;

/// The frontmatter field naming the last batch of noted uses applied to a memory: an applier that
/// died after writing some memories of its batch leaves the batch to be taken again, and the
/// memories that carry its id are not counted twice.
constexpr std::string_view applied_batch_field = "applied_batch";

bool carries_batch(const Memory &memory, const std::string &batch_id) {
    const FrontmatterEntry *entry = memory.extra_field(applied_batch_field);
    if (entry == nullptr) {
        return false;
    }
    try {
        return decode_scalar(*entry, {}) == batch_id;
    } catch (const StoreError &) {
        return false; // a hand edit made it unreadable: no batch of ours
    }
}

/// The uses and injections of one memory, gathered from the access journal.
struct Uses {
    std::uint32_t count = 0;
    std::chrono::sys_seconds latest{};
    std::vector<std::string> sessions;
    std::uint32_t injections = 0;
    std::chrono::sys_seconds latest_injection{};
};

/// Records the uses of a batch in the memory's history as one reinforcement, dated by the latest, with
/// the sessions that made them: a batch applied again after its applier died is skipped before this.
void note_reads(const std::filesystem::path &root, const Redactor &redactor, const Memory &memory,
                const Uses &uses) noexcept {
    try {
        ProvenanceEvent event;
        event.time = uses.latest;
        event.kind = ProvenanceKind::reinforced;
        std::vector<std::string> sessions;
        for (const auto &session : uses.sessions) {
            if (!session.empty() && std::find(sessions.begin(), sessions.end(), session) == sessions.end()) {
                sessions.push_back(session);
                event.session += (event.session.empty() ? "" : ", ") + session;
            }
        }
        event.reason = std::to_string(uses.count) + (uses.count == 1 ? " use" : " uses") +
                       " (reads of its file, or requests for it)";
        record_provenance(root, redactor, memory_id_of(memory), std::move(event));
    } catch (...) {
        // bookkeeping that could not even be put together: the uses themselves are applied
    }
}

std::uint32_t saturating_sum(std::uint32_t left, std::uint32_t right) {
    return left + std::min(std::numeric_limits<std::uint32_t>::max() - left, right);
}

void add_uses(Memory &memory, const Uses &uses) {
    if (uses.count > 0) {
        add_reads(memory, uses.count, uses.latest, uses.sessions);
    }
    if (uses.injections > 0) {
        const auto last = last_injected(memory);
        record_injections(memory, saturating_sum(injection_count(memory), uses.injections),
                          last ? std::max(*last, uses.latest_injection) : uses.latest_injection);
    }
}

} // namespace

void MemoryStore::bump_access(std::string_view key, std::string_view session_id) {
    if (has_control(session_id)) {
        throw StoreError(path_of(key).string() + ": session id contains control characters");
    }
    const Uses use{1, internals_->clock->now(), {std::string{session_id}}};
    static_cast<void>(update(key, [&](Memory &memory) { add_uses(memory, use); }));
}

void MemoryStore::note_access(std::string_view key, std::string_view session_id) {
    const std::string keys[] = {std::string{key}};
    note_accesses(keys, session_id);
}

void MemoryStore::note_accesses(std::span<const std::string> keys, std::string_view session_id, AccessKind kind) {
    if (keys.empty()) {
        return;
    }
    if (has_control(session_id)) {
        throw StoreError(path_of(keys.front()).string() + ": session id contains control characters");
    }
    const auto now = internals_->clock->now();
    std::vector<detail::NotedAccess> accesses;
    accesses.reserve(keys.size());
    for (const std::string &key : keys) {
        static_cast<void>(internals_->location_of(key));
        accesses.push_back({key, std::string{session_id}, now, kind});
    }
    ensure_directories_beneath(internals_->root, internals_->root / "index");
    internals_->accesses.note(accesses);
}

std::size_t MemoryStore::apply_noted_accesses() {
    if (!internals_->accesses.has_pending()) {
        return 0;
    }
    std::optional<FileLock> guard;
    try {
        guard.emplace(internals_->lock());
    } catch (const StoreNotWritable &) {
        return 0; // a store this process may only read (an agent's sandbox): the uses wait for the next writer
    }
    std::size_t applied = 0;
    // Two rounds: a batch left behind by an applier that died, then the journal itself.
    for (int round = 0; round < 2 && internals_->accesses.has_pending(); ++round) {
        std::map<std::string, Uses> uses_by_key;
        detail::NotedAccessBatch batch = internals_->accesses.take();
        for (auto &access : batch.accesses) {
            if (!parse_memory_key(access.key) || has_control(access.session_id)) {
                continue;
            }
            Uses &uses = uses_by_key[access.key];
            if (access.kind == AccessKind::injection) {
                ++uses.injections;
                uses.latest_injection = std::max(uses.latest_injection, access.at);
                continue;
            }
            ++uses.count;
            uses.latest = std::max(uses.latest, access.at);
            uses.sessions.push_back(std::move(access.session_id));
        }
        for (const auto &[key, uses] : uses_by_key) {
            // A memory archived or moved since its use was noted keeps no record of it: the use
            // belonged to a file that no longer exists under that key.
            if (!stamp_file(internals_->absolute(key))) {
                continue;
            }
            // Captured by name: Clang 14, which builds `make fuzz`, cannot capture a structured binding.
            bool newly_applied = false;
            const Memory used = internals_->update_locked(key, [&, &uses = uses](Memory &memory) {
                if (carries_batch(memory, batch.id)) {
                    return;
                }
                add_uses(memory, uses);
                memory.set_extra_field(applied_batch_field, batch.id);
                applied += uses.count + uses.injections;
                newly_applied = true;
            });
            if (newly_applied && uses.count > 0) {
                note_reads(internals_->root, redactor(), used, uses);
            }
        }
        internals_->accesses.finish_taking();
    }
    return applied;
}

} // namespace starling::core
