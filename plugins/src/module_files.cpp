// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/module_files.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace starling::plugins {

std::string module_file_name(std::string_view plugin_id) { return "starling-" + std::string{plugin_id} + ".so"; }

std::filesystem::path module_manifest_path(const std::filesystem::path &module) {
    auto manifest = module;
    manifest.replace_extension(".json");
    return manifest;
}

std::optional<std::vector<std::string>> read_module_manifest(const std::filesystem::path &module) {
    const auto manifest = module_manifest_path(module);
    std::error_code error;
    if (!std::filesystem::exists(manifest, error)) {
        return std::nullopt;
    }
    std::ifstream stream(manifest, std::ios::binary);
    if (!stream) {
        throw std::runtime_error(manifest.string() + ": cannot read the module's manifest");
    }
    const std::string text{std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    const auto malformed = [&](const std::string &what) {
        return std::runtime_error(manifest.string() + ": " + what +
                                  R"( (expected {"plugins": ["<plugin id>", ...]}))");
    };
    if (parsed.is_discarded()) {
        throw malformed("not JSON");
    }
    if (!parsed.is_object() || !parsed.contains("plugins") || !parsed["plugins"].is_array()) {
        throw malformed("no \"plugins\" list");
    }
    std::vector<std::string> ids;
    for (const auto &id : parsed["plugins"]) {
        if (!id.is_string()) {
            throw malformed("a plugin id that is not a string: " + id.dump());
        }
        ids.push_back(id.get<std::string>());
    }
    return ids;
}

bool module_found_by_any(const std::filesystem::path &module, const std::vector<std::string> &plugin_ids) {
    const auto listed_in = [&](const std::vector<std::string> &ids) {
        return std::any_of(ids.begin(), ids.end(), [&](const std::string &id) {
            return std::find(plugin_ids.begin(), plugin_ids.end(), id) != plugin_ids.end();
        });
    };
    const auto named_for = [&](const std::string &id) { return module.filename() == module_file_name(id); };
    if (std::any_of(plugin_ids.begin(), plugin_ids.end(), named_for)) {
        return true;
    }
    const auto listed = read_module_manifest(module);
    return listed && listed_in(*listed);
}

bool module_found_by_id(const std::filesystem::path &module, std::string_view plugin_id) {
    try {
        return module_found_by_any(module, {std::string{plugin_id}});
    } catch (const std::runtime_error &) {
        return false;
    }
}

} // namespace starling::plugins
