// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/config/config_error.hpp>

#include <string>
#include <vector>

namespace starling::core {

/// One finding of `starling config check`: an error makes the configuration unusable, a warning does not.
struct ConfigIssue {
    enum class Severity { warning, error };

    Severity severity = Severity::error;
    ConfigLocation location;
    std::string problem;

    /// `FILE:LINE:COLUMN: KEY: problem`, the same text a ConfigError for this issue would carry.
    [[nodiscard]] std::string message() const { return format_config_message(location, problem); }
    [[nodiscard]] bool is_error() const noexcept { return severity == Severity::error; }
};

/// Throws a ConfigError for the first error among `issues`; warnings never throw.
void throw_first_error(const std::vector<ConfigIssue> &issues);

/// Orders issues by file, then position, so a report reads top to bottom like the file.
void sort_by_position(std::vector<ConfigIssue> &issues);

} // namespace starling::core
