// SPDX-License-Identifier: Apache-2.0
#pragma once

// What an adapter reads from the agent's own record of past sessions (starling.session-history/1,
// since ABI 1.8), for `starling import history`.

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace starling::sdk {

/// One thing the user said in a session the agent recorded itself.
struct RecordedPrompt {
    std::string text;
    std::string time;              ///< ISO 8601, as the agent recorded it; empty when it did not
    std::string session_id;
    std::string working_directory; ///< absolute, as the agent recorded it; empty when it did not
};

[[nodiscard]] inline nlohmann::json to_json(const std::vector<RecordedPrompt> &prompts) {
    nlohmann::json json = nlohmann::json::array();
    for (const auto &prompt : prompts) {
        json.push_back({{"text", prompt.text},
                        {"time", prompt.time},
                        {"session_id", prompt.session_id},
                        {"working_directory", prompt.working_directory}});
    }
    return json;
}

/// Throws std::invalid_argument naming the first malformed entry.
[[nodiscard]] inline std::vector<RecordedPrompt> recorded_prompts_from_json(const nlohmann::json &json) {
    if (!json.is_array()) {
        throw std::invalid_argument("recorded prompts are not a JSON array");
    }
    std::vector<RecordedPrompt> prompts;
    for (std::size_t index = 0; index < json.size(); ++index) {
        const auto &entry = json[index];
        const auto text = [&](const char *key, bool required) {
            const auto found = entry.find(key);
            if (found == entry.end() && !required) {
                return std::string{};
            }
            if (found == entry.end() || !found->is_string()) {
                throw std::invalid_argument("recorded prompt " + std::to_string(index) + ": \"" + key +
                                            "\" must be a string");
            }
            return found->get<std::string>();
        };
        if (!entry.is_object()) {
            throw std::invalid_argument("recorded prompt " + std::to_string(index) + " is not an object");
        }
        prompts.push_back({text("text", true), text("time", false), text("session_id", false),
                           text("working_directory", false)});
    }
    return prompts;
}

} // namespace starling::sdk
