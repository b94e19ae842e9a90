// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/event.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace starling::sdk {

/// One user message put to a decision policy.
struct Message {
    std::string text;
    std::string agent;
    std::string project; ///< project id, empty outside a project
};

/// A decision policy's verdict on one message.
struct Decision {
    bool store = false;
    std::string type;  ///< "feedback", "user", "project", "reference" when stored
    std::string scope; ///< "user" or "project" when stored
    std::string reason;
    std::string summary; ///< one line, for the memory's frontmatter
    std::vector<std::string> tags;
};

/// What the text that asks the model to review recent messages is about.
struct ReviewRequest {
    int message_count = 0;
    std::string session_log; ///< path of the session's message log
    std::string agent;
};

/// One step of a decay plan. The host applies it under the store lock.
struct LifecycleAction {
    enum class Kind { archive, mark_review, clear_review, promote, merge };
    Kind kind = Kind::archive;
    std::string key;  ///< the memory acted on
    std::string into; ///< merge only: the memory that absorbs `key`
    std::string reason;
};

[[nodiscard]] inline std::string_view to_string(LifecycleAction::Kind kind) noexcept {
    switch (kind) {
    case LifecycleAction::Kind::archive: return "archive";
    case LifecycleAction::Kind::mark_review: return "mark_review";
    case LifecycleAction::Kind::clear_review: return "clear_review";
    case LifecycleAction::Kind::promote: return "promote";
    case LifecycleAction::Kind::merge: return "merge";
    }
    return "archive";
}

[[nodiscard]] inline std::optional<LifecycleAction::Kind> lifecycle_action_from_string(std::string_view text) noexcept {
    using Kind = LifecycleAction::Kind;
    for (const auto kind : {Kind::archive, Kind::mark_review, Kind::clear_review, Kind::promote, Kind::merge}) {
        if (to_string(kind) == text) {
            return kind;
        }
    }
    return std::nullopt;
}

[[nodiscard]] inline nlohmann::json to_json(const Message &message) {
    return {{"text", message.text}, {"agent", message.agent}, {"project", message.project}};
}

[[nodiscard]] inline Message message_from_json(const nlohmann::json &json) {
    if (!json.is_object()) {
        throw std::invalid_argument("message is not a JSON object");
    }
    return Message{detail::string_field(json, "text"), detail::string_field(json, "agent"),
                   detail::string_field(json, "project")};
}

[[nodiscard]] inline nlohmann::json to_json(const Decision &decision) {
    return {{"decision", decision.store ? "store" : "discard"},
            {"type", decision.type},
            {"scope", decision.scope},
            {"reason", decision.reason},
            {"summary", decision.summary},
            {"tags", decision.tags}};
}

[[nodiscard]] inline Decision decision_from_json(const nlohmann::json &json) {
    if (!json.is_object()) {
        throw std::invalid_argument("decision is not a JSON object");
    }
    Decision decision;
    const auto verdict = detail::string_field(json, "decision");
    if (verdict != "store" && verdict != "discard") {
        throw std::invalid_argument("decision field 'decision' must be \"store\" or \"discard\", not '" + verdict + "'");
    }
    decision.store = verdict == "store";
    decision.type = detail::string_field(json, "type");
    decision.scope = detail::string_field(json, "scope");
    if (decision.store && decision.scope != "user" && decision.scope != "project") {
        throw std::invalid_argument("decision field 'scope' must be \"user\" or \"project\", not '" + decision.scope +
                                    "'");
    }
    decision.reason = detail::string_field(json, "reason");
    decision.summary = detail::string_field(json, "summary");
    if (const auto tags = json.find("tags"); tags != json.end() && !tags->is_null()) {
        if (!tags->is_array()) {
            throw std::invalid_argument("decision field 'tags' is not an array");
        }
        for (const auto &tag : *tags) {
            if (!tag.is_string()) {
                throw std::invalid_argument("decision field 'tags' holds a non-string item");
            }
            decision.tags.push_back(tag.get<std::string>());
        }
    }
    return decision;
}

[[nodiscard]] inline nlohmann::json to_json(const ReviewRequest &request) {
    return {{"message_count", request.message_count}, {"session_log", request.session_log}, {"agent", request.agent}};
}

[[nodiscard]] inline ReviewRequest review_request_from_json(const nlohmann::json &json) {
    if (!json.is_object()) {
        throw std::invalid_argument("review request is not a JSON object");
    }
    ReviewRequest request;
    if (const auto count = json.find("message_count"); count != json.end() && count->is_number_integer()) {
        request.message_count = count->get<int>();
    }
    request.session_log = detail::string_field(json, "session_log");
    request.agent = detail::string_field(json, "agent");
    return request;
}

[[nodiscard]] inline nlohmann::json to_json(const LifecycleAction &action) {
    nlohmann::json json{{"action", to_string(action.kind)}, {"key", action.key}, {"reason", action.reason}};
    if (action.kind == LifecycleAction::Kind::merge) {
        json["into"] = action.into;
    }
    return json;
}

[[nodiscard]] inline LifecycleAction lifecycle_action_from_json(const nlohmann::json &json) {
    if (!json.is_object()) {
        throw std::invalid_argument("lifecycle action is not a JSON object");
    }
    LifecycleAction action;
    const auto kind_text = detail::string_field(json, "action");
    const auto kind = lifecycle_action_from_string(kind_text);
    if (!kind) {
        throw std::invalid_argument("lifecycle action has unknown 'action' value '" + kind_text + "'");
    }
    action.kind = *kind;
    action.key = detail::string_field(json, "key");
    if (action.key.empty()) {
        throw std::invalid_argument("lifecycle action '" + kind_text + "' has no 'key'");
    }
    action.into = detail::string_field(json, "into");
    if (action.kind == LifecycleAction::Kind::merge && action.into.empty()) {
        throw std::invalid_argument("lifecycle action 'merge' of '" + action.key + "' has no 'into'");
    }
    action.reason = detail::string_field(json, "reason");
    return action;
}

} // namespace starling::sdk
