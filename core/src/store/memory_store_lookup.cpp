// SPDX-License-Identifier: Apache-2.0
// Finding a memory from what a person types: its key, its path, its id or the start of it.
#include "store/store_internals.hpp"

#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <system_error>

namespace starling::core {
namespace {

constexpr std::string_view how_to_find = " (`starling list` shows every memory with its id)";

std::string lower_case(std::string_view text) {
    std::string lowered(text);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](char character) {
        return character >= 'A' && character <= 'Z' ? static_cast<char>(character - 'A' + 'a') : character;
    });
    return lowered;
}

/// The key a path inside the store names, or nothing when the path is outside the store.
std::optional<std::string> key_of_path(const std::filesystem::path &root, std::string_view reference) {
    std::error_code error;
    const auto path = std::filesystem::weakly_canonical(std::filesystem::absolute(reference, error), error);
    if (error) {
        return std::nullopt;
    }
    const auto canonical_root = std::filesystem::weakly_canonical(root, error);
    if (error) {
        return std::nullopt;
    }
    const auto relative = path.lexically_relative(canonical_root);
    if (relative.empty() || relative.begin()->string() == "..") {
        return std::nullopt;
    }
    return relative.generic_string();
}

} // namespace

std::string MemoryStore::Internals::free_memory_id(const Memory &memory) {
    static_cast<void>(index.refresh());
    for (unsigned attempt = 0;; ++attempt) {
        const std::string id = derive_memory_id(memory.created, memory.summary, attempt);
        bool taken = false;
        index.for_each([&](const detail::IndexRecordView &record) {
            taken = taken || (record.kind == detail::IndexRecordView::Kind::entry && record.memory.id == id);
        });
        if (!taken) {
            return id;
        }
    }
}

std::string MemoryStore::find_memory(std::string_view reference) {
    if (reference.empty()) {
        throw StoreError("no memory given: name one by its id, key or path" + std::string{how_to_find});
    }
    std::string key{reference};
    if (!parse_memory_key(key)) {
        if (const auto inside = key_of_path(internals_->root, reference); inside && parse_memory_key(*inside)) {
            key = *inside;
        }
    }
    if (const auto location = parse_memory_key(key)) {
        if (contains(key)) {
            return key;
        }
        // Promotion moves a file to the other tier under the same name: an old key still finds it.
        const Tier other = location->tier == Tier::short_term ? Tier::long_term : Tier::short_term;
        const std::string moved = memory_key(location->scope, other, location->file_name);
        if (contains(moved)) {
            return moved;
        }
        throw StoreError("no memory at " + key + std::string{how_to_find});
    }
    if (!could_be_memory_id_prefix(reference)) {
        throw StoreError("'" + std::string{reference} + "' is neither a memory id, nor a memory key, nor the path of " +
                         "a memory file in " + internals_->root.string() + std::string{how_to_find});
    }
    internals_->refresh({}, false);
    const std::string prefix = lower_case(reference);
    std::vector<std::string> matches;
    internals_->index.for_each([&](const detail::IndexRecordView &record) {
        if (record.kind == detail::IndexRecordView::Kind::entry && record.memory.id.starts_with(prefix)) {
            matches.emplace_back(record.memory.key);
        }
    });
    if (matches.size() == 1) {
        return matches.front();
    }
    if (matches.empty()) {
        throw StoreError("no memory has the id " + prefix + std::string{how_to_find});
    }
    std::sort(matches.begin(), matches.end());
    std::string listed;
    for (const auto &match : matches) {
        listed += "\n  " + match;
    }
    throw StoreError("the id prefix " + prefix + " is shared by " + std::to_string(matches.size()) +
                     " memories; give more of the id:" + listed);
}

} // namespace starling::core
