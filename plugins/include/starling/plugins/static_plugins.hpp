// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>

namespace starling::plugins {

/// A plugin linked into the executable: its symbol suffix and its unique entry function.
struct StaticPlugin {
    const char *symbol;
    starling_plugin_entry_fn entry;
};

/// The symbol suffix a plugin of this id is linked in under: the id with '-' as '_'
/// (cmake/StarlingPlugin.cmake). Ids have no '_', so no two ids share a suffix.
[[nodiscard]] inline std::string static_plugin_symbol(std::string_view plugin_id) {
    std::string symbol{plugin_id};
    std::replace(symbol.begin(), symbol.end(), '-', '_');
    return symbol;
}

/// The plugins linked into the running executable. Defined by a table that
/// starling_link_static_plugins() generates for each executable (see cmake/StarlingPlugin.cmake).
[[nodiscard]] std::span<const StaticPlugin> linked_static_plugins() noexcept;

} // namespace starling::plugins
