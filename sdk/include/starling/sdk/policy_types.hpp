// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/event.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace starling::sdk {

/// One user message put to a decision policy.
struct Message {
    std::string text;
    std::string agent;
    std::string project; ///< project id, empty outside a project
    // Since ABI 1.6. Default member initializer: messages written before list only the above.
    /// How closely the message restates the memory closest to it, in [0, 1], as the decay policy's
    /// duplicate judge sees it; negative when not computed (the policy did not ask, see
    /// DecisionPolicy::wants_closest_similarity) or when no memory could be compared.
    double closest_similarity = -1.0;
    // Since ABI 1.9.
    /// The person asked for this message to be kept (`starling remember`, an agent's
    /// memory_remember): a policy may keep what it would otherwise drop for want of a signal of its
    /// own, not what it drops for a reason (a question, a request for now, an acknowledgement).
    bool asked_to_keep = false;
};

/// The value a field is given: removed (monostate), a scalar, or an inline list.
using FieldValue = std::variant<std::monostate, std::string, std::vector<std::string>>;

/// Frontmatter fields by name, in the order they are to be written.
using FieldValues = std::vector<std::pair<std::string, FieldValue>>;

/// A decision policy's verdict on one message.
struct Decision {
    bool store = false;
    std::string type;  ///< "feedback", "user", "project", "reference" when stored
    std::string scope; ///< "user" or "project" when stored
    std::string reason;
    std::string summary; ///< one line, for the memory's frontmatter
    std::vector<std::string> tags;
    // Since ABI 1.4. Default member initializers: decisions written before list only the above.
    /// Further frontmatter fields of the memory (`salience`, `layer`, a triple's `subject`, ...).
    FieldValues fields{};
    /// Identifies what the memory says: a memory of the scope that carries the same `dedupe_key`
    /// field is reinforced (one more use) instead of stored again. Empty: the decay policy's
    /// duplicate judge decides, as before.
    std::string dedupe_key{};
    /// The memory's text when it is not the whole message (one claim of it); empty: the message.
    std::string body{};
    /// More than one memory from one message: each claim is stored as if it were a decision of its
    /// own (store, type, scope, summary, tags, fields, dedupe_key, body, pin), in order. When a
    /// decision to store has claims, the claims are what is stored, not the decision itself.
    std::vector<Decision> claims{};
    // Since ABI 1.5.
    /// The user asked in so many words for this to be remembered ("remember that …"): the memory is
    /// pinned, as `starling remember` pins it, so that no plan archives, reviews or merges it away.
    bool pin = false;
};

/// What the text that asks the model to review recent messages is about.
struct ReviewRequest {
    int message_count = 0;
    std::string session_log; ///< path of the session's message log
    std::string agent;
};

/// The relation of a link that names none.
inline constexpr std::string_view default_link_relation = "related";

/// One step of a decay plan. The host applies it under the store lock.
struct LifecycleAction {
    /// set_field, pin, unpin, link, unlink, move and append since ABI 1.4.
    enum class Kind { archive, mark_review, clear_review, promote, merge, set_field, pin, unpin, link, unlink, move, append };
    Kind kind = Kind::archive;
    std::string key;  ///< the memory acted on
    std::string into; ///< merge: the memory that absorbs `key`; link and unlink: the other memory
    std::string reason;
    // Default member initializers: plans written before ABI 1.4 list only the members above.
    std::string field{};    ///< set_field: the frontmatter field
    FieldValue value{};     ///< set_field: its new value
    std::string relation{}; ///< link and unlink: e.g. "related", "supersedes"; empty means "related"
    std::string tier{};     ///< move: "short" or "long"
    std::string text{};     ///< append: the paragraph added to the memory's text
};

[[nodiscard]] inline std::string_view to_string(LifecycleAction::Kind kind) noexcept {
    switch (kind) {
    case LifecycleAction::Kind::archive: return "archive";
    case LifecycleAction::Kind::mark_review: return "mark_review";
    case LifecycleAction::Kind::clear_review: return "clear_review";
    case LifecycleAction::Kind::promote: return "promote";
    case LifecycleAction::Kind::merge: return "merge";
    case LifecycleAction::Kind::set_field: return "set_field";
    case LifecycleAction::Kind::pin: return "pin";
    case LifecycleAction::Kind::unpin: return "unpin";
    case LifecycleAction::Kind::link: return "link";
    case LifecycleAction::Kind::unlink: return "unlink";
    case LifecycleAction::Kind::move: return "move";
    case LifecycleAction::Kind::append: return "append";
    }
    return "archive";
}

[[nodiscard]] inline std::optional<LifecycleAction::Kind> lifecycle_action_from_string(std::string_view text) noexcept {
    using Kind = LifecycleAction::Kind;
    for (const auto kind : {Kind::archive, Kind::mark_review, Kind::clear_review, Kind::promote, Kind::merge,
                            Kind::set_field, Kind::pin, Kind::unpin, Kind::link, Kind::unlink, Kind::move,
                            Kind::append}) {
        if (to_string(kind) == text) {
            return kind;
        }
    }
    return std::nullopt;
}

