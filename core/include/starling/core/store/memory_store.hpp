// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/index/access_kind.hpp>
#include <starling/core/store/archive_entry.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/index/indexed_memory.hpp>
#include <starling/core/store/leftover.hpp>
#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/record/scope.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

class Redactor;

/// Tuning knobs of a MemoryStore. The defaults suit stores of any size.
struct StoreOptions {
    /// The machine index's journal is folded into a new snapshot once it is larger than this and larger
    /// than a thirty-second of the snapshot: a write costs one appended line, and every hook, which
    /// decodes the whole journal, pays little for it (docs/benchmarks.md, "Hook latency by profile").
    std::uint64_t index_journal_compaction_bytes = 64 * 1024;
    /// What every memory passes through before it is written (redact_memory): whatever route a
    /// text took into the store, no secret reaches a memory file, the index or the plugin caches
    /// derived from them. Null means the built-in formats (builtin_redactor()).
    std::shared_ptr<const Redactor> redactor;
};

/// What MemoryStore::rebuild_index found.
struct IndexRebuildReport {
    std::size_t memories = 0;
    /// Files in memory directories that do not parse; they are left as they are.
    std::vector<UnreadableMemory> unreadable;
    /// Temporary files of writers that died before renaming them, now deleted.
    std::size_t removed_temp_files = 0;
};

/// A memory for MemoryStore::create_all: where it goes and what it is.
struct NewMemory {
    Scope scope;
    Tier tier;
    Memory memory;
};

/// What MemoryStore::create_all did with one memory.
struct CreatedMemory {
    /// Its key; empty when it was refused.
    std::string key;
    /// The version of its file as written.
    FileStamp stamp;
    /// Why validate_memory refused it (nothing was written for it); empty when it was written.
    std::string refusal;
};

/// The memories of one Starling installation, as Markdown files under a root directory:
///
///     memory/user/{short,long}/YYYY-MM-DD_<keyword>.md     memory/user/INDEX.md
///     memory/projects/<project-id>/{short,long}/...         memory/projects/<project-id>/INDEX.md
///     memory/projects/<project-id>/PROJECT_PATH             the project's normalised path
///     sessions/   archive/   index/   .lock
///     index/cache/<plugin id>/                              what plugins derive from memories
///
/// Directories are created when first needed. A memory's key is its path relative to the root with
/// `/` separators. Every file is written atomically (write_file_atomically), and every
/// read-modify-write holds an exclusive lock on `<root>/.lock`, so any number of processes may share
/// one store; a process that dies mid-write leaves the previous version intact.
///
/// One MemoryStore object must not be used by several threads at once; give each thread its own
/// (they coordinate through the lock like processes do). The lock is not re-entrant: the callback
/// of update() must not call back into a store on the same root.
class MemoryStore {
public:
    /// A store rooted at `root` (made absolute; nothing is created yet), reading time from `clock`,
    /// which must outlive the store.
    MemoryStore(std::filesystem::path root, const Clock &clock, StoreOptions options = {});
    MemoryStore(const MemoryStore &) = delete;
    MemoryStore &operator=(const MemoryStore &) = delete;
    MemoryStore(MemoryStore &&) noexcept;
    MemoryStore &operator=(MemoryStore &&) noexcept;
    ~MemoryStore();

    [[nodiscard]] const std::filesystem::path &root() const noexcept;
    [[nodiscard]] const Clock &clock() const noexcept;
    /// The redactor of StoreOptions: what session logs and other files beside the memories are
    /// redacted with too.
    [[nodiscard]] const Redactor &redactor() const noexcept;

    /// The absolute path of the memory file for `key`. Throws StoreError if `key` is not a memory key.
    [[nodiscard]] std::filesystem::path path_of(std::string_view key) const;

    /// The project id for the project a directory is in: its repository's root, or the nearest
    /// directory with a `.starling-project` marker, else the directory itself (project_root_of).
    /// Relative paths are taken from the current directory; Windows forms are normalised and taken
    /// as they are (see normalise_project_path). The first call for a project records its path
    /// in `memory/projects/<id>/PROJECT_PATH`. If that folder already records a different path (a
    /// hash collision, or a forged folder), `<id>-2`, `<id>-3`, ... are tried, so two paths never
    /// share memories. Only takes the lock when it has to record a path. With ProjectFolder::look_up
    /// nothing is recorded or created: a project seen for the first time gets the id it would be
    /// given, whose folder does not exist, so a reader finds it empty.
    enum class ProjectFolder { record, look_up };
    [[nodiscard]] std::string resolve_project(const std::filesystem::path &project_directory,
                                              ProjectFolder folder = ProjectFolder::record);

