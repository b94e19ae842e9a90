// SPDX-License-Identifier: Apache-2.0
//
// copilot: GitHub Copilot CLI's hooks (more-agents §2). Two payload styles, chosen by how the hooks
// file spells the event: camelCase keys (sessionStart …) bring camelCase fields and Copilot's own tool
// names; Claude's PascalCase keys bring snake_case fields and Claude's tool names. Either way the
// context reaches the model only as a top-level `additionalContext`: hookSpecificOutput and plain
// text are ignored.
#include <starling/adapters/hook_invocation.hpp>
#include <starling/adapters/recorded_sessions.hpp>
#include <starling/sdk/text/blanks.hpp>
#include <starling/adapters/replies.hpp>
#include <starling/adapters/subagents.hpp>
#include <starling/adapters/tool_intents.hpp>

#include <starling/sdk/plugin.hpp>

#include <array>

namespace {

using starling::sdk::text::trim_blanks;
using starling::adapters::Json;
using starling::sdk::EventKind;

enum class CopilotBlockForm {
    none,
    decision,     ///< {"decision":"block","reason":…}: refuses a prompt
    continuation, ///< the same at a stop: the reason becomes the next prompt (at most 8 in a row)
    deny_tool,    ///< {"permissionDecision":"deny","permissionDecisionReason":…}
};

struct CopilotReplyRules {
    bool context; ///< additionalContext reaches the model
    CopilotBlockForm block;
};

using CopilotEvent = starling::adapters::EventSpec<CopilotReplyRules>;

constexpr CopilotReplyRules kSilent{false, CopilotBlockForm::none};

// Events match without regard to case, so the Claude-compatible keys (PostToolUse …) find their
// camelCase entries; only UserPromptSubmit and Stop are spelled differently. preCompact's context has
// no documented effect; sessionEnd comes after every turn of a `-p` run ("complete").
constexpr CopilotEvent kEvents[] = {
    {"sessionStart", EventKind::session_started, {true, CopilotBlockForm::none}},
    {"userPromptSubmitted", EventKind::prompt_submitted, {true, CopilotBlockForm::decision}},
    {"UserPromptSubmit", EventKind::prompt_submitted, {true, CopilotBlockForm::decision}},
    {"userPromptTransformed", EventKind::other, kSilent},
    {"preToolUse", EventKind::other, {false, CopilotBlockForm::deny_tool}},
    {"postToolUse", EventKind::tool_used, {true, CopilotBlockForm::none}},
    {"postToolUseFailure", EventKind::other, kSilent},
    {"permissionRequest", EventKind::other, kSilent},
    {"agentStop", EventKind::turn_stopped, {false, CopilotBlockForm::continuation}},
    {"Stop", EventKind::turn_stopped, {false, CopilotBlockForm::continuation}},
    {"subagentStart", EventKind::subagent_started, {true, CopilotBlockForm::none}},
    {"subagentStop", EventKind::other, kSilent},
    {"preCompact", EventKind::context_compacting, kSilent},
    {"sessionEnd", EventKind::session_ended, kSilent},
    {"errorOccurred", EventKind::other, kSilent},
    {"notification", EventKind::other, kSilent},
};

constexpr std::string_view kFilePathKeys[] = {"path", "file_path"};

/// A text field of either payload style, and the one spelling the event's details keep it in.
struct DetailSpellings {
    std::string_view kept;
    std::array<std::string_view, 2> spellings; ///< camelCase and snake_case; one may be empty
};

constexpr DetailSpellings kDetails[] = {
    {"transcript_path", {"transcriptPath", "transcript_path"}},
    {"source", {"source", ""}},
    {"trigger", {"trigger", ""}},
    {"reason", {"reason", ""}},
    {"stop_reason", {"stopReason", "stop_reason"}},
};

// more-agents §2.1 and §4. User hooks in a file of Starling's own in ~/.copilot/hooks ($COPILOT_HOME),
// run without a shell; user-level hooks need no folder trust. Copilot also runs a project's
// .claude/settings.json hooks: the Claude Code adapter leaves a prompt it sees there to these.
starling::sdk::AgentIntegration agent_integration() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "Copilot CLI";
    agent.aliases = {"copilot-cli", "github-copilot"};
    agent.user_folder = {".copilot", "COPILOT_HOME"};
    agent.hooks.shape = HookFileShape::flat;
    agent.hooks.user_path = "hooks/starling.json";
    agent.hooks.project_path = ".github/hooks/starling.json";
    agent.hooks.required_fields = {{"version", 1}};
    agent.hooks.handler_form = HookHandlerForm::exec;
    agent.hooks.handler_fields = {{"type", "command"}};
    agent.hooks.events = {{"sessionStart", ""}, {"userPromptSubmitted", ""}, {"postToolUse", "view|bash"},
                          {"subagentStart", ""}, {"agentStop", ""},          {"preCompact", ""},
                          {"sessionEnd", ""}};
    agent.instructions = Instructions{InstructionsPlacement::section, "copilot-instructions.md",
                                      ".github/copilot-instructions.md", "## Starling memory\n\n"};
    agent.mcp = McpServers{McpFileShape::json, "mcp-config.json", false, "", {{"type", "local"}, {"tools", {"*"}}}};
    // An event log per session.
    agent.history = SessionHistory{{"session-state/*/events.jsonl"}};
    return agent;
}

