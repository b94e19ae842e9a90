// SPDX-License-Identifier: Apache-2.0
#include "installed_hooks.hpp"

#include <starling/sdk/shell_words.hpp>

namespace starling::app {

nlohmann::ordered_json starling_handler(const HookProgram &program, const sdk::HookFile &file, const std::string &event) {
    nlohmann::ordered_json handler = nlohmann::ordered_json::object();
    if (file.shape == sdk::HookFileShape::grouped) {
        handler["type"] = "command";
    }
    handler.update(file.handler_fields);
    if (file.handler_form == sdk::HookHandlerForm::exec) {
        const auto words = hook_command_words(program, event);
        handler["exec"] = words.front();
        handler["args"] = std::vector<std::string>(words.begin() + 1, words.end());
    } else {
        handler["command"] = hook_command(program, event);
    }
    return handler;
}

std::optional<std::string> handler_command_line(const nlohmann::ordered_json &handler) {
    if (!handler.is_object()) {
        return std::nullopt;
    }
    if (const auto command = handler.find("command"); command != handler.end() && command->is_string()) {
        return command->get<std::string>();
    }
    const auto exec = handler.find("exec");
    if (exec == handler.end() || !exec->is_string()) {
        return std::nullopt;
    }
    std::string line = sdk::shell_quote(exec->get<std::string>());
    if (const auto args = handler.find("args"); args != handler.end() && args->is_array()) {
        for (const auto &arg : *args) {
            if (!arg.is_string()) {
                return std::nullopt;
            }
            line += " " + sdk::shell_quote(arg.get<std::string>());
        }
    }
    return line;
}

bool runs_starling_hook(const HookProgram &program, const nlohmann::ordered_json &handler) {
    const auto line = handler_command_line(handler);
    return line && runs_hook_program(program, *line);
}

std::string InstalledHook::program() const {
    if (const auto exec = handler.find("exec"); exec != handler.end() && exec->is_string()) {
        return exec->get<std::string>();
    }
    const auto words = sdk::split_shell_words(handler.value("command", std::string{}));
    return words && !words->empty() && !words->front().is_operator ? words->front().text : std::string{};
}

namespace {

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
                if (runs_starling_hook(program, entry)) {
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
                if (runs_starling_hook(program, entry["hooks"][index])) {
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