/// A message as a decision request carries it; "closest_similarity" only when it was computed,
/// "asked_to_keep" only when set.
[[nodiscard]] inline nlohmann::json to_json(const Message &message) {
    nlohmann::json json{{"text", message.text}, {"agent", message.agent}, {"project", message.project}};
    if (message.closest_similarity >= 0.0) {
        json["closest_similarity"] = message.closest_similarity;
    }
    if (message.asked_to_keep) {
        json["asked_to_keep"] = true;
    }
    return json;
}

[[nodiscard]] inline Message message_from_json(const nlohmann::json &json) {
    if (!json.is_object()) {
        throw std::invalid_argument("message is not a JSON object");
    }
    Message message{detail::string_field(json, "text"), detail::string_field(json, "agent"),
                    detail::string_field(json, "project")};
    if (const auto similarity = json.find("closest_similarity"); similarity != json.end()) {
        if (!similarity->is_number() || !(similarity->get<double>() >= 0.0 && similarity->get<double>() <= 1.0)) {
            throw std::invalid_argument("message field 'closest_similarity' must be a number in [0, 1], not " +
                                        similarity->dump());
        }
        message.closest_similarity = similarity->get<double>();
    }
    if (const auto asked = json.find("asked_to_keep"); asked != json.end()) {
        if (!asked->is_boolean()) {
            throw std::invalid_argument("message field 'asked_to_keep' must be true or false, not " + asked->dump());
        }
        message.asked_to_keep = asked->get<bool>();
    }
    return message;
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

[[nodiscard]] inline nlohmann::json to_json(const FieldValue &value) {
    if (const auto *text = std::get_if<std::string>(&value)) {
        return *text;
    }
    if (const auto *items = std::get_if<std::vector<std::string>>(&value)) {
        return *items;
    }
    return nullptr;
}

[[nodiscard]] inline nlohmann::json to_json(const Decision &decision) {
    nlohmann::json json{{"decision", decision.store ? "store" : "discard"},
                        {"type", decision.type},
                        {"scope", decision.scope},
                        {"reason", decision.reason},
                        {"summary", decision.summary},
                        {"tags", decision.tags}};
    if (!decision.fields.empty()) {
        nlohmann::json fields = nlohmann::json::object();
        for (const auto &[name, value] : decision.fields) {
            fields[name] = to_json(value);
        }
        json["fields"] = std::move(fields);
    }
    if (!decision.dedupe_key.empty()) {
        json["dedupe_key"] = decision.dedupe_key;
    }
    if (!decision.body.empty()) {
        json["body"] = decision.body;
    }
    if (decision.pin) {
        json["pin"] = true;
    }
    if (!decision.claims.empty()) {
        nlohmann::json claims = nlohmann::json::array();
        for (const auto &claim : decision.claims) {
            claims.push_back(to_json(claim));
        }
        json["claims"] = std::move(claims);
    }
    return json;
}

namespace detail {

[[nodiscard]] inline std::vector<std::string> string_list_field(const nlohmann::json &json, const char *key,
                                                                const std::string &what) {
    std::vector<std::string> items;
    if (const auto found = json.find(key); found != json.end() && !found->is_null()) {
        if (!found->is_array()) {
            throw std::invalid_argument(what + " field '" + key + "' is not an array");
        }
        for (const auto &item : *found) {
            if (!item.is_string()) {
                throw std::invalid_argument(what + " field '" + key + "' holds a non-string item");
            }
            items.push_back(item.get<std::string>());
        }
    }
    return items;
}

[[nodiscard]] inline FieldValues field_values_from_json(const nlohmann::json &json, const std::string &what) {
    FieldValues values;
    const auto found = json.find("fields");
    if (found == json.end() || found->is_null()) {
        return values;
    }
    if (!found->is_object()) {
        throw std::invalid_argument(what + " field 'fields' is not an object");
    }
    for (const auto &[name, value] : found->items()) {
        if (value.is_string()) {
            values.emplace_back(name, value.get<std::string>());
        } else if (value.is_array()) {
            values.emplace_back(name, string_list_field(*found, name.c_str(), what + " 'fields'"));
        } else if (value.is_null()) {
            values.emplace_back(name, std::monostate{});
        } else {
            throw std::invalid_argument(what + " field 'fields': '" + name +
                                        "' must be a string, an array of strings or null");
        }
    }
    return values;
}

} // namespace detail

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
    decision.reason = detail::string_field(json, "reason");
    decision.summary = detail::string_field(json, "summary");
    decision.tags = detail::string_list_field(json, "tags", "decision");
    decision.fields = detail::field_values_from_json(json, "decision");
    decision.dedupe_key = detail::string_field(json, "dedupe_key");
    decision.body = detail::string_field(json, "body");
    if (const auto pin = json.find("pin"); pin != json.end() && !pin->is_null()) {
        if (!pin->is_boolean()) {
            throw std::invalid_argument("decision field 'pin' must be true or false");
        }
        decision.pin = pin->get<bool>();
    }
    if (const auto claims = json.find("claims"); claims != json.end() && !claims->is_null()) {
        if (!claims->is_array()) {
            throw std::invalid_argument("decision field 'claims' is not an array");
        }
        for (const auto &claim : *claims) {
            Decision parsed = decision_from_json(claim);
            if (!parsed.claims.empty()) {
                throw std::invalid_argument("a claim cannot have claims of its own");
            }
            decision.claims.push_back(std::move(parsed));
        }
    }
    const bool stores_itself = decision.store && decision.claims.empty();
    if (stores_itself && decision.scope != "user" && decision.scope != "project") {
        throw std::invalid_argument("decision field 'scope' must be \"user\" or \"project\", not '" + decision.scope +
                                    "'");
    }
    return decision;
}

