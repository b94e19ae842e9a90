// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::plugins {

/// The file name a plugin's module has in a plugin directory: `starling-<id>.so`. Only by it (or
/// by the module's manifest) can a host that loads just the plugins it uses find one without
/// loading the others.
[[nodiscard]] std::string module_file_name(std::string_view plugin_id);

/// The manifest beside a module, as fcitx5 keeps an addon's metadata beside it: `starling-x.so`'s
/// is `starling-x.json`, `{"plugins": ["x", "x-rank"]}`, the ids of the plugins the module offers,
/// so that a host can find a module of several plugins by id without running its code.
[[nodiscard]] std::filesystem::path module_manifest_path(const std::filesystem::path &module);

/// The plugin ids `module`'s manifest lists; nothing when it has none. Throws std::runtime_error
/// naming the manifest and what is wrong with it when it cannot be read or is malformed.
[[nodiscard]] std::optional<std::vector<std::string>> read_module_manifest(const std::filesystem::path &module);

/// Whether a host looking for any of `plugin_ids` finds it in `module`: by its file name, or listed
/// in its manifest. Throws as read_module_manifest() does when the manifest is malformed.
[[nodiscard]] bool module_found_by_any(const std::filesystem::path &module, const std::vector<std::string> &plugin_ids);

/// module_found_by_any() for one id; a manifest that cannot be read finds nothing.
[[nodiscard]] bool module_found_by_id(const std::filesystem::path &module, std::string_view plugin_id);

} // namespace starling::plugins
