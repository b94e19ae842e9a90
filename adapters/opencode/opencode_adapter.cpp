// SPDX-License-Identifier: Apache-2.0
//
// opencode: OpenCode has no command hooks, only JS plugins (more-agents §3). Starling's plugin,
// starling.js beside this file, passes OpenCode's moments on to the hook program as Claude-style
// events and applies the replies: a top-level `additionalContext` goes into the system prompt (at
// session start), a synthetic part of the user's message (at a prompt), the tool's output (after a
// tool) or the compaction summary. Nothing can be blocked from there, so no reply blocks.
#include "opencode_plugin_source.hpp"

#include <starling/adapters/hook_invocation.hpp>
#include <starling/adapters/replies.hpp>
#include <starling/adapters/tool_intents.hpp>

#include <starling/sdk/plugin.hpp>

namespace {

using starling::adapters::Json;
using starling::sdk::EventKind;

struct OpenCodeReplyRules {
    bool context; ///< the plugin puts additionalContext where the model reads it
};

using OpenCodeEvent = starling::adapters::EventSpec<OpenCodeReplyRules>;

constexpr OpenCodeEvent kEvents[] = {
    {"SessionStart", EventKind::session_started, {true}},  {"UserPromptSubmit", EventKind::prompt_submitted, {true}},
    {"PostToolUse", EventKind::tool_used, {true}},         {"PreCompact", EventKind::context_compacting, {true}},
    {"Stop", EventKind::turn_stopped, {false}},            {"SessionEnd", EventKind::session_ended, {false}},
    {"SubagentStart", EventKind::subagent_started, {true}}, // a child session of the task tool
};

constexpr std::string_view kFilePathKeys[] = {"filePath", "file_path", "path"};

// more-agents §3.1 and §4. The plugin goes where OpenCode discovers plugins by itself
// (~/.config/opencode/plugins, $OPENCODE_CONFIG_DIR), MCP servers into opencode.json's "mcp", and
// the instructions into the AGENTS.md OpenCode reads from its folder and from the project.
starling::sdk::AgentIntegration agent_integration() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "OpenCode";
    agent.user_folder = {".config/opencode", "OPENCODE_CONFIG_DIR"};
    agent.hooks.shape = HookFileShape::module;
    agent.hooks.user_path = "plugins/starling.js";
    agent.hooks.project_path = ".opencode/plugins/starling.js";
    agent.hooks.module_source = std::string{kOpenCodePluginSource};
    for (const auto &event : kEvents) {
        agent.hooks.events.push_back({std::string{event.name}, ""});
    }
    agent.instructions =
        Instructions{InstructionsPlacement::section, "AGENTS.md", "AGENTS.md", "## Starling memory\n\n"};
    agent.mcp = McpServers{McpFileShape::json_local, "opencode.json", false, "opencode.json",
                           {{"type", "local"}, {"enabled", true}}};
    return agent;
}

class OpenCodeAdapter final : public starling::sdk::Adapter {
public:
    OpenCodeAdapter(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings & /*settings*/) {}

    starling::sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) override {
        using starling::adapters::text_field;
        auto invocation = starling::adapters::read_invocation(argv, payload);
        const Json &fields = invocation.payload;
        auto event = starling::adapters::begin_event("opencode", std::move(invocation.event_name),
                                                     std::span<const OpenCodeEvent>{kEvents});
        event.session_id = text_field(fields, "session_id");
        event.working_directory = text_field(fields, "cwd");
        if (event.kind == EventKind::prompt_submitted) {
            event.prompt = text_field(fields, "prompt");
        }
        if (event.kind == EventKind::tool_used) {
            event.tool = starling::adapters::describe_tool(starling::adapters::opencode_tools(),
                                                           text_field(fields, "tool_name"),
                                                           starling::adapters::object_field(fields, "tool_input"),
                                                           kFilePathKeys, event.working_directory);
        }
        for (const auto key : {"source", "trigger", "reason"}) {
            if (auto value = text_field(fields, key); !value.empty()) {
                event.details[key] = std::move(value);
            }
        }
        return event;
    }

    std::optional<starling::sdk::AgentIntegration> integration() override { return agent_integration(); }

    starling::sdk::RenderedReply render(const starling::sdk::Event &event, const starling::sdk::Reply &reply) override {
        const auto *spec = starling::adapters::answered_event(std::span<const OpenCodeEvent>{kEvents}, event);
        if (spec == nullptr || !spec->reply.context || reply.context.empty()) {
            return starling::adapters::silent_reply();
        }
        return starling::adapters::json_reply(Json{{"additionalContext", reply.context}});
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(opencode, OpenCodeAdapter, "opencode", "1.0.0",
                        "OpenCode, through Starling's JS plugin: Claude-style events in, additionalContext out", "{}")
