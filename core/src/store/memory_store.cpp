// SPDX-License-Identifier: Apache-2.0
#include "store/store_internals.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/store/record/body_excerpt.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/record/file_naming.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_redaction.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <optional>

namespace starling::core {
namespace {

std::string stem_of(std::string_view file_name) {
    return std::string(file_name.substr(0, file_name.size() - std::string_view(".md").size()));
}

IndexEntry make_index_entry(const std::string &key, const MemoryLocation &location, const Memory &memory,
                            const FileStamp &stamp) {
    IndexEntry entry;
    entry.key = key;
    entry.scope_kind = location.scope.kind();
    entry.project_id = location.scope.project_id();
    entry.tier = location.tier;
    entry.file = stamp;
    for_each_memory_field(entry, memory, [](const FieldInfo &, auto &indexed, const auto &read) { indexed = read; });
    entry.id = memory_id_of(memory);
    entry.session_count = memory.session_count();
    entry.fields = fields_json(memory);
    entry.body_excerpt = body_excerpt(memory.summary, memory.body);
    return entry;
}

std::filesystem::path absolute_root(std::filesystem::path root) {
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(root, error);
    if (error) {
        throw StoreError(root.string() + ": cannot make the store root absolute: " + error.message());
    }
    absolute = absolute.lexically_normal();
    // "/x/store/" normalises to "/x/store/"; without the empty last component, root / key and
    // parent_path() chains compare equal to the root.
    if (!absolute.has_filename() && absolute.has_relative_path()) {
        absolute = absolute.parent_path();
    }
    return absolute;
}

} // namespace

MemoryStore::Internals::Internals(std::filesystem::path store_root, const Clock &store_clock,
                                  StoreOptions store_options)
    : root(absolute_root(std::move(store_root))), clock(&store_clock), options(std::move(store_options)),
      index(root / "index"), manifest(root / "archive" / "MANIFEST.jsonl"),
      accesses(root / "index" / "accesses.tsv"), merges(root / "index" / "intents") {
    if (!options.redactor) {
        options.redactor = builtin_redactor();
    }
}

FileLock MemoryStore::Internals::lock() const {
    ensure_directories(root);
    return FileLock(root / ".lock");
}

std::filesystem::path MemoryStore::Internals::absolute(std::string_view relative) const {
    return root / relative;
}

MemoryLocation MemoryStore::Internals::location_of(std::string_view key) const {
    std::optional<MemoryLocation> location = parse_memory_key(key);
    if (!location) {
        throw StoreError("'" + std::string(key) +
                         "' is not a memory key (expected memory/user/<tier>/<file>.md or "
                         "memory/projects/<id>/<tier>/<file>.md)");
    }
    return std::move(*location);
}

std::string MemoryStore::Internals::free_file_name(const std::filesystem::path &directory,
                                                   std::string_view stem) const {
    for (unsigned n = 1; n < 100000; ++n) {
        std::string name = numbered_file_name(stem, n);
        std::error_code error;
        const auto status = std::filesystem::symlink_status(directory / name, error);
        if (error && error != std::errc::no_such_file_or_directory) {
            throw StoreError((directory / name).string() +
                             ": cannot check whether it exists: " + error.message());
        }
        if (!std::filesystem::exists(status)) {
            return name;
        }
    }
    throw StoreError(directory.string() + ": no free file name for '" + std::string(stem) + "'");
}

IndexEntry MemoryStore::Internals::entry_for(const std::string &key, const MemoryLocation &location,
                                             const Memory &memory) const {
    const std::optional<FileStamp> stamp = stamp_file(absolute(key));
    if (!stamp) {
        throw StoreError(absolute(key).string() + ": vanished right after it was written");
    }
    return entry_for(key, location, memory, *stamp);
}

IndexEntry MemoryStore::Internals::entry_for(const std::string &key, const MemoryLocation &location,
                                             const Memory &memory, const FileStamp &stamp) const {
    return make_index_entry(key, location, memory, stamp);
}

detail::IndexRecord MemoryStore::Internals::describe_file(const std::string &key,
                                                          const MemoryLocation &location) const {
    const std::filesystem::path path = absolute(key);
    std::optional<FileStamp> stamp;
    try {
        std::optional<StampedContent> file = read_stamped_file(path);
        if (!file) {
            return detail::IndexRemoval{key};
        }
        stamp = file->stamp;
        return make_index_entry(key, location, parse_memory(file->content, path.string()), file->stamp);
    } catch (const StoreError &error) {
        if (!stamp) {
            // Not following a link: a link to nowhere is still a file to report, not a removal.
            stamp = stamp_entry(path);
        }
        if (!stamp) {
            return detail::IndexRemoval{key};
        }
        return UnreadableMemory{key, error.what(), *stamp};
    }
}

MemoryStore::MemoryStore(std::filesystem::path root, const Clock &clock, StoreOptions options)
    : internals_(std::make_unique<Internals>(std::move(root), clock, options)) {}

MemoryStore::MemoryStore(MemoryStore &&) noexcept = default;
MemoryStore &MemoryStore::operator=(MemoryStore &&) noexcept = default;
MemoryStore::~MemoryStore() = default;

const std::filesystem::path &MemoryStore::root() const noexcept { return internals_->root; }

const Clock &MemoryStore::clock() const noexcept { return *internals_->clock; }

void MemoryStore::Internals::note_provenance(std::string_view memory_id, ProvenanceEvent event) const noexcept {
    event.time = clock->now();
    record_provenance(root, *options.redactor, memory_id, std::move(event));
}

void MemoryStore::Internals::note_provenance_of_file(std::string_view file_content, ProvenanceEvent event) const noexcept {
    std::string memory_id;
    try {
        memory_id = memory_id_of(parse_memory(file_content, "memory"));
    } catch (const std::exception &) {
        return; // a file that does not parse is reported by every listing; it has no history of its own
    }
    note_provenance(memory_id, std::move(event));
}

const Redactor &MemoryStore::redactor() const noexcept { return *internals_->options.redactor; }

std::filesystem::path plugin_cache_root(const std::filesystem::path &store_root) {
    return store_root / "index" / "cache";
}

std::filesystem::path MemoryStore::path_of(std::string_view key) const {
    static_cast<void>(internals_->location_of(key));
    return internals_->absolute(key);
}

std::string MemoryStore::create(const Scope &scope, Tier tier, Memory memory) {
    if (memory.created == std::chrono::sys_seconds{}) {
        memory.created = internals_->clock->now();
    }
    if (memory.last_accessed == std::chrono::sys_seconds{}) {
        memory.last_accessed = memory.created;
    }
    const std::string directory_key = scope.directory() + "/" + std::string(to_string(tier));
    static_cast<void>(redact_memory(memory, *internals_->options.redactor));
    validate_memory(memory, "new memory in " + directory_key);

    const FileLock guard = internals_->lock();
    if (memory.id.empty()) {
        memory.id = internals_->free_memory_id(memory);
    }
    const std::string bytes = serialise_memory(memory, "new memory in " + directory_key);
    const std::filesystem::path directory = internals_->absolute(directory_key);
    ensure_directories_beneath(internals_->root, directory);
    const std::string name =
        internals_->free_file_name(directory, memory_file_stem(memory.created, memory.summary, memory.id));
    const std::string key = directory_key + "/" + name;
    write_file_atomically(directory / name, bytes);
    internals_->record({internals_->entry_for(key, MemoryLocation{scope, tier, name}, memory)});
    return key;
}

Memory MemoryStore::read(std::string_view key) const {
    const std::filesystem::path path = path_of(key);
    auto &read = internals_->read_memories;
    std::string key_text{key};
    std::optional<std::pair<FileStamp, Memory>> known;
    {
        const std::lock_guard lock{read.mutex};
        if (const auto found = read.by_key.find(key_text); found != read.by_key.end()) {
            known = found->second;
        }
    }
    // Only a memory read before costs the stat that tells whether it is still what was read.
    if (known) {
        if (const auto stamp = stamp_entry(path); stamp && *stamp == known->first) {
            return std::move(known->second);
        }
    }
    std::optional<StampedContent> file = read_stamped_file(path);
    if (!file) {
        throw StoreError(path.string() + ": no such memory");
    }
    Memory memory = parse_memory(file->content, path.string());
    const std::lock_guard lock{read.mutex};
    if (read.by_key.size() >= Internals::ReadMemories::capacity) {
        read.by_key.clear();
    }
    read.by_key.insert_or_assign(std::move(key_text), std::pair{file->stamp, memory});
    return memory;
}

bool MemoryStore::contains(std::string_view key) const { return stamp_file(path_of(key)).has_value(); }

Memory MemoryStore::update(std::string_view key, const std::function<void(Memory &)> &mutate) {
    static_cast<void>(internals_->location_of(key));
    const FileLock guard = internals_->lock();
    return internals_->update_locked(key, mutate);
}

Memory MemoryStore::Internals::update_locked(std::string_view key, const std::function<void(Memory &)> &mutate) {
    const MemoryLocation location = location_of(key);
    const std::string key_text(key);
    const std::filesystem::path path = absolute(key);
    std::optional<StampedContent> file = read_stamped_file(path);
    if (!file) {
        throw StoreError(path.string() + ": no such memory");
    }
    Memory memory = parse_memory(file->content, path.string());
    mutate(memory);
    static_cast<void>(redact_memory(memory, *options.redactor));
    const std::string bytes = serialise_memory(memory, path.string());
    if (bytes != file->content) {
        write_file_atomically(path, bytes);
    }
    record({entry_for(key_text, location, memory)});
    return memory;
}

std::string MemoryStore::move_to_tier(std::string_view key, Tier tier) {
    const MemoryLocation location = internals_->location_of(key);
    const std::filesystem::path source = internals_->absolute(key);

    const FileLock guard = internals_->lock();
    if (!stamp_file(source)) {
        throw StoreError(source.string() + ": no such memory");
    }
    if (location.tier == tier) {
        return std::string(key);
    }
    const std::string directory_key = location.scope.directory() + "/" + std::string(to_string(tier));
    const std::filesystem::path directory = internals_->absolute(directory_key);
    ensure_directories_beneath(internals_->root, directory);
    const std::string name = internals_->free_file_name(directory, stem_of(location.file_name));
    const std::string new_key = directory_key + "/" + name;
    fault_point(FaultStep::rename);
    if (std::rename(source.c_str(), (directory / name).c_str()) != 0) {
        throw_system_error(source, "cannot move to " + (directory / name).string(), errno);
    }
    fsync_directory(directory);
    fsync_directory(source.parent_path());
    const MemoryLocation new_location{location.scope, tier, name};
    internals_->record(
        {detail::IndexRemoval{std::string(key)}, internals_->describe_file(new_key, new_location)});
    if (const auto moved = read_file_if_exists(directory / name)) {
        ProvenanceEvent event;
        event.kind = tier == Tier::long_term ? ProvenanceKind::promoted : ProvenanceKind::demoted;
        event.reason = "moved to " + new_key;
        internals_->note_provenance_of_file(*moved, std::move(event));
    }
    return new_key;
}

} // namespace starling::core
