// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/conflict_markers.hpp>
#include <starling/app/sharing/git.hpp>
#include <starling/app/sharing/memory_merge.hpp>
#include <starling/app/sharing/outgoing_check.hpp>
#include <starling/app/sharing/sharing_error.hpp>
#include <starling/app/sharing/team_folder.hpp>
#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/store/record/project_id.hpp>
#include <starling/core/io/store_error.hpp>

#include <map>
#include <set>
#include <sstream>

namespace starling::app::sharing {
namespace {

/// What was last in the folder for each memory, as a hash of its text: tells which side changed.
using SharedHashes = std::map<std::string, std::string, std::less<>>;

std::string hash_of(std::string_view text) {
    char hex[17] = {};
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(core::fnv1a_64(text)));
    return hex;
}

SharedHashes read_hashes(const std::filesystem::path &file) {
    SharedHashes hashes;
    const auto text = core::read_file_if_exists(file);
    if (!text) {
        return hashes;
    }
    std::istringstream lines{*text};
    std::string line;
    std::size_t number = 0;
    while (std::getline(lines, line)) {
        ++number;
        if (line.empty() || line.starts_with('#')) {
            continue;
        }
        const auto tab = line.find('\t');
        if (tab == std::string::npos || !core::is_memory_id(line.substr(0, tab))) {
            throw SharingError(file.string() + ":" + std::to_string(number) +
                               ": expected 'id<TAB>hash'; delete the file and share again to rebuild it");
        }
        hashes.insert_or_assign(line.substr(0, tab), line.substr(tab + 1));
    }
    return hashes;
}

void write_hashes(const std::filesystem::path &file, const SharedHashes &hashes) {
    std::string text = "# starling share: the text last in the team folder for each memory (id, hash)\n";
    for (const auto &[id, hash] : hashes) {
        text += id + "\t" + hash + "\n";
    }
    core::write_file_atomically(file, text);
}

class TeamFolder {
public:
    TeamFolder(core::MemoryStore &store, const std::string &project_id, std::filesystem::path folder,
               std::filesystem::path state_file, ShareMode mode, ShareReport &report)
        : store_(store), scope_(core::Scope::project(project_id)), folder_(std::move(folder)),
          state_file_(std::move(state_file)), proposes_(mode == ShareMode::take_and_propose),
          hashes_(read_hashes(state_file_)), report_(report) {}

    void run() {
        std::map<std::string, core::IndexEntry, std::less<>> local;
        for (auto &entry : store_.list({scope_, std::nullopt, std::nullopt})) {
            local.insert_or_assign(entry.id, std::move(entry));
        }
        std::set<std::string, std::less<>> ids;
        for (const auto &[id, entry] : local) {
            ids.insert(id);
        }
        if (std::filesystem::is_directory(folder_)) {
            for (const auto &file : std::filesystem::directory_iterator(folder_)) {
                const auto stem = file.path().stem().string();
                if (file.path().extension() == ".md" && core::is_memory_id(stem)) {
                    ids.insert(stem);
                }
            }
        }
        for (const auto &id : ids) {
            const auto found = local.find(id);
            try {
                one(id, found == local.end() ? nullptr : &found->second);
            } catch (const core::StoreError &problem) {
                report_.notes.push_back("skipped memory " + id + ": " + problem.what());
            } catch (const SharingError &refusal) {
                report_.refused.emplace_back(refusal.what());
            }
        }
        write_hashes(state_file_, hashes_);
    }

private:
    [[nodiscard]] std::filesystem::path file_of(const std::string &id) const { return folder_ / (id + ".md"); }

    /// The folder's text of a memory, with what git left conflicted merged (and the file rewritten).
    std::optional<std::string> folder_text(const std::string &id) {
        auto text = core::read_file_if_exists(file_of(id));
        if (!text) {
            return std::nullopt;
        }
        if (const auto sides = split_conflict_markers(*text)) {
            const auto merged = merge_wire_texts(sides->base, sides->ours, sides->theirs, file_of(id).string());
            if (proposes_) {
                propose(id, merged, "the team folder");
                report_.notes.push_back(file_of(id).string() +
                                        ": git left conflict markers in it; kept both versions, merged");
            } else {
                report_.notes.push_back(file_of(id).string() +
                                        ": git left conflict markers in it; took both versions, merged, and left "
                                        "the file as it is");
            }
            return merged;
        }
        return text;
    }

    void propose(const std::string &id, const std::string &text, const std::string &source) {
        refuse_user_scope_in_team_folder(scope_, source);
        refuse_secrets(text, source, folder_.string(), store_.redactor());
        std::filesystem::create_directories(folder_);
        core::write_file_atomically(file_of(id), text);
        note(id, core::ProvenanceKind::shared, "written to the team folder " + folder_.string());
    }

