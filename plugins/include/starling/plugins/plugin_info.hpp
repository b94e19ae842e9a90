// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace starling::plugins {

/// "adapter", "decision", "decay", "relevance", or "unknown(N)" for kinds this host predates.
[[nodiscard]] std::string kind_name(starling_plugin_kind kind);

/// A registered plugin, as `starling plugins` lists it.
struct PluginInfo {
    std::string id;
    std::string version;
    std::string description;
    starling_plugin_kind kind = 0;
    std::uint32_t abi_major = 0;
    std::uint32_t abi_minor = 0;
    bool is_static = false;
    std::filesystem::path file; ///< the module it came from; empty for static plugins
    std::string default_settings_json;
};

} // namespace starling::plugins
