// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <nlohmann/json.hpp>

#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

namespace starling::sdk {

/// A plugin's settings table: dotted paths with typed lookups and defaults, e.g.
/// `settings.get<int>("thresholds.short_days", 7)`. Lists become children with empty keys, in order.
using Settings = boost::property_tree::ptree;

namespace detail {

inline void copy_json_into(const nlohmann::json &value, Settings &node) {
    switch (value.type()) {
    case nlohmann::json::value_t::object:
        // Children are filled in place: ptree's push_back copies its argument, and copying each
        // finished subtree into its parent made building a deep table quadratic in its depth.
        for (const auto &[key, child] : value.items()) {
            copy_json_into(child, node.push_back({key, Settings{}})->second);
        }
        break;
    case nlohmann::json::value_t::array:
        for (const auto &child : value) {
            copy_json_into(child, node.push_back({std::string{}, Settings{}})->second);
        }
        break;
    case nlohmann::json::value_t::string:
        node.put_value(value.get<std::string>());
        break;
    case nlohmann::json::value_t::boolean:
        node.put_value(value.get<bool>() ? std::string{"true"} : std::string{"false"});
        break;
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
        break;
    default:
        node.put_value(value.dump());
        break;
    }
}

} // namespace detail

/// Builds the settings tree from the JSON object the host passes to create().
/// Throws std::invalid_argument when the text is not a JSON object.
[[nodiscard]] inline Settings settings_from_json(std::string_view json_text) {
    if (json_text.empty()) {
        return Settings{};
    }
    const auto parsed = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        throw std::invalid_argument("plugin settings are not a JSON object");
    }
    Settings settings;
    detail::copy_json_into(parsed, settings);
    return settings;
}

/// A number setting, `fallback` when it is absent. Throws std::invalid_argument, naming the setting
/// and its value, when that is not a number of type T. Read with std::from_chars, not `get<T>`:
/// ptree's translators go through iostreams, whose first use sets up the C++ locale — a cost a
/// plugin created on a hook's path should not pay — and they answer `fallback` for a value they
/// cannot read, which would leave a mistyped setting silently unused.
template <typename T>
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
[[nodiscard]] T get_number(const Settings &settings, const std::string &path, T fallback) {
    const auto value = settings.get_optional<std::string>(path);
    if (!value) {
        return fallback;
    }
    T number{};
    const char *const end = value->data() + value->size();
    const auto [stopped, error] = std::from_chars(value->data(), end, number);
    if (error != std::errc{} || stopped != end) {
        throw std::invalid_argument("setting '" + path + "' must be " +
                                    (std::is_integral_v<T> ? "a whole number" : "a number") + ", got '" + *value + "'");
    }
    return number;
}

/// A true/false setting, `fallback` when it is absent. Throws std::invalid_argument, naming the
/// setting and its value, for anything else (see get_number() for why not `get<bool>`).
[[nodiscard]] inline bool get_flag(const Settings &settings, const std::string &path, bool fallback) {
    const auto value = settings.get_optional<std::string>(path);
    if (!value) {
        return fallback;
    }
    if (*value == "true" || *value == "false") {
        return *value == "true";
    }
    throw std::invalid_argument("setting '" + path + "' must be true or false, got '" + *value + "'");
}

/// The string items of a list setting such as `cues.en = ["a", "b"]`; empty when absent.
[[nodiscard]] inline std::vector<std::string> get_string_list(const Settings &settings, const std::string &path) {
    std::vector<std::string> items;
    if (const auto list = settings.get_child_optional(path)) {
        for (const auto &[key, child] : *list) {
            items.push_back(child.get_value<std::string>());
        }
    }
    return items;
}

} // namespace starling::sdk
