// SPDX-License-Identifier: Apache-2.0
//
// The only translation unit that includes toml++: no public header may depend on it, so it can be
// switched to header-only mode without touching anything else.
#include <starling/core/config/config_loader.hpp>

#include <starling/core/config/config_error.hpp>
#include <starling/core/config/config_schema.hpp>

#include <starling/core/config/closest_name.hpp>
#include "config/toml_outside_strings.hpp"
#include "config/toml_text.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace starling::core {
namespace {

using Json = nlohmann::json;
using JsonPointer = Json::json_pointer;

std::string_view type_description(const toml::node &node) {
    switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
    }
    return "nothing";
}

SourcePosition position_of(const toml::source_region &region) {
    return {region.begin.line, region.begin.column};
}

/// Reads one parsed document into a Config, collecting every problem instead of stopping at the first.
class ConfigReader {
public:
    ConfigReader(const ConfigEnvironment &environment, std::filesystem::path source)
        : environment_(environment), source_(std::move(source)),
          relative_to_(std::filesystem::absolute(source_).parent_path()) {
        for (const auto &key : config_schema()) {
            key_names_.emplace_back(key.name);
        }
        table_names_ = config_table_names();
    }

    Config read(const toml::table &root) {
        Config config = default_config(environment_);
        config.source_file = source_;
        for (const auto &[name, node] : root) {
            read_top_level(config, name, node);
        }
        return config;
    }

    void report(SourcePosition position, std::string key, std::string problem) {
        issues_.push_back({ConfigIssue::Severity::error, {source_, position.line, position.column, std::move(key)},
                           std::move(problem)});
    }

    std::vector<ConfigIssue> take_issues() {
        sort_by_position(issues_);
        return std::move(issues_);
    }

private:
    void read_top_level(Config &config, const toml::key &name, const toml::node &node) {
        const std::string table_name{name.str()};
        const bool is_known_table =
            std::find(table_names_.begin(), table_names_.end(), table_name) != table_names_.end();
        if (!is_known_table) {
            report_unknown(name, node.is_table() ? "unknown table" : "unknown key", table_names_);
            return;
        }
        const toml::table *table = node.as_table();
        if (table == nullptr) {
            report(position_of(node.source()), table_name,
                   "expected a table, got " + std::string{type_description(node)});
            return;
        }
        if (table_name == plugin_settings_table) {
            read_plugin_settings(config, *table);
            return;
        }
        for (const auto &[leaf, value] : *table) {
            const std::string dotted = table_name + "." + std::string{leaf.str()};
            if (const ConfigKey *key = find_config_key(dotted)) {
                read_key(config, *key, leaf, value);
            } else if (auto renamed = renamed_key_problem(dotted)) {
                report(position_of(leaf.source()), dotted, std::move(*renamed));
            } else {
                report_unknown(leaf, "unknown key", key_names_, table_name + ".");
            }
        }
    }

    /// Suggests the closest known name, or, failing that, a known key with the same last segment:
    /// that is usually a key written in the wrong table.
    void report_unknown(const toml::key &name, std::string_view what, std::span<const std::string> candidates,
                        const std::string &table_prefix = {}) {
        const std::string written = table_prefix + toml_key(name.str());
        auto suggestion = closest_name(written, candidates);
        if (!suggestion) {
            const auto schema = config_schema();
            const auto same_leaf = std::find_if(schema.begin(), schema.end(),
                                                [&](const ConfigKey &key) { return key.leaf() == name.str(); });
            if (same_leaf != schema.end()) {
                suggestion = std::string{same_leaf->name};
            }
        }
        report(position_of(name.source()), written, std::string{what} + did_you_mean(suggestion));
    }

    void read_key(Config &config, const ConfigKey &key, const toml::key &name, const toml::node &node) {
        const std::string dotted{key.name};
        auto value = convert(key, dotted, node);
        if (!value) {
            return;
        }
        if (auto problem = value_problem(key, *value)) {
            report(position_of(node.source()), dotted, std::move(*problem));
            return;
        }
        try {
            key.assign(config, key, *value, environment_, relative_to_);
        } catch (const std::invalid_argument &failure) {
            report(position_of(node.source()), dotted, failure.what());
            return;
        }
        config.key_positions[dotted] = position_of(name.source());
    }

