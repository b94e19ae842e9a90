// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/plugin_settings.hpp>

#include <starling/core/config/config_error.hpp>
#include <starling/core/config/config_schema.hpp>

#include <starling/core/config/closest_name.hpp>
#include "config/toml_text.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace starling::core {
namespace {

using Json = nlohmann::json;
using JsonPointer = Json::json_pointer;

/// Plugin settings come from TOML, so problems are described with TOML's type names.
std::string_view toml_type_description(const Json &value) {
    switch (value.type()) {
    case Json::value_t::object: return "a table";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    case Json::value_t::number_float: return "a float";
    case Json::value_t::null:
    case Json::value_t::binary:
    case Json::value_t::discarded: break;
    }
    return "no value";
}

/// Whether `value` may stand where `expected` is declared; an integer may stand for a float.
bool fits(const Json &expected, const Json &value) {
    if (expected.is_null()) {
        return true;
    }
    if (expected.is_number_float()) {
        return value.is_number();
    }
    if (expected.is_number_integer()) {
        return value.is_number_integer();
    }
    return expected.type() == value.type();
}

/// The declared item type of an array default: its first item, if every item has that type.
std::optional<Json> declared_item(const Json &array_default) {
    if (array_default.empty()) {
        return std::nullopt;
    }
    const Json &first = array_default.front();
    const bool uniform = std::all_of(array_default.begin(), array_default.end(), [&](const Json &item) {
        return toml_type_description(item) == toml_type_description(first);
    });
    return uniform ? std::optional<Json>{first} : std::nullopt;
}

/// A value as the plugin expects it: integers standing for floats become floats.
Json conformed(const Json &expected, const Json &value) {
    if (expected.is_number_float() && value.is_number_integer()) {
        return value.get<double>();
    }
    return value;
}

class SettingsOverlay {
public:
    SettingsOverlay(const Config &config, std::string_view plugin_id, const PluginSettingsTable &table)
        : config_(config), plugin_id_(plugin_id), table_(table) {}

    std::vector<ConfigIssue> apply(Json &effective) {
        merge_table(effective, table_.values, JsonPointer{}, /*accepts_any_key=*/false);
        return std::move(issues_);
    }

private:
    void merge_table(Json &effective, const Json &user, const JsonPointer &at, bool accepts_any_key) {
        for (const auto &[key, value] : user.items()) {
            const JsonPointer pointer = at / key;
            if (!effective.contains(key)) {
                if (accepts_any_key) {
                    effective[key] = value;
                } else {
                    report_unknown_key(effective, pointer);
                }
                continue;
            }
            merge_value(effective[key], value, pointer);
        }
    }

    void merge_value(Json &effective, const Json &value, const JsonPointer &pointer) {
        if (!fits(effective, value)) {
            report(pointer, "expected " + std::string{toml_type_description(effective)} + ", got " +
                                std::string{toml_type_description(value)});
            return;
        }
        if (effective.is_object()) {
            merge_table(effective, value, pointer, /*accepts_any_key=*/effective.empty());
            return;
        }
        if (effective.is_array()) {
            merge_array(effective, value, pointer);
            return;
        }
        effective = conformed(effective, value);
    }

    void merge_array(Json &effective, const Json &value, const JsonPointer &pointer) {
        const auto item = declared_item(effective);
        if (!item) {
            effective = value;
            return;
        }
        Json merged = Json::array();
        bool all_fit = true;
        for (std::size_t index = 0; index < value.size(); ++index) {
            if (!fits(*item, value[index])) {
                report(pointer / index, "item " + std::to_string(index + 1) + " is " +
                                            std::string{toml_type_description(value[index])} + "; expected " +
                                            std::string{toml_type_description(*item)});
                all_fit = false;
                continue;
            }
            merged.push_back(conformed(*item, value[index]));
        }
        if (all_fit) {
            effective = std::move(merged);
        }
    }

    void report_unknown_key(const Json &known, const JsonPointer &pointer) {
        std::vector<std::string> candidates;
        for (const auto &[key, value] : known.items()) {
            candidates.push_back(dotted(pointer.parent_pointer() / key));
        }
        report(pointer, toml_string(plugin_id_) + " has no setting " + toml_string(pointer.back()) +
                            did_you_mean(closest_name(dotted(pointer), candidates)));
    }

    void report(const JsonPointer &pointer, std::string problem) {
        const SourcePosition position = table_.position_of(pointer);
        issues_.push_back({ConfigIssue::Severity::error,
                           {config_.source_file, position.line, position.column, dotted(pointer)},
                           std::move(problem)});
    }

    /// `settings.<id>.a.b` for the pointer `/a/b`; array items keep their index as a key segment.
    std::string dotted(const JsonPointer &pointer) const {
        std::string key = std::string{plugin_settings_table} + "." + toml_key(plugin_id_);
        JsonPointer remaining = pointer;
        std::vector<std::string> segments;
        while (!remaining.empty()) {
            segments.push_back(remaining.back());
            remaining.pop_back();
        }
        for (auto segment = segments.rbegin(); segment != segments.rend(); ++segment) {
            key += '.';
            key += toml_key(*segment);
        }
        return key;
    }

