// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "application.hpp"

#include <span>
#include <string>

namespace starling::cli {

/// Each command takes the words after its name and returns the process exit code.
int run_plugins_command(Application &application, std::span<const std::string> words);
int run_config_command(Application &application, std::span<const std::string> words);

} // namespace starling::cli