    /// Writes a new memory into `scope`/`tier` and returns its key, its secrets redacted. The file is named
    /// `YYYY-MM-DD_<keyword>.md` after `created` and the summary, with `_2`, `_3`, ... on a collision.
    /// `created` and `last_accessed` left at their default (the epoch) are set to the clock's now.
    /// Throws StoreError if validate_memory rejects the memory.
    std::string create(const Scope &scope, Tier tier, Memory memory);

    /// Writes many new memories as create() writes each (secrets redacted, ids and file names chosen
    /// the same way) and says what became of each, in order: a memory validate_memory refuses is
    /// skipped with the reason, the others are written. What costs create() most is done once for
    /// the whole batch: one hold of the lock, one sync of the file system for every file
    /// (write_files_atomically) and one index update (a new snapshot for a large batch). As crash-safe
    /// as create() one by one: a process killed halfway leaves each memory complete at its key or
    /// absent (a temporary file at most, removed like any dead writer's); one written but not yet in
    /// the index is found by the next list(), which indexes files it does not know.
    std::vector<CreatedMemory> create_all(std::vector<NewMemory> memories);

    /// The key of the memory `reference` names, as a person gives it: its key, its file's path
    /// (absolute or relative to the working directory), its id or a unique prefix of it (at least
    /// four characters, any case), or a key it had before promotion or demotion moved it. Throws
    /// StoreError saying what `reference` matched when that is not exactly one memory.
    [[nodiscard]] std::string find_memory(std::string_view reference);

    /// Reads and parses a memory. Throws StoreError naming the file if it is missing or malformed.
    [[nodiscard]] Memory read(std::string_view key) const;

    /// Whether a memory file exists for `key`. Throws StoreError if `key` is not a memory key.
    [[nodiscard]] bool contains(std::string_view key) const;

    /// Read-modify-write under the store lock: reads the memory, lets `mutate` change it, writes it
    /// back atomically, its secrets redacted, and updates the index. If `mutate` throws, nothing is
    /// written. Returns the memory as written.
    Memory update(std::string_view key, const std::function<void(Memory &)> &mutate);

    /// Records one use of a memory under the lock: last_accessed = now, access_count + 1, the session
    /// added to `sessions` if it is not there yet (an empty id adds none), and the review flag cleared.
    void bump_access(std::string_view key, std::string_view session_id);
    /// Notes one use of a memory now, to be applied by apply_noted_accesses(): what the hook path
    /// calls instead of bump_access, because it costs one appended line, with no lock and no fsync.
    /// A power cut may lose the last few noted uses. Throws StoreError for a key that is not a memory
    /// key or a session id with control characters.
    void note_access(std::string_view key, std::string_view session_id);
    /// Notes one use of each memory of `keys` now, as note_access does, in a single append. Checks
    /// every key first: if one is refused, none is noted.
    /// An injection (AccessKind::injection) is noted the same way but applied apart: it counts in
    /// `injection_count` and `last_injected`, and leaves access_count, last_accessed, the sessions
    /// and the review flag alone.
    void note_accesses(std::span<const std::string> keys, std::string_view session_id,
                       AccessKind kind = AccessKind::use);
    /// Applies every noted use under the lock, as bump_access would have at the time of the use:
    /// access_count grows by the number of uses, last_accessed becomes the latest use, the sessions
    /// are added and the review flag is cleared. Uses of memories no longer at their key (archived,
    /// moved) are dropped. Anything that decides on access counts calls this first. Returns the
    /// number of uses applied; costs one stat when there are none.
    std::size_t apply_noted_accesses();

    /// Moves a memory to another tier (promotion, or demotion) and returns its new key. The file name is
    /// kept unless the target tier already has it (then `_2`, `_3`, ...). Moving to its own tier is a
    /// no-op that returns `key`.
    std::string move_to_tier(std::string_view key, Tier tier);

    /// Archives a memory before it is forgotten: copies the file to `archive/<id>/<key>`, appends a
    /// record (key, reason, time) to `archive/MANIFEST.jsonl`, and only then removes the original.
    ArchiveEntry archive(std::string_view key, std::string_view reason);

    /// Folds the memory at `absorbed_key` into the one at `kept_key` and archives it with `reason`,
    /// under one hold of the lock. The kept memory gains the absorbed one's summary and body (after a
    /// `<!-- merged from <key> -->` line), its uses, tags and sessions, and lists its id in
    /// `merged_from`. An intent in `index/intents/` is written first and removed last, so a process
    /// that dies halfway leaves a merge that the next consolidation (or `starling doctor --repair`)
    /// finishes, never one done twice. Throws StoreError if either memory is missing.
    ArchiveEntry merge(std::string_view absorbed_key, std::string_view kept_key, std::string_view reason);

