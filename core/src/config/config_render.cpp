// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_render.hpp>

#include <starling/core/config/config_schema.hpp>

#include "config/toml_text.hpp"

#include <algorithm>
#include <string_view>

namespace starling::core {
namespace {

using Json = nlohmann::json;

void render_header(std::string &out, const Config &config) {
    out += "# Starling effective configuration (starling config show).\n";
    if (config.source_file.empty()) {
        out += "# Source: the embedded defaults; no configuration file was read.\n";
    } else {
        out += "# Source: " + config.source_file.string() + ", over the embedded defaults.\n";
    }
    out += "# Paths are shown resolved. Plugin settings are each plugin's declared defaults overlaid\n"
           "# with the [settings.<plugin-id>] tables of the source. See docs/config.md.\n";
}

void render_schema_keys(std::string &out, const Config &config) {
    std::string_view current_table;
    for (const auto &key : config_schema()) {
        if (key.table() != current_table) {
            current_table = key.table();
            out += "\n[" + std::string{current_table} + "]\n";
        }
        out += "# " + std::string{key.description} + " Default: " + toml_literal(key.default_value) + ".\n";
        out += toml_key(key.leaf()) + " = " + toml_literal(key.read(config, key)) + "\n";
    }
}

/// Plain values first, then nested tables under their own headers, as TOML requires.
void render_settings_table(std::string &out, const std::string &header, const Json &table, std::string_view note) {
    out += "\n[" + header + "]\n";
    if (!note.empty()) {
        out += "# " + std::string{note} + "\n";
    }
    for (const auto &[key, value] : table.items()) {
        if (value.is_null()) {
            out += "# " + toml_key(key) + " has no default value.\n";
        } else if (!value.is_object()) {
            out += toml_key(key) + " = " + toml_value(value) + "\n";
        }
    }
    for (const auto &[key, value] : table.items()) {
        if (value.is_object()) {
            render_settings_table(out, header + "." + toml_key(key), value, {});
        }
    }
}

std::string settings_header(std::string_view plugin_id) {
    return std::string{plugin_settings_table} + "." + toml_key(plugin_id);
}

} // namespace

std::string render_effective_config(const Config &config, std::span<const PluginDefaults> plugins) {
    std::string out;
    render_header(out, config);
    render_schema_keys(out, config);
    for (const auto &plugin : plugins) {
        const Json settings = effective_plugin_settings(config, plugin.id, plugin.default_settings_json);
        render_settings_table(out, settings_header(plugin.id), settings, settings.empty() ? "No settings." : "");
    }
    for (const auto &[plugin_id, table] : config.plugin_settings) {
        // Captured by name: Clang 14, which builds `make fuzz`, cannot capture a structured binding.
        const bool known = std::any_of(plugins.begin(), plugins.end(), [&id = plugin_id](const PluginDefaults &plugin) {
            return plugin.id == id;
        });
        if (!known) {
            render_settings_table(out, settings_header(plugin_id), table.values,
                                  "No available plugin has this id; shown as written.");
        }
    }
    return out;
}

} // namespace starling::core
