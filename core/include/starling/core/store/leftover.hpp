// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace starling::core {

/// Something a process that died left unfinished in a store, as MemoryStore::leftovers finds it and
/// MemoryStore::repair_leftovers repairs it.
struct Leftover {
    enum class Kind {
        /// A temporary file of an atomic write (or a batch's staging folder) whose process is gone.
        /// Repair: remove it.
        temporary_file,
        /// `index/accesses.tsv.applying`: noted uses an applier took and did not finish. Repair: apply
        /// the batch; memories that carry its id already are not counted again.
        access_batch,
        /// `index/intents/<id>.json`: a merge under way. Repair: finish it (fold the absorbed memory
        /// in unless done, archive it unless done).
        merge_intent,
        /// A manifest entry whose original is still in place, byte for byte: the archive died before
        /// removing it. Repair: remove the original, which the archive holds.
        unfinished_archive,
        /// The same, but the file is newer than the copy: a restore died before recording itself.
        /// Repair: record the restore.
        unrecorded_restore,
        /// A copy under `archive/` that the manifest does not record: the archive died before
        /// recording it. Repair: remove it when the same bytes are in the store or in a recorded copy
        /// of the same memory; otherwise record it in the manifest, so that it can be restored.
        unrecorded_archive_copy,
        /// An append-only file (the archive manifest, the index journal, the noted uses, a session's
        /// log or state) whose last line has no end: an append cut short by a dead writer or a full
        /// disk. Readers skip it, and the next append starts after it. Repair: cut it off where the
        /// store's lock guards the file (manifest, journal), else end it, so that it stays a line of
        /// its own, which readers skip.
        torn_tail,
        /// A folder under `archive/` with no file in it. Repair: remove it.
        empty_archive_folder,
    };
    Kind kind = Kind::temporary_file;
    std::string path;   ///< relative to the store root
    std::string detail; ///< what was found, or after a repair what was done

    friend bool operator==(const Leftover &, const Leftover &) = default;
};

[[nodiscard]] std::string_view to_string(Leftover::Kind kind) noexcept;

} // namespace starling::core
