// SPDX-License-Identifier: Apache-2.0
//
// A merge's uses counted once, whichever machine made it. A memory's count on every machine is the
// sum of each machine's own uses (access_count - uses_elsewhere); consolidation folds a memory into
// another by adding its whole count, other machines' uses included, and a machine that did not
// merge archives the absorbed memory when the pull removes it, with its own uses.
#include "sync_steps.hpp"

#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <limits>

namespace starling::app::sharing::detail {
namespace {

std::uint32_t saturating_sum(std::uint32_t left, std::uint32_t right) {
    return left > std::numeric_limits<std::uint32_t>::max() - right ? std::numeric_limits<std::uint32_t>::max()
                                                                     : left + right;
}

bool holds(const std::vector<std::string> &ids, const std::string &id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

} // namespace

UsageTable uses_elsewhere_in(const SyncContext &context, const std::string &commit) {
    UsageTable total;
    if (commit.empty()) {
        return total;
    }
    std::vector<TreeFile> files;
    std::vector<std::string> objects;
    for (auto &file : context.repository.list_files(commit, "machines")) {
        if (file.path.ends_with("/usage.tsv") && file.path != usage_path_of(context.machine_id)) {
            objects.push_back(file.object);
            files.push_back(std::move(file));
        }
    }
    const auto texts = context.repository.read_objects(objects);
    for (std::size_t index = 0; index < files.size(); ++index) {
        add_usage(total, parse_usage(texts[index], commit.substr(0, 12) + ":" + files[index].path));
    }
    return total;
}

bool count_uses_folded_here(SyncContext &context, const core::Scope &scope, const std::string &key,
                            core::Memory &memory, const std::set<std::string, std::less<>> &present_ids,
                            std::optional<UsageTable> &elsewhere_at_import) {
    const auto counted = listed_ids(memory, uses_merged_from_field);
    std::vector<std::string> folded;
    for (const auto &id : listed_ids(memory, merged_from_field)) {
        if (!present_ids.contains(id) && !holds(counted, id)) {
            folded.push_back(id);
        }
    }
    if (folded.empty()) {
        return false;
    }
    // What the others' usage files gave each absorbed memory at the last import is what its
    // uses_elsewhere was when consolidation folded it in here.
    if (!elsewhere_at_import) {
        elsewhere_at_import = uses_elsewhere_in(context, context.state.imported);
    }
    std::uint32_t elsewhere = 0;
    for (const auto &id : folded) {
        if (const auto found = elsewhere_at_import->find(wire_name_of(scope, id)); found != elsewhere_at_import->end()) {
            elsewhere = saturating_sum(elsewhere, found->second.uses);
        }
    }
    context.store.update(key, [&](core::Memory &stored) {
        auto listed = listed_ids(stored, uses_merged_from_field);
        if (std::any_of(folded.begin(), folded.end(), [&](const std::string &id) { return holds(listed, id); })) {
            return; // another sync counted them meanwhile
        }
        stored.set_extra_field(uses_elsewhere_field, std::to_string(saturating_sum(uses_elsewhere(stored), elsewhere)));
        listed.insert(listed.end(), folded.begin(), folded.end());
        stored.set_extra_list(uses_merged_from_field, listed);
    });
    memory = context.store.read(key);
    return true;
}

FoldedElsewhere uses_folded_elsewhere(core::MemoryStore &store, const core::Memory &wire,
                                      const std::map<std::string, std::string, std::less<>> &keys_by_id) {
    FoldedElsewhere folded;
    for (const auto &id : listed_ids(wire, merged_from_field)) {
        const auto key = keys_by_id.find(id);
        if (id == wire.id || key == keys_by_id.end() || !store.contains(key->second)) {
            continue;
        }
        try {
            folded.uses.emplace_back(id, uses_here(store.read(key->second)));
        } catch (const core::StoreError &) {
            continue; // gone since the listing: nothing of it left to count
        }
    }
    return folded;
}

void count_uses_folded_elsewhere(core::Memory &memory, const FoldedElsewhere &folded) {
    auto listed = listed_ids(memory, uses_merged_from_field);
    bool changed = false;
    for (const auto &[id, uses] : folded.uses) {
        if (!holds(listed, id)) {
            memory.access_count = saturating_sum(memory.access_count, uses);
            listed.push_back(id);
            changed = true;
        }
    }
    if (changed) {
        memory.set_extra_list(uses_merged_from_field, listed);
    }
}

} // namespace starling::app::sharing::detail
