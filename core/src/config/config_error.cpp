// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_error.hpp>

#include <utility>

namespace starling::core {

std::string format_config_message(const ConfigLocation &location, std::string_view problem) {
    std::string message;
    if (!location.file.empty()) {
        message += location.file.string();
        if (location.line > 0) {
            message += ':' + std::to_string(location.line);
            if (location.column > 0) {
                message += ':' + std::to_string(location.column);
            }
        }
        message += ": ";
    }
    if (!location.key.empty()) {
        message += location.key;
        message += ": ";
    }
    message += problem;
    return message;
}

ConfigError::ConfigError(ConfigLocation location, std::string problem)
    : std::runtime_error(format_config_message(location, problem)), location_(std::move(location)),
      problem_(std::move(problem)) {}

} // namespace starling::core
