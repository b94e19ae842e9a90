// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/hook_invocation.hpp>

#include <stdexcept>

namespace starling::adapters {

HookInvocation read_invocation(const std::vector<std::string> &argv, std::string_view payload_text,
                               std::string_view name_field) {
    HookInvocation invocation{parse_json_object(payload_text, "hook payload"), {}};
    invocation.event_name = text_field(invocation.payload, name_field);
    if (invocation.event_name.empty() && !argv.empty()) {
        invocation.event_name = argv.front();
    }
    if (!has_visible_text(invocation.event_name)) {
        throw std::invalid_argument("no hook_event_name in payload or arguments");
    }
    return invocation;
}

sdk::Event begin_event(std::string_view agent, std::string given_name, std::string_view known_name,
                       sdk::EventKind kind) {
    sdk::Event event;
    event.kind = kind;
    event.agent = std::string{agent};
    event.details["hook_event_name"] = known_name.empty() ? given_name : std::string{known_name};
    event.agent_event = std::move(given_name);
    return event;
}

std::string answered_event_name(const sdk::Event &event) {
    auto name = text_field(event.details, "hook_event_name");
    return name.empty() ? event.agent_event : name;
}

} // namespace starling::adapters
