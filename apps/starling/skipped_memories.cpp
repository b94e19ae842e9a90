// SPDX-License-Identifier: Apache-2.0
#include "skipped_memories.hpp"

#include <starling/core/store/record/memory_key.hpp>

#include <algorithm>

namespace starling::app {

namespace {

bool in_scopes(std::string_view key, std::span<const core::Scope> scopes) {
    const auto parts = core::split_memory_key(key);
    if (!parts) {
        return true; // not where a memory belongs: worth naming whatever the command covers
    }
    return std::any_of(scopes.begin(), scopes.end(), [&](const core::Scope &scope) {
        return scope.kind() == parts->scope_kind && scope.project_id() == parts->project_id;
    });
}

} // namespace

void report_skipped_memories(Application &application, std::optional<std::span<const core::Scope>> scopes) {
    const auto unreadable = application.store().unreadable(); // lists the store, which finds the skipped folders
    for (const auto &folder : application.store().skipped_folders()) {
        application.logger().warning("store", "skipped " + folder.path + ": " + folder.reason +
                                                  "; the rest of the store is used (`starling doctor` lists it)");
    }
    for (const auto &file : unreadable) {
        if (!scopes || in_scopes(file.key, *scopes)) {
            application.logger().warning("store", "skipped " + file.key + ", which cannot be read as a memory: " + file.message +
                                                      " (fix or remove the file; `starling doctor` lists every one)");
        }
    }
}

} // namespace starling::app
