// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>

#include <filesystem>
#include <memory>

namespace starling::plugins {

/// A module opened and its entry resolved; nothing in it has run yet except the loader's own
/// relocation and static initialisers. Exactly one of the two entries is set: `module` for a
/// module of ABI 1.7 on (starling_module_entry), `plugin_entry` for one built before.
struct OpenedModule {
    std::shared_ptr<const void> library; ///< keeps the library loaded; type-erased Boost.DLL handle
    const starling_module_entry *module = nullptr;
    starling_plugin_entry_fn plugin_entry = nullptr;
};

/// Opens `file` as a plugin module. Throws PluginLoadError (not_a_shared_library, cannot_open,
/// missing_entry), with dlerror's words where there are any.
[[nodiscard]] OpenedModule open_module(const std::filesystem::path &file);

} // namespace starling::plugins