[[nodiscard]] inline nlohmann::json to_json(const LifecycleAction &action) {
    using Kind = LifecycleAction::Kind;
    nlohmann::json json{{"action", to_string(action.kind)}, {"key", action.key}, {"reason", action.reason}};
    switch (action.kind) {
    case Kind::merge: json["into"] = action.into; break;
    case Kind::set_field:
        json["field"] = action.field;
        json["value"] = to_json(action.value);
        break;
    case Kind::link:
    case Kind::unlink:
        json["into"] = action.into;
        json["relation"] = action.relation.empty() ? std::string{default_link_relation} : action.relation;
        break;
    case Kind::move: json["tier"] = action.tier; break;
    case Kind::append: json["text"] = action.text; break;
    default: break;
    }
    return json;
}

namespace detail {

[[nodiscard]] inline FieldValue field_value_from_json(const nlohmann::json &json, const std::string &key) {
    const auto found = json.find("value");
    if (found == json.end() || found->is_null()) {
        return std::monostate{};
    }
    if (found->is_string()) {
        return found->get<std::string>();
    }
    if (found->is_array()) {
        std::vector<std::string> items;
        for (const auto &item : *found) {
            if (!item.is_string()) {
                throw std::invalid_argument("lifecycle action 'set_field' of '" + key +
                                            "': 'value' holds an item that is not a string");
            }
            items.push_back(item.get<std::string>());
        }
        return items;
    }
    throw std::invalid_argument("lifecycle action 'set_field' of '" + key +
                                "': 'value' must be a string, an array of strings or null");
}

} // namespace detail

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
    using Kind = LifecycleAction::Kind;
    action.into = detail::string_field(json, "into");
    const bool needs_other = action.kind == Kind::merge || action.kind == Kind::link || action.kind == Kind::unlink;
    if (needs_other && action.into.empty()) {
        throw std::invalid_argument("lifecycle action '" + kind_text + "' of '" + action.key + "' has no 'into'");
    }
    action.reason = detail::string_field(json, "reason");
    if (action.kind == Kind::set_field) {
        action.field = detail::string_field(json, "field");
        if (action.field.empty()) {
            throw std::invalid_argument("lifecycle action 'set_field' of '" + action.key + "' has no 'field'");
        }
        action.value = detail::field_value_from_json(json, action.key);
    }
    if (action.kind == Kind::link || action.kind == Kind::unlink) {
        action.relation = detail::string_field(json, "relation");
        if (action.relation.empty()) {
            action.relation = default_link_relation;
        }
        // A link is written `<relation>:<id>`: a relation is a plain word, so the two never blur.
        for (const char character : action.relation) {
            if (!((character >= 'a' && character <= 'z') || (character >= '0' && character <= '9') ||
                  character == '_' || character == '-')) {
                throw std::invalid_argument("lifecycle action '" + kind_text + "' of '" + action.key +
                                            "': 'relation' must be lowercase letters, digits, '_' or '-', not '" +
                                            action.relation + "'");
            }
        }
    }
    if (action.kind == Kind::append) {
        action.text = detail::string_field(json, "text");
        if (action.text.find_first_not_of(" \t\r\n") == std::string::npos) {
            throw std::invalid_argument("lifecycle action 'append' of '" + action.key + "' has no 'text'");
        }
    }
    if (action.kind == Kind::move) {
        action.tier = detail::string_field(json, "tier");
        if (action.tier != "short" && action.tier != "long") {
            throw std::invalid_argument("lifecycle action 'move' of '" + action.key +
                                        "' needs 'tier' \"short\" or \"long\", not '" + action.tier + "'");
        }
    }
    return action;
}

} // namespace starling::sdk
