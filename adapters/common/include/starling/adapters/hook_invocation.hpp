// SPDX-License-Identifier: Apache-2.0
//
// Reading one hook call, whatever the agent: the payload, the event name, and the frame of the
// canonical event, driven by each adapter's table of the agent's events.
#pragma once

#include <starling/adapters/json_fields.hpp>
#include <starling/adapters/text.hpp>

#include <starling/sdk/event.hpp>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::adapters {

/// One event of an agent: its name in the agent's spelling, its canonical kind, and `Rules`, the
/// adapter's description of which reply channels the agent honours for it.
template <class Rules>
struct EventSpec {
    std::string_view name;
    sdk::EventKind kind;
    Rules reply;
};

template <class Rules>
[[nodiscard]] const EventSpec<Rules> *find_event(std::span<const EventSpec<Rules>> table,
                                                 std::string_view name) noexcept {
    const auto found = std::find_if(table.begin(), table.end(), [&](const EventSpec<Rules> &spec) {
        return equal_ignoring_ascii_case(spec.name, name);
    });
    return found == table.end() ? nullptr : &*found;
}

struct HookInvocation {
    Json payload;           ///< always an object
    std::string event_name; ///< as the payload or the command line spelled it
};

/// Reads one hook call: the payload (blank means `{}`), and the event name from the payload's
/// `name_field`, else from argv[0], where the hook command line carries it. Throws
/// std::invalid_argument for malformed JSON and when neither names the event.
[[nodiscard]] HookInvocation read_invocation(const std::vector<std::string> &argv,
                                             std::string_view payload_text,
                                             std::string_view name_field = "hook_event_name");

/// The frame of a canonical event: adapter id, the event name as given, its kind, and
/// details.hook_event_name, the agent's own spelling of the event that render answers to. An event
/// the table lacks is `other` and keeps the given spelling.
[[nodiscard]] sdk::Event begin_event(std::string_view agent, std::string given_name,
                                     std::string_view known_name, sdk::EventKind kind);

template <class Rules>
[[nodiscard]] sdk::Event begin_event(std::string_view agent, std::string given_name,
                                     std::span<const EventSpec<Rules>> table) {
    const auto *spec = find_event(table, given_name);
    return begin_event(agent, std::move(given_name), spec != nullptr ? spec->name : std::string_view{},
                       spec != nullptr ? spec->kind : sdk::EventKind::other);
}

/// The event name a reply answers to: details.hook_event_name, else agent_event (an event built by
/// the host after a failed parse carries no details).
[[nodiscard]] std::string answered_event_name(const sdk::Event &event);

template <class Rules>
[[nodiscard]] const EventSpec<Rules> *answered_event(std::span<const EventSpec<Rules>> table,
                                                     const sdk::Event &event) noexcept {
    return find_event(table, answered_event_name(event));
}

} // namespace starling::adapters
