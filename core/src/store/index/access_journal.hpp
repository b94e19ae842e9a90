// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/index/access_kind.hpp>

#include <chrono>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core::detail {

/// One use of a memory, noted on the hot path and applied to the memory file later.
struct NotedAccess {
    std::string key;
    std::string session_id;
    std::chrono::sys_seconds at{};
    AccessKind kind = AccessKind::use;
};

/// A batch of noted uses being applied, and its id: the same batch taken again after its applier
/// died has the same id, so a memory file that records the id has had its share already.
struct NotedAccessBatch {
    std::string id;
    std::vector<NotedAccess> accesses;
};

/// Uses of memories waiting to be written into their files.
///
/// Reinforcing a memory on every read or injection would cost the hook a locked read-modify-write
/// with three fsyncs per memory (milliseconds on a real disk), while the counts only matter when
/// the decay policy next looks at them. So the hot path appends one line here, without the store
/// lock and without fsync, and MemoryStore::apply_noted_accesses folds the lines into the files
/// under the lock before anything reads the counts for a decision. A power cut can lose the last
/// few uses; that only weakens reinforcement, it never touches what a memory says.
///
/// Appenders hold a shared flock on the journal while writing and the applier renames the journal
/// aside before taking an exclusive flock on it, so a line is either in the batch being applied or
/// in the next journal, never in neither.
class AccessJournal {
public:
    explicit AccessJournal(std::filesystem::path journal_path);

    /// Appends uses, in one write: a hook that injected five memories opens and locks the journal
    /// once, not five times. The directory must exist. Throws StoreError naming the journal.
    void note(std::span<const NotedAccess> accesses) const;

    /// Takes every noted use out of the journal, oldest first, including a batch a crashed applier
    /// left behind. The caller holds the store lock, applies the uses, then calls finish_taking().
    /// Lines that do not parse (a writer killed mid-line) are skipped. The batch gets a random id,
    /// appended to the batch file as a line of its own (`#batch<TAB><id>`) once no writer can append
    /// to it any more, and read back from there when a batch left behind is taken again.
    [[nodiscard]] NotedAccessBatch take();

    /// Deletes the batch returned by take(), once it has been applied.
    void finish_taking() const;

    /// Whether a journal or an unfinished batch exists: one stat each, no lock.
    [[nodiscard]] bool has_pending() const;

private:
    std::filesystem::path journal_path_;
    std::filesystem::path applying_path_;
};

} // namespace starling::core::detail
