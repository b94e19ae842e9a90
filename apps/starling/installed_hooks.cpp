// SPDX-License-Identifier: Apache-2.0
#include "installed_hooks.hpp"

namespace starling::app {

namespace {

bool runs_program(const HookProgram &program, const nlohmann::ordered_json &handler) {
    return handler.is_object() && handler.contains("command") && handler["command"].is_string() &&
           runs_hook_program(program, handler["command"].get<std::string>());
}

nlohmann::json plain(const nlohmann::ordered_json &json) { return nlohmann::json::parse(json.dump()); }

} // namespace

std::vector<InstalledHook> installed_hooks(const HookProgram &program, sdk::HookFileShape shape,
                                           const nlohmann::ordered_json &config) {
    std::vector<InstalledHook> found;
    if (!config.is_object() || !config.contains("hooks") || !config["hooks"].is_object()) {
        return found;
    }
    for (const auto &[event, entries] : config["hooks"].items()) {
        if (!entries.is_array()) {
            continue;
        }
        for (std::size_t group = 0; group < entries.size(); ++group) {
            const auto &entry = entries[group];
            if (shape == sdk::HookFileShape::flat) {
                if (runs_program(program, entry)) {
                    found.push_back({event, group, 0, std::nullopt, plain(entry)});
                }
                continue;
            }
            if (!entry.is_object() || !entry.contains("hooks") || !entry["hooks"].is_array()) {
                continue;
            }
            std::optional<std::string> matcher;
            if (entry.contains("matcher") && entry["matcher"].is_string()) {
                matcher = entry["matcher"].get<std::string>();
            }
            for (std::size_t index = 0; index < entry["hooks"].size(); ++index) {
                if (runs_program(program, entry["hooks"][index])) {
                    found.push_back({event, group, index, matcher, plain(entry["hooks"][index])});
                }
            }
        }
    }
    return found;
}

std::vector<TrustedHook> trust_records(const sdk::HookTrust &trust, const std::filesystem::path &hooks_file,
                                       const std::vector<InstalledHook> &hooks) {
    std::vector<TrustedHook> records;
    for (const auto &hook : hooks) {
        auto defaults = plain(trust.handler_defaults);
        if (const auto own = trust.event_handler_defaults.find(hook.event); own != trust.event_handler_defaults.end()) {
            defaults.update(plain(*own));
        }
        records.push_back({trust_key(hooks_file.string(), hook.event, hook.group, hook.index),
                           trusted_hook_hash(hook.event, hook.matcher, hook.handler, defaults)});
    }
    return records;
}

} // namespace starling::app
