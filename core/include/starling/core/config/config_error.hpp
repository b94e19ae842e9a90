// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace starling::core {

/// Where a configuration problem is. Any part may be unknown: an empty file or key, or line 0.
struct ConfigLocation {
    std::filesystem::path file;
    std::uint32_t line = 0;   ///< 1-based; 0 when the problem has no position (e.g. a missing file).
    std::uint32_t column = 0; ///< 1-based, counted in code points as toml++ counts them.
    std::string key;          ///< Dotted, e.g. `budgets.inject_tokens` or `settings.collie-search.include_body`.
};

/// Formats `FILE:LINE:COLUMN: KEY: problem`, leaving out the parts `location` does not know.
[[nodiscard]] std::string format_config_message(const ConfigLocation &location, std::string_view problem);

/// A configuration that cannot be used. `what()` is the full `FILE:LINE:COLUMN: KEY: problem` message.
class ConfigError : public std::runtime_error {
public:
    ConfigError(ConfigLocation location, std::string problem);

    [[nodiscard]] const std::filesystem::path &file() const noexcept { return location_.file; }
    [[nodiscard]] std::uint32_t line() const noexcept { return location_.line; }
    [[nodiscard]] std::uint32_t column() const noexcept { return location_.column; }
    [[nodiscard]] const std::string &key() const noexcept { return location_.key; }
    /// What is wrong, without the location prefix.
    [[nodiscard]] const std::string &problem() const noexcept { return problem_; }
    [[nodiscard]] const ConfigLocation &location() const noexcept { return location_; }

private:
    ConfigLocation location_;
    std::string problem_;
};

} // namespace starling::core
