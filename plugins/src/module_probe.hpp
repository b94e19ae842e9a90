// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace starling::plugins {

/// Runs `load` (opening a module and calling its entry) in a child process first: loading runs the
/// module's own code, and one that crashes, ends the process or hangs there must not do so in
/// this one. Returns what it did, if it misbehaved: "crashed with fatal signal 11 (Segmentation
/// fault) while loading". A module that fails to load in the ordinary way passes: loading it here
/// reports the error. Nothing is probed when no child can be started.
[[nodiscard]] std::optional<std::string> probe_module_load(const std::function<void()> &load,
                                                           std::chrono::milliseconds budget);

} // namespace starling::plugins