/// A Copilot CLI session's events (~/.copilot/session-state/<session>/events.jsonl): `type`, `data`,
/// `timestamp` per line. The session and its directory are in session.start (and session.resume);
/// the user's prompts are user.message's `content` (its `transformedContent` is what Copilot added).
std::vector<starling::sdk::RecordedPrompt> read_events(std::string_view text) {
    using namespace starling::adapters;
    std::string session;
    std::string directory;
    std::vector<starling::sdk::RecordedPrompt> prompts;
    for_each_json_line(text, [&](const Json &record) {
        const auto type = text_field(record, "type");
        const auto data = object_field(record, "data");
        if (type == "session.start" || type == "session.resume") {
            if (auto id = text_field(data, "sessionId"); !id.empty()) {
                session = std::move(id);
            }
            if (auto cwd = text_field(object_field(data, "context"), "cwd"); !cwd.empty()) {
                directory = std::move(cwd);
            }
        } else if (type == "user.message") {
            if (auto said = std::string{trim_blanks(text_field(data, "content"))}; !said.empty()) {
                prompts.push_back({std::move(said), text_field(record, "timestamp"), session, directory});
            }
        }
    });
    return prompts;
}

class CopilotAdapter final : public starling::sdk::Adapter, public starling::sdk::SessionHistoryReader {
public:
    CopilotAdapter(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings & /*settings*/) {}

    starling::sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) override {
        using starling::adapters::text_field;
        auto invocation = starling::adapters::read_invocation(argv, payload);
        const Json &fields = invocation.payload;
        auto event = starling::adapters::begin_event("copilot", std::move(invocation.event_name),
                                                     std::span<const CopilotEvent>{kEvents});
        event.session_id = starling::adapters::first_text_field(fields, {"sessionId", "session_id"});
        event.working_directory = text_field(fields, "cwd");
        // Inside a subagent the prompt is its task, and agentStop (under the subagent's own
        // session) is the subagent's end: neither the user's prompt nor the end of their turn.
        if ((event.kind == EventKind::prompt_submitted || event.kind == EventKind::turn_stopped) &&
            starling::adapters::inside_subagent(fields)) {
            event.kind = EventKind::other;
        }
        if (event.kind == EventKind::prompt_submitted) {
            event.prompt = text_field(fields, "prompt");
        }
        if (event.kind == EventKind::tool_used) {
            const auto name = starling::adapters::first_text_field(fields, {"toolName", "tool_name"});
            auto input = starling::adapters::object_field(fields, "toolArgs");
            if (input.empty()) {
                input = starling::adapters::object_field(fields, "tool_input");
            }
            event.tool = starling::adapters::describe_tool(starling::adapters::copilot_tools(), name, input,
                                                           kFilePathKeys, event.working_directory);
        }
        // Kept in one spelling for the renderer and the host, whichever style the payload had.
        for (const auto &detail : kDetails) {
            for (const auto spelling : detail.spellings) {
                if (auto value = text_field(fields, spelling); !spelling.empty() && !value.empty()) {
                    event.details[std::string{detail.kept}] = std::move(value);
                    break;
                }
            }
        }
        if (const auto active = starling::adapters::bool_field(fields, "stop_hook_active")) {
            event.details["stop_hook_active"] = *active;
        }
        return event;
    }

    std::optional<starling::sdk::AgentIntegration> integration() override { return agent_integration(); }

    std::vector<starling::sdk::RecordedPrompt> read_history(std::string_view /*path*/, std::string_view text) override {
        return read_events(text);
    }

    starling::sdk::RenderedReply render(const starling::sdk::Event &event, const starling::sdk::Reply &reply) override {
        const auto *spec = starling::adapters::answered_event(std::span<const CopilotEvent>{kEvents}, event);
        if (spec == nullptr) {
            return starling::adapters::silent_reply();
        }
        Json out = Json::object();
        if (spec->reply.context && !reply.context.empty()) {
            out["additionalContext"] = reply.context;
        }
        add_block(spec->reply.block, event, reply, out);
        return out.empty() ? starling::adapters::silent_reply() : starling::adapters::json_reply(out);
    }

private:
    static void add_block(CopilotBlockForm form, const starling::sdk::Event &event, const starling::sdk::Reply &reply,
                          Json &out) {
        if (form == CopilotBlockForm::continuation) {
            // Never while a stop hook already keeps the turn going; Copilot always says whether one does.
            const auto instruction = starling::adapters::continuation_instruction(reply);
            if (instruction && starling::adapters::bool_field(event.details, "stop_hook_active") == false) {
                out["decision"] = "block";
                out["reason"] = *instruction;
            }
            return;
        }
        const auto reason = starling::adapters::block_reason(reply);
        if (!reason || form == CopilotBlockForm::none) {
            return;
        }
        if (form == CopilotBlockForm::decision) {
            out["decision"] = "block";
            out["reason"] = *reason;
        } else {
            out["permissionDecision"] = "deny";
            out["permissionDecisionReason"] = *reason;
        }
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(copilot, CopilotAdapter, "copilot", "1.0.0",
                        "GitHub Copilot CLI hooks: both payload styles to canonical events, top-level "
                        "additionalContext replies",
                        "{}")