    /// Every archive record, oldest first, with restores filled in.
    [[nodiscard]] std::vector<ArchiveEntry> archived() const;

    /// Puts an archived memory back, byte for byte: at its original key, or under a free name in the
    /// same directory if that key is taken by another file. Records the restore in the manifest and
    /// returns the key. Throws StoreError for an unknown or already restored id.
    std::string restore(std::string_view archive_id);

    /// The memories that match `filter`, sorted by key, from the machine index: memory files are not
    /// parsed, only stat'ed. A file whose size, modification time or inode differs from its index entry
    /// (edited by hand), or that the index does not know, is read again and the index updated; entries
    /// whose file is gone are dropped. A missing or garbled index is rebuilt.
    [[nodiscard]] std::vector<IndexEntry> list(const ListFilter &filter = {});
    /// As list(), read in place: what a consolidation of the whole store uses, without copying the
    /// text of every memory.
    [[nodiscard]] IndexedMemories list_in_place(const ListFilter &filter = {});

    /// As list(), but from the machine index alone, without a stat per memory file: what the hook
    /// path uses, since an agent waits on it. Everything written through any MemoryStore is in the
    /// index; a file edited by hand shows up once list() has run (every consolidation, at each session
    /// start, and every CLI command does). Falls back to list() when the index is missing or damaged.
    /// The listing is read in place, in key order, and copies no text.
    [[nodiscard]] IndexedMemories list_indexed(const ListFilter &filter = {});
    /// Identifies the content of the machine index, and so of every listing from it: it changes
    /// whenever a memory is added, changed or removed through any MemoryStore (or a hand edit is
    /// picked up by list()), and two different contents never share it. Cheap (an open, a 32-byte
    /// read and a stat): what a relevance policy's index is checked against on the hook path.
    /// Nothing when there is no index yet. Throws StoreError if the index cannot be read.
    [[nodiscard]] std::optional<std::string> index_version() const;
    /// The earlier version with the same texts as `version`, the store's current one: when every
    /// write since it changed no text a relevance index reads (uses folded in, reviews cleared,
    /// pins), an index built at it holds the same texts and ranks them with the use counts of then —
    /// what a hook can rank with while the current index is still being built, instead of
    /// tokenising every memory. Nothing when no such version is recorded for `version`. Reads a
    /// file, so only asked when the current version's index cannot answer.
    [[nodiscard]] std::optional<std::string> earlier_version_with_same_texts(const std::string &version) const;
    /// The files in memory directories that do not parse, sorted by key, as of a fresh scan like list().
    [[nodiscard]] std::vector<UnreadableMemory> unreadable();
    /// The folders the last listing could not enter, each with why (SkippedFolder); empty when
    /// every folder of the store is what it should be.
    [[nodiscard]] std::vector<SkippedFolder> skipped_folders() const;

    /// Rebuilds the machine index from every memory file, and deletes the temporary files that dead
    /// writers left under `memory/`, `index/` and `archive/`.
    IndexRebuildReport rebuild_index();

    /// What processes that died left unfinished (see Leftover), found without the lock and without
    /// changing anything: an access batch or merge intent listed may belong to a process still at
    /// work.
    [[nodiscard]] std::vector<Leftover> leftovers();

    /// Repairs every leftover, under the lock (so nothing found is still being worked on), and says
    /// for each what was done. Running it again finds nothing more to do.
    std::vector<Leftover> repair_leftovers();

    /// Finishes the merges whose process died (Leftover::Kind::merge_intent); a line for each, for
    /// people. Costs one listing of an empty folder when there are none: consolidation calls it first.
    std::vector<std::string> finish_interrupted_merges();

    /// Rewrites the scope's INDEX.md: `# Memory Index`, then `- [<summary>](long/<file>)` for every
    /// long-term memory, sorted by file name. `[`, `]` and `\` in summaries are escaped and line breaks
    /// become spaces, so each memory stays one well-formed link.
    void write_index_markdown(const Scope &scope);

private:
    struct Internals;
    std::unique_ptr<Internals> internals_;
};

/// `<store_root>/index/cache/`: where plugins keep what they derive from the memories of the store,
/// each in the directory named after its id. Deleting it loses nothing but the time to derive again.
[[nodiscard]] std::filesystem::path plugin_cache_root(const std::filesystem::path &store_root);

} // namespace starling::core
