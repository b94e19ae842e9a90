// SPDX-License-Identifier: Apache-2.0
//
// The one declarative list of every configuration key. Validation, the embedded defaults,
// `starling config show` and the documentation test all read it, so adding a key means adding a
// field to Config and one row to the table in config_schema.cpp.
#pragma once

#include <starling/core/config/config.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/sdk/abi.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace starling::core {

/// How a key is written in TOML and what its Config field holds.
enum class ConfigValueKind {
    string,    ///< TOML string, stored as is.
    path,      ///< TOML string; `~`, `$STARLING_HOME` and relative paths are resolved (expand_config_path).
    path_list, ///< TOML array of strings, each resolved like `path`.
    pattern_list, ///< TOML array of strings, each an ECMAScript regular expression that compiles.
    integer,   ///< TOML integer within [minimum, maximum].
    choice,    ///< TOML string, one of `choices`; the field holds its index as an enumerator.
    number,    ///< TOML float, or an integer converted to one; finite, within [number_minimum, number_maximum].
    boolean,   ///< TOML boolean.
};

/// A value as written in a configuration file, before paths are resolved. A `number` key's value
/// is always a double, even when the file wrote an integer.
using ConfigValue = std::variant<std::string, std::int64_t, std::vector<std::string>, double, bool>;

/// The table holding each plugin's own settings, `[settings.<plugin-id>]`; not a schema key.
inline constexpr std::string_view plugin_settings_table = "settings";

/// One row of the schema.
struct ConfigKey {
    /// Stores a checked value into the key's Config field, resolving paths against `relative_to`.
    using Assign = void (*)(Config &config, const ConfigKey &key, const ConfigValue &value,
                            const ConfigEnvironment &environment, const std::filesystem::path &relative_to);
    /// The key's Config field as it would be written (absolute paths, choice names).
    using Read = ConfigValue (*)(const Config &config, const ConfigKey &key);

    std::string_view name; ///< Dotted, `<table>.<key>`.
    ConfigValueKind kind = ConfigValueKind::string;
    ConfigValue default_value; ///< As written; `$STARLING_HOME` in a path default is resolved at load time.
    std::string_view description;
    std::int64_t minimum = std::numeric_limits<std::int64_t>::min();
    std::int64_t maximum = std::numeric_limits<std::int64_t>::max();
    /// The range of a `number` key; an infinite bound is no bound.
    double number_minimum = -std::numeric_limits<double>::infinity();
    double number_maximum = std::numeric_limits<double>::infinity();
    std::vector<std::string_view> choices;
    /// For a key whose value is a plugin id: the kind that plugin must be. 0 for other keys.
    starling_plugin_kind plugin_kind = 0;
    Assign assign = nullptr;
    Read read = nullptr;

    /// `budgets` for `budgets.inject_tokens`.
    [[nodiscard]] std::string_view table() const { return name.substr(0, name.find('.')); }
    /// `inject_tokens` for `budgets.inject_tokens`.
    [[nodiscard]] std::string_view leaf() const { return name.substr(name.find('.') + 1); }
};

/// Every known key, in the order `config show` prints them.
[[nodiscard]] std::span<const ConfigKey> config_schema();

/// The row for a dotted key, or nullptr.
[[nodiscard]] const ConfigKey *find_config_key(std::string_view name);

/// What to tell a configuration that sets a key since renamed (`injection.min_score`): the new
/// name and why its value cannot simply be carried over. Nothing for any other name.
[[nodiscard]] std::optional<std::string> renamed_key_problem(std::string_view name);

/// The top-level tables a file may contain: the schema's tables, in order, then `settings`.
[[nodiscard]] std::vector<std::string> config_table_names();

/// What a value of `kind` looks like, for "expected ..., got ..." messages: `an integer`.
[[nodiscard]] std::string_view expected_value_description(ConfigValueKind kind);

/// The type column of the documentation: `integer >= 0`, `number in [0.0, 1.0]`, `path (string)`,
/// `one of "debug", "info", ...`.
[[nodiscard]] std::string describe_type(const ConfigKey &key);

/// Why `value` (already of the right kind) is not acceptable for `key`: out of range, not one of
/// the choices, an empty path, a number that is not finite. Nothing when it is fine.
[[nodiscard]] std::optional<std::string> value_problem(const ConfigKey &key, const ConfigValue &value);

/// `value` as a TOML literal: `1500`, `0.6`, `true`, `"info"`, `["$STARLING_HOME/plugins"]`. A double
/// is written so that it reads back as the same double, and as a float.
[[nodiscard]] std::string toml_literal(const ConfigValue &value);

} // namespace starling::core
