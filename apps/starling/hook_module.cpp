// SPDX-License-Identifier: Apache-2.0
#include "hook_module.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace starling::app {

namespace {

std::string_view first_line(std::string_view text) { return text.substr(0, text.find('\n')); }

} // namespace

std::string hook_module_text(const sdk::HookFile &file, const HookProgram &program) {
    std::string text = file.module_source;
    const std::string_view placeholder = sdk::kModuleHookCommandPlaceholder;
    const auto at = text.find(placeholder);
    if (at != std::string::npos) {
        text.replace(at, placeholder.size(), nlohmann::json(hook_program_words(program)).dump());
    }
    return text;
}

bool is_starling_module(const sdk::HookFile &file, std::string_view text) {
    const auto marker = first_line(file.module_source);
    return !marker.empty() && first_line(text) == marker;
}

std::optional<std::vector<std::string>> module_hook_program(const sdk::HookFile &file, std::string_view text) {
    // The placeholder's line in the source, before and after it, frames the array in the module.
    const std::string_view source = file.module_source;
    const auto at = source.find(sdk::kModuleHookCommandPlaceholder);
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    const auto line_start = source.rfind('\n', at) + 1;
    const auto prefix = source.substr(line_start, at - line_start);
    const auto begin = text.find(std::string{"\n"} + std::string{prefix});
    if (prefix.empty() || begin == std::string_view::npos) {
        return std::nullopt;
    }
    auto rest = text.substr(begin + 1 + prefix.size());
    rest = rest.substr(0, rest.find('\n'));
    const auto array = nlohmann::json::parse(rest.substr(0, rest.rfind(']') + 1), nullptr, false);
    if (!array.is_array() || array.empty() ||
        !std::all_of(array.begin(), array.end(), [](const auto &word) { return word.is_string(); })) {
        return std::nullopt;
    }
    return array.get<std::vector<std::string>>();
}

} // namespace starling::app
