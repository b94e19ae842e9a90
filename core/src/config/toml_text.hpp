// SPDX-License-Identifier: Apache-2.0
// Private to starling_core: writing TOML text. Kept apart from toml++ (which only config_loader.cpp
// may include) so that rendering configuration never pulls the parser in.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace starling::core {

/// A TOML basic string, quoted and escaped.
[[nodiscard]] std::string toml_string(std::string_view text);

/// A key as TOML needs it: bare when it is only `A-Za-z0-9_-`, quoted otherwise.
[[nodiscard]] std::string toml_key(std::string_view key);

/// A float that reads back as the same double and as a float (never as an integer).
[[nodiscard]] std::string toml_float(double value);

/// Any JSON value except null as one TOML value; objects become inline tables.
/// Throws std::invalid_argument for null, which TOML cannot express.
[[nodiscard]] std::string toml_value(const nlohmann::json &value);

} // namespace starling::core