    /// Records a share or a take in the memory's history, failing open.
    void note(const std::string &id, core::ProvenanceKind kind, std::string reason) const {
        core::ProvenanceEvent event;
        event.time = store_.clock().now();
        event.kind = kind;
        event.agent = "team folder";
        event.reason = std::move(reason);
        core::record_provenance(store_.root(), store_.redactor(), id, std::move(event));
    }

    void take(const std::string &key, core::Tier tier, const std::string &text, const std::string &id) {
        const auto wire = from_wire_text(text, file_of(id).string());
        store_.update(key, [&](core::Memory &memory) { take_wire_content(memory, wire.memory); });
        if (wire.tier != tier) {
            static_cast<void>(store_.move_to_tier(key, wire.tier));
        }
        note(id, core::ProvenanceKind::received, "updated from the team folder " + folder_.string());
        ++report_.updated;
    }

    void one(const std::string &id, const core::IndexEntry *entry) {
        const auto last = hashes_.find(id);
        const bool was_shared = last != hashes_.end();
        const auto in_folder = folder_text(id);
        std::optional<core::Memory> memory;
        if (entry != nullptr) {
            memory = store_.read(entry->key);
        }
        const bool shareable = memory && may_leave_machine(*memory);
        if (!shareable) {
            if (!in_folder) {
                return;
            }
            if (!memory && !was_shared) {
                create(id, *in_folder); // a teammate's new memory
            } else if (was_shared && proposes_) {
                // Forgotten, or made private, here since it was shared: withdrawn from the folder.
                std::filesystem::remove(file_of(id));
                hashes_.erase(id);
                ++report_.withdrawn;
            }
            return;
        }
        const auto mine = to_wire_text(*memory, entry->tier);
        if (!in_folder) {
            if (was_shared) {
                store_.archive(entry->key, "removed from the team folder " + folder_.string() + " (starling share)");
                hashes_.erase(id);
                ++report_.archived;
            } else if (proposes_) {
                propose(id, mine, entry->key);
                hashes_[id] = hash_of(mine);
                ++report_.proposed;
            }
            return;
        }
        if (*in_folder == mine) {
            hashes_[id] = hash_of(mine);
            return;
        }
        if (was_shared && hash_of(*in_folder) == last->second) {
            if (proposes_) {
                propose(id, mine, entry->key);
                hashes_[id] = hash_of(mine);
                ++report_.proposed;
            }
        } else if (was_shared && hash_of(mine) == last->second) {
            take(entry->key, entry->tier, *in_folder, id);
            hashes_[id] = hash_of(*in_folder);
        } else if (proposes_) {
            const auto merged = merge_wire_texts(std::nullopt, mine, *in_folder, file_of(id).string());
            propose(id, merged, entry->key);
            take(entry->key, entry->tier, merged, id);
            hashes_[id] = hash_of(merged);
            ++report_.proposed;
            report_.notes.push_back(file_of(id).string() + ": changed here and in the team folder; kept both texts");
        } else {
            // Recorded as the folder's text: the merge, changed here only as far as the folder can
            // tell, is what the next share that proposes writes to it.
            take(entry->key, entry->tier, merge_wire_texts(std::nullopt, mine, *in_folder, file_of(id).string()), id);
            hashes_[id] = hash_of(*in_folder);
            report_.notes.push_back(file_of(id).string() +
                                    ": changed here and in the team folder; kept both texts here");
        }
    }

    void create(const std::string &id, const std::string &text) {
        auto wire = from_wire_text(text, file_of(id).string());
        wire.memory.id = id;
        wire.memory.access_count = 0;
        wire.memory.last_accessed = wire.memory.created;
        static_cast<void>(store_.create(scope_, wire.tier, std::move(wire.memory)));
        note(id, core::ProvenanceKind::received, "taken from the team folder " + folder_.string());
        hashes_[id] = hash_of(text);
        ++report_.taken;
    }

    core::MemoryStore &store_;
    core::Scope scope_;
    std::filesystem::path folder_;
    std::filesystem::path state_file_;
    bool proposes_;
    SharedHashes hashes_;
    ShareReport &report_;
};

} // namespace

ShareReport share_project(core::MemoryStore &store, const std::filesystem::path &project_directory, ShareMode mode) {
    ShareReport report;
    report.project_id = store.resolve_project(project_directory);
    const auto recorded = core::read_file(store.root() / core::Scope::project(report.project_id).directory() / "PROJECT_PATH");
    const std::filesystem::path root = trimmed(recorded);
    if (!std::filesystem::is_directory(root)) {
        throw SharingError("the project's folder " + root.string() + " does not exist");
    }
    report.folder = root / team_folder_path;
    const auto state_folder = store.root() / "sync" / "share";
    std::filesystem::create_directories(state_folder);
    const core::FileLock lock{state_folder / ".lock"};
    static_cast<void>(store.apply_noted_accesses());
    TeamFolder{store, report.project_id, report.folder, state_folder / (report.project_id + ".tsv"), mode,
               report}
        .run();
    return report;
}

} // namespace starling::app::sharing
