// SPDX-License-Identifier: Apache-2.0
//
// MemoryStore::create_all: many new memories at once, for what brings a whole store in (a sync
// pulling 100,000 memories into a fresh home), where create()'s lock, fsyncs and journal append per
// memory cost minutes.
#include "io/staged_directory.hpp"
#include "store/store_internals.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/store/record/file_naming.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/record/memory_redaction.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

namespace starling::core {
namespace {

/// The names the batch chose in one folder, and whether the folder had no file before it.
struct ChosenNames {
    bool folder_was_empty = false;
    std::set<std::string> names;
};

/// The first of `<stem>.md`, `<stem>_2.md`, ... that is neither on disk nor chosen already (by an
/// earlier memory of the batch, whose file is not written yet).
std::string free_name_in_batch(const std::filesystem::path &directory, std::string_view stem, ChosenNames &chosen) {
    for (unsigned n = 1; n < 100000; ++n) {
        std::string name = numbered_file_name(stem, n);
        if (chosen.names.contains(name)) {
            continue;
        }
        if (chosen.folder_was_empty) { // and nobody else writes there while the batch holds the lock
            chosen.names.insert(name);
            return name;
        }
        std::error_code error;
        const auto status = std::filesystem::symlink_status(directory / name, error);
        if (error && error != std::errc::no_such_file_or_directory) {
            throw StoreError((directory / name).string() + ": cannot check whether it exists: " + error.message());
        }
        if (!std::filesystem::exists(status)) {
            chosen.names.insert(name);
            return name;
        }
    }
    throw StoreError(directory.string() + ": no free file name for '" + std::string(stem) + "'");
}

} // namespace

std::vector<CreatedMemory> MemoryStore::create_all(std::vector<NewMemory> memories) {
    if (memories.empty()) {
        return {};
    }
    std::vector<CreatedMemory> created(memories.size());
    const auto now = internals_->clock->now();
    for (std::size_t index = 0; index < memories.size(); ++index) {
        auto &[scope, tier, memory] = memories[index];
        if (memory.created == std::chrono::sys_seconds{}) {
            memory.created = now;
        }
        if (memory.last_accessed == std::chrono::sys_seconds{}) {
            memory.last_accessed = memory.created;
        }
        static_cast<void>(redact_memory(memory, *internals_->options.redactor));
        try {
            validate_memory(memory, "new memory in " + scope.directory() + "/" + std::string(to_string(tier)));
        } catch (const StoreError &refused) {
            created[index].refusal = refused.what();
        }
    }

    const FileLock guard = internals_->lock();
    // An index to fold the batch into (a first one, for a fresh home, built from no files), rather
    // than one the next listing rebuilds by reading back every file just written.
    if (internals_->index.refresh() != detail::MachineIndex::State::current) {
        static_cast<void>(internals_->rebuild());
    }
    std::unordered_set<std::string> taken_ids;
    if (std::any_of(memories.begin(), memories.end(), [](const NewMemory &memory) { return memory.memory.id.empty(); })) {
        internals_->index.for_each([&](const detail::IndexRecordView &record) {
            if (record.kind == detail::IndexRecordView::Kind::entry) {
                taken_ids.emplace(record.memory.id);
            }
        });
        for (const auto &memory : memories) {
            taken_ids.insert(memory.memory.id);
        }
    }
    std::vector<FileWrite> writes;
    std::vector<std::size_t> written;
    std::map<std::string, ChosenNames> chosen_names;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        if (!created[index].refusal.empty()) {
            continue;
        }
        auto &[scope, tier, memory] = memories[index];
        if (memory.id.empty()) {
            for (unsigned attempt = 0; memory.id.empty(); ++attempt) {
                auto id = derive_memory_id(memory.created, memory.summary, attempt);
                if (taken_ids.insert(id).second) {
                    memory.id = std::move(id);
                }
            }
        }
        const std::string directory_key = scope.directory() + "/" + std::string(to_string(tier));
        const std::filesystem::path directory = internals_->absolute(directory_key);
        const auto [chosen, first_in_folder] = chosen_names.try_emplace(directory_key);
        if (first_in_folder) {
            ensure_directories_beneath(internals_->root, directory);
            chosen->second.folder_was_empty = detail::is_empty_or_absent_directory(directory);
        }
        const std::string name = free_name_in_batch(
            directory, memory_file_stem(memory.created, memory.summary, memory.id), chosen->second);
        created[index].key = directory_key + "/" + name;
        writes.push_back({directory / name, serialise_memory(memory, "new memory in " + directory_key)});
        written.push_back(index);
    }
    const auto stamps = write_files_atomically(writes);

    std::vector<detail::IndexRecord> records;
    records.reserve(written.size());
    for (std::size_t write = 0; write < written.size(); ++write) {
        const std::size_t index = written[write];
        const auto &[scope, tier, memory] = memories[index];
        const auto location = *parse_memory_key(created[index].key);
        records.push_back(internals_->entry_for(created[index].key, location, memory, stamps[write]));
        created[index].stamp = stamps[write];
    }
    internals_->record(records);
    return created;
}

} // namespace starling::core