    std::optional<ConfigValue> convert(const ConfigKey &key, const std::string &dotted, const toml::node &node) {
        const auto wrong_type = [&] {
            report(position_of(node.source()), dotted,
                   "expected " + std::string{expected_value_description(key.kind)} + ", got " +
                       std::string{type_description(node)});
            return std::nullopt;
        };
        switch (key.kind) {
        case ConfigValueKind::string:
        case ConfigValueKind::path:
        case ConfigValueKind::choice:
            if (const auto *text = node.as_string()) {
                return ConfigValue{text->get()};
            }
            return wrong_type();
        case ConfigValueKind::integer:
            if (const auto *number = node.as_integer()) {
                return ConfigValue{number->get()};
            }
            return wrong_type();
        case ConfigValueKind::number:
            if (const auto *number = node.as_floating_point()) {
                return ConfigValue{number->get()};
            }
            // `min_score = 1` means 1.0; TOML's integer/float distinction is not one a user should have to make.
            if (const auto *number = node.as_integer()) {
                return ConfigValue{static_cast<double>(number->get())};
            }
            return wrong_type();
        case ConfigValueKind::boolean:
            if (const auto *flag = node.as_boolean()) {
                return ConfigValue{flag->get()};
            }
            return wrong_type();
        case ConfigValueKind::path_list:
        case ConfigValueKind::pattern_list:
            break;
        }
        const auto *array = node.as_array();
        if (array == nullptr) {
            return wrong_type();
        }
        std::vector<std::string> items;
        bool all_strings = true;
        for (std::size_t index = 0; index < array->size(); ++index) {
            const toml::node &item = *array->get(index);
            if (const auto *text = item.as_string()) {
                items.push_back(text->get());
            } else {
                report(position_of(item.source()), dotted,
                       "expected an array of strings, but item " + std::to_string(index + 1) + " is " +
                           std::string{type_description(item)});
                all_strings = false;
            }
        }
        if (!all_strings) {
            return std::nullopt;
        }
        return ConfigValue{std::move(items)};
    }

    void read_plugin_settings(Config &config, const toml::table &settings) {
        for (const auto &[id, node] : settings) {
            const std::string plugin_id{id.str()};
            const std::string dotted = std::string{plugin_settings_table} + "." + toml_key(plugin_id);
            const toml::table *table = node.as_table();
            if (table == nullptr) {
                report(position_of(node.source()), dotted,
                       "expected a table of the plugin's settings, got " + std::string{type_description(node)});
                continue;
            }
            PluginSettingsTable plugin_table;
            plugin_table.position = position_of(id.source());
            plugin_table.values = table_to_json(*table, JsonPointer{}, dotted, plugin_table);
            config.plugin_settings[plugin_id] = std::move(plugin_table);
        }
    }

    Json table_to_json(const toml::table &table, const JsonPointer &at, const std::string &dotted,
                       PluginSettingsTable &plugin_table) {
        Json object = Json::object();
        for (const auto &[name, node] : table) {
            const std::string key{name.str()};
            const JsonPointer pointer = at / key;
            plugin_table.positions[pointer.to_string()] = position_of(name.source());
            if (auto value = node_to_json(node, pointer, dotted + "." + toml_key(key), plugin_table)) {
                object[key] = std::move(*value);
            }
        }
        return object;
    }

    std::optional<Json> node_to_json(const toml::node &node, const JsonPointer &pointer, const std::string &dotted,
                                     PluginSettingsTable &plugin_table) {
        switch (node.type()) {
        case toml::node_type::table:
            return table_to_json(*node.as_table(), pointer, dotted, plugin_table);
        case toml::node_type::array: {
            Json array = Json::array();
            const toml::array &items = *node.as_array();
            for (std::size_t index = 0; index < items.size(); ++index) {
                const toml::node &item = *items.get(index);
                const JsonPointer item_pointer = pointer / index;
                plugin_table.positions[item_pointer.to_string()] = position_of(item.source());
                auto value = node_to_json(item, item_pointer, dotted + "." + std::to_string(index), plugin_table);
                array.push_back(value ? std::move(*value) : Json{});
            }
            return array;
        }
        case toml::node_type::string: return Json(node.as_string()->get());
        case toml::node_type::integer: return Json(node.as_integer()->get());
        case toml::node_type::floating_point: return Json(node.as_floating_point()->get());
        case toml::node_type::boolean: return Json(node.as_boolean()->get());
        case toml::node_type::date:
        case toml::node_type::time:
        case toml::node_type::date_time:
        case toml::node_type::none:
            break;
        }
        // Settings travel to plugins as JSON, which has no date or time type.
        report(position_of(node.source()), dotted,
               "plugin settings cannot be " + std::string{type_description(node)} + "; write it as a string");
        return std::nullopt;
    }

    const ConfigEnvironment &environment_;
    std::filesystem::path source_;
    std::filesystem::path relative_to_;
    std::vector<std::string> key_names_;
    std::vector<std::string> table_names_;
    std::vector<ConfigIssue> issues_;
};

struct ReadResult {
    std::optional<Config> config; ///< Empty when the text is not TOML at all.
    std::vector<ConfigIssue> issues;
};

