// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace starling::plugins {

/// Runs `work` — a module's own code: opening the module and calling its entry, or creating one of
/// its plugins — in a child process first: code that crashes, ends the process or hangs there must
/// not do so in this one. Returns what it did, if it misbehaved, with `activity` saying when: "crashed
/// with fatal signal 11 (Segmentation fault) while loading". Work that fails in the ordinary way (it
/// throws) passes: doing it here reports the error. Nothing is probed when no child can be started.
[[nodiscard]] std::optional<std::string> probe_in_child(const std::function<void()> &work,
                                                        std::chrono::milliseconds budget, std::string_view activity);

} // namespace starling::plugins
