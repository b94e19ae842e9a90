// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>

#include <filesystem>
#include <memory>

namespace starling::plugins {

/// A module opened and its entry point resolved; nothing in it has run yet except the loader's
/// own relocation and static initialisers.
struct OpenedModule {
    std::shared_ptr<const void> library; ///< keeps the library loaded; type-erased Boost.DLL handle
    starling_plugin_entry_fn entry = nullptr;
};

/// Opens `file` as a plugin module. Throws PluginLoadError (not_a_shared_library, cannot_open,
/// missing_entry), with dlerror's words where there are any.
[[nodiscard]] OpenedModule open_module(const std::filesystem::path &file);

} // namespace starling::plugins