ReadResult read_config_text(std::string_view toml_text, const std::filesystem::path &source_name,
                            const ConfigEnvironment &environment) {
    ConfigReader reader{environment, source_name};
    if (const auto position = first_non_ascii_outside_strings(toml_text)) {
        reader.report(*position, {},
                      "a character that is not ASCII outside a quoted string or a comment (TOML allows it only "
                      "there: quote the key or the value, or remove the character)");
        return {std::nullopt, reader.take_issues()};
    }
    toml::table root;
    try {
        root = toml::parse(toml_text, source_name.string());
    } catch (const toml::parse_error &failure) {
        reader.report(position_of(failure.source()), {}, std::string{failure.description()});
        return {std::nullopt, reader.take_issues()};
    }
    Config config = reader.read(root);
    return {std::move(config), reader.take_issues()};
}

std::string read_config_file(const std::filesystem::path &file) {
    std::error_code status_error;
    const auto status = std::filesystem::status(file, status_error);
    if (status.type() == std::filesystem::file_type::not_found) {
        throw ConfigError({file, 0, 0, {}}, "configuration file not found");
    }
    if (status.type() == std::filesystem::file_type::directory) {
        throw ConfigError({file, 0, 0, {}}, "is a directory, not a configuration file");
    }
    std::ifstream stream{file, std::ios::binary};
    if (!stream) {
        const int error_number = errno;
        throw ConfigError({file, 0, 0, {}},
                          "cannot open the configuration file: " + std::generic_category().message(error_number));
    }
    std::ostringstream contents;
    contents << stream.rdbuf();
    if (stream.bad()) {
        throw ConfigError({file, 0, 0, {}}, "cannot read the configuration file");
    }
    return std::move(contents).str();
}

/// A directory that a key lists but that does not exist is a warning, not an error: it may be a
/// removable disk or a checkout still to come, and nothing breaks meanwhile.
void warn_about_missing_directories(const Config &config, std::string_view key,
                                    const std::vector<std::filesystem::path> &directories, std::string_view what,
                                    std::string_view consequence, std::vector<ConfigIssue> &issues) {
    const auto written = config.key_positions.find(key);
    if (written == config.key_positions.end()) {
        return;
    }
    for (const auto &directory : directories) {
        std::error_code status_error;
        if (!std::filesystem::is_directory(directory, status_error)) {
            issues.push_back({ConfigIssue::Severity::warning,
                              {config.source_file, written->second.line, written->second.column, std::string{key}},
                              std::string{what} + " " + toml_string(directory.string()) + " does not exist; " +
                                  std::string{consequence}});
        }
    }
}

std::vector<ConfigIssue> check_config(const std::filesystem::path &file, const ConfigEnvironment &environment,
                                      const std::span<const PluginDefaults> *plugins) {
    std::string text;
    try {
        text = read_config_file(file);
    } catch (const ConfigError &failure) {
        return {{ConfigIssue::Severity::error, failure.location(), failure.problem()}};
    }
    auto [config, issues] = read_config_text(text, file, environment);
    if (!config) {
        return issues;
    }
    warn_about_missing_directories(*config, "plugins.directories", config->plugins.directories, "plugin directory",
                                   "no plugins will be loaded from it", issues);
    warn_about_missing_directories(*config, "sharing.projects", config->sharing.projects, "project directory",
                                   "no team folder is kept for it", issues);
    if (plugins != nullptr) {
        auto plugin_issues = check_plugin_references(*config, *plugins);
        issues.insert(issues.end(), std::make_move_iterator(plugin_issues.begin()),
                      std::make_move_iterator(plugin_issues.end()));
    }
    sort_by_position(issues);
    return issues;
}

} // namespace

Config default_config(const ConfigEnvironment &environment) {
    Config config;
    for (const auto &key : config_schema()) {
        key.assign(config, key, key.default_value, environment, {});
    }
    return config;
}

Config parse_config(std::string_view toml_text, const std::filesystem::path &source_name,
                    const ConfigEnvironment &environment) {
    auto [config, issues] = read_config_text(toml_text, source_name, environment);
    throw_first_error(issues);
    return std::move(*config);
}

Config load_config_file(const std::filesystem::path &file, const ConfigEnvironment &environment) {
    return parse_config(read_config_file(file), file, environment);
}

Config load_config(const ConfigEnvironment &environment,
                   const std::optional<std::filesystem::path> &explicit_file) {
    if (explicit_file) {
        return load_config_file(*explicit_file, environment);
    }
    const std::filesystem::path file = default_config_file(environment);
    std::error_code status_error;
    if (std::filesystem::status(file, status_error).type() == std::filesystem::file_type::not_found) {
        return default_config(environment);
    }
    return load_config_file(file, environment);
}

std::vector<ConfigIssue> check_config_file(const std::filesystem::path &file,
                                           const ConfigEnvironment &environment) {
    return check_config(file, environment, nullptr);
}

std::vector<ConfigIssue> check_config_file(const std::filesystem::path &file, const ConfigEnvironment &environment,
                                           std::span<const PluginDefaults> plugins) {
    return check_config(file, environment, &plugins);
}

} // namespace starling::core
