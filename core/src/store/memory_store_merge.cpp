// SPDX-License-Identifier: Apache-2.0
#include "store/store_internals.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <limits>

namespace starling::core {
namespace {

/// The frontmatter list of the ids of the memories folded into a memory: what tells a merge being
/// finished after a crash whether its text is in already.
constexpr std::string_view merged_from_field = "merged_from";

std::vector<std::string> merged_from(const Memory &memory) {
    const FrontmatterEntry *entry = memory.extra_field(merged_from_field);
    if (entry == nullptr) {
        return {};
    }
    try {
        return decode_list(*entry, {});
    } catch (const StoreError &) {
        return {}; // a hand edit made it unreadable: the merge is done again rather than lost
    }
}

/// Folds `absorbed` into `kept`: collie's merge dropped the absorbed text's counts and could lose
/// text on a second merge in the same pass; here every text and every use is kept.
void fold_into(Memory &kept, const Memory &absorbed, const std::string &absorbed_key, const std::string &absorbed_id) {
    if (!kept.body.empty() && kept.body.back() != '\n') {
        kept.body += '\n';
    }
    kept.body += "\n<!-- merged from " + absorbed_key + " -->\n";
    kept.body += absorbed.summary + "\n";
    if (!absorbed.body.empty()) {
        kept.body += '\n' + absorbed.body;
        if (kept.body.back() != '\n') {
            kept.body += '\n';
        }
    }
    kept.access_count += absorbed.access_count;
    kept.created = std::min(kept.created, absorbed.created);
    kept.last_accessed = std::max(kept.last_accessed, absorbed.last_accessed);
    add_missing_items(kept.tags, absorbed.tags);
    // Sessions only counted on both sides may be the same ones; summing them can overcount, never
    // lose a session.
    const std::uint32_t room = std::numeric_limits<std::uint32_t>::max() - kept.earlier_sessions;
    kept.earlier_sessions += std::min(room, absorbed.earlier_sessions);
    add_sessions(kept, absorbed.sessions);
    std::vector<std::string> ids = merged_from(kept);
    add_missing_items(ids, {absorbed_id});
    kept.set_extra_list(merged_from_field, ids);
}

} // namespace

ArchiveEntry MemoryStore::merge(std::string_view absorbed_key, std::string_view kept_key, std::string_view reason) {
    static_cast<void>(internals_->location_of(absorbed_key));
    static_cast<void>(internals_->location_of(kept_key));
    if (absorbed_key == kept_key) {
        throw StoreError(internals_->absolute(kept_key).string() + ": cannot be merged into itself");
    }
    const FileLock guard = internals_->lock();
    const Memory absorbed = read(absorbed_key);
    if (!stamp_file(internals_->absolute(kept_key))) {
        throw StoreError(internals_->absolute(kept_key).string() + ": no such memory");
    }
    detail::MergeIntent intent{{}, std::string{kept_key}, std::string{absorbed_key}, memory_id_of(absorbed),
                               std::string{reason}};
    internals_->merges.write(intent);
    const Memory kept = internals_->update_locked(kept_key, [&](Memory &kept_memory) {
        fold_into(kept_memory, absorbed, intent.absorbed, intent.absorbed_id);
    });
    ArchiveEntry entry = internals_->archive_locked(absorbed_key, reason);
    internals_->merges.remove(intent);
    const std::string kept_id = memory_id_of(kept);
    ProvenanceEvent absorbed_event;
    absorbed_event.kind = ProvenanceKind::merged_into;
    absorbed_event.other = kept_id;
    absorbed_event.reason = std::string{reason};
    internals_->note_provenance(intent.absorbed_id, std::move(absorbed_event));
    ProvenanceEvent kept_event;
    kept_event.kind = ProvenanceKind::merged_from;
    kept_event.other = intent.absorbed_id;
    kept_event.reason = std::string{reason};
    internals_->note_provenance(kept_id, std::move(kept_event));
    return entry;
}

std::vector<std::string> MemoryStore::Internals::finish_merges_locked() {
    std::vector<std::string> finished;
    for (const detail::MergeIntent &intent : merges.read_all()) {
        const std::filesystem::path absorbed_path = absolute(intent.absorbed);
        const bool absorbed_left = parse_memory_key(intent.absorbed) && stamp_file(absorbed_path);
        const bool kept_left = parse_memory_key(intent.kept) && stamp_file(absolute(intent.kept));
        if (!absorbed_left) {
            // Folded, then archived: only the intent was left.
            finished.push_back("merge of " + intent.absorbed + " into " + intent.kept + ": already done");
        } else if (!kept_left) {
            finished.push_back("merge of " + intent.absorbed + " into " + intent.kept +
                               ": dropped, the memory to merge into is gone; " + intent.absorbed + " stays");
        } else {
            const Memory absorbed = parse_memory(read_file(absorbed_path), absorbed_path.string());
            static_cast<void>(update_locked(intent.kept, [&](Memory &kept) {
                const auto ids = merged_from(kept);
                if (std::find(ids.begin(), ids.end(), intent.absorbed_id) == ids.end()) {
                    fold_into(kept, absorbed, intent.absorbed, intent.absorbed_id);
                }
            }));
            if (!finish_archive_locked(intent.absorbed)) {
                static_cast<void>(archive_locked(intent.absorbed, intent.reason));
            }
            finished.push_back("merge of " + intent.absorbed + " into " + intent.kept + ": finished");
        }
        merges.remove(intent);
    }
    return finished;
}

} // namespace starling::core
