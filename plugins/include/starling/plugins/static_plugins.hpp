// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>

#include <span>

namespace starling::plugins {

/// A plugin linked into the executable: its symbol suffix and its unique entry function.
struct StaticPlugin {
    const char *symbol;
    starling_plugin_entry_fn entry;
};

/// The plugins linked into the running executable. Defined by a table that
/// starling_link_static_plugins() generates for each executable (see cmake/StarlingPlugin.cmake).
[[nodiscard]] std::span<const StaticPlugin> linked_static_plugins() noexcept;

} // namespace starling::plugins