    const Config &config_;
    std::string plugin_id_;
    const PluginSettingsTable &table_;
    std::vector<ConfigIssue> issues_;
};

Json parse_declared_defaults(std::string_view plugin_id, std::string_view default_settings_json) {
    Json defaults = default_settings_json.empty()
                        ? Json::object()
                        : Json::parse(default_settings_json, nullptr, /*allow_exceptions=*/false);
    if (defaults.is_discarded() || !defaults.is_object()) {
        throw std::invalid_argument("plugin '" + std::string{plugin_id} +
                                    "' declares default settings that are not a JSON object");
    }
    return defaults;
}

std::string_view kind_description(starling_plugin_kind kind) {
    switch (kind) {
    case STARLING_KIND_ADAPTER: return "an agent adapter";
    case STARLING_KIND_DECISION_POLICY: return "a decision policy";
    case STARLING_KIND_DECAY_POLICY: return "a decay policy";
    case STARLING_KIND_RELEVANCE_POLICY: return "a relevance policy";
    default: break;
    }
    return "a plugin of an unknown kind";
}

ConfigLocation location_of_key(const Config &config, std::string_view key) {
    const auto found = config.key_positions.find(key);
    const SourcePosition position = found == config.key_positions.end() ? SourcePosition{} : found->second;
    return {config.source_file, position.line, position.column, std::string{key}};
}

void check_policy_keys(const Config &config, std::span<const PluginDefaults> plugins,
                       std::vector<ConfigIssue> &issues) {
    std::vector<std::string> plugin_ids;
    for (const auto &plugin : plugins) {
        plugin_ids.push_back(plugin.id);
    }
    for (const auto &key : config_schema()) {
        if (key.plugin_kind == 0) {
            continue;
        }
        const std::string plugin_id = std::get<std::string>(key.read(config, key));
        if (plugin_id.empty()) {
            continue;
        }
        const auto plugin = std::find_if(plugins.begin(), plugins.end(), [&](const PluginDefaults &candidate) {
            return candidate.id == plugin_id;
        });
        if (plugin == plugins.end()) {
            issues.push_back({ConfigIssue::Severity::error, location_of_key(config, key.name),
                              "no plugin " + toml_string(plugin_id) + " is available" +
                                  did_you_mean(closest_name(plugin_id, plugin_ids))});
        } else if (plugin->kind != 0 && plugin->kind != key.plugin_kind) {
            issues.push_back({ConfigIssue::Severity::error, location_of_key(config, key.name),
                              toml_string(plugin_id) + " is " + std::string{kind_description(plugin->kind)} +
                                  ", not " + std::string{kind_description(key.plugin_kind)}});
        }
    }
}

} // namespace

std::vector<ConfigIssue> plugin_settings_issues(const Config &config, std::string_view plugin_id,
                                                std::string_view default_settings_json) {
    Json effective = parse_declared_defaults(plugin_id, default_settings_json);
    const auto table = config.plugin_settings.find(plugin_id);
    if (table == config.plugin_settings.end()) {
        return {};
    }
    return SettingsOverlay{config, plugin_id, table->second}.apply(effective);
}

Json effective_plugin_settings(const Config &config, std::string_view plugin_id,
                               std::string_view default_settings_json) {
    Json effective = parse_declared_defaults(plugin_id, default_settings_json);
    const auto table = config.plugin_settings.find(plugin_id);
    if (table != config.plugin_settings.end()) {
        throw_first_error(SettingsOverlay{config, plugin_id, table->second}.apply(effective));
    }
    return effective;
}

ConfigIssue refused_plugin_settings(const Config &config, std::string_view plugin_id, std::string_view reason) {
    const auto table = config.plugin_settings.find(plugin_id);
    const SourcePosition position = table == config.plugin_settings.end() ? SourcePosition{} : table->second.position;
    return {ConfigIssue::Severity::error,
            {config.source_file, position.line, position.column,
             std::string{plugin_settings_table} + "." + toml_key(plugin_id)},
            toml_string(plugin_id) + " refuses these settings: " + std::string{reason}};
}

std::vector<ConfigIssue> unknown_plugin_settings(const Config &config, std::span<const std::string> known_ids) {
    std::vector<ConfigIssue> issues;
    for (const auto &[plugin_id, table] : config.plugin_settings) {
        if (std::find(known_ids.begin(), known_ids.end(), plugin_id) != known_ids.end()) {
            continue;
        }
        const std::string key = std::string{plugin_settings_table} + "." + toml_key(plugin_id);
        issues.push_back({ConfigIssue::Severity::error,
                          {config.source_file, table.position.line, table.position.column, key},
                          "no plugin " + toml_string(plugin_id) + " is available" +
                              did_you_mean(closest_name(plugin_id, known_ids))});
    }
    return issues;
}

std::vector<ConfigIssue> check_plugin_references(const Config &config, std::span<const PluginDefaults> plugins) {
    std::vector<std::string> known_ids;
    for (const auto &plugin : plugins) {
        known_ids.push_back(plugin.id);
    }
    std::vector<ConfigIssue> issues = unknown_plugin_settings(config, known_ids);
    for (const auto &plugin : plugins) {
        auto plugin_issues = plugin_settings_issues(config, plugin.id, plugin.default_settings_json);
        issues.insert(issues.end(), std::make_move_iterator(plugin_issues.begin()),
                      std::make_move_iterator(plugin_issues.end()));
    }
    check_policy_keys(config, plugins, issues);
    sort_by_position(issues);
    return issues;
}

} // namespace starling::core
