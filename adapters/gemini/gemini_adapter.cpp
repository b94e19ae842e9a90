// SPDX-License-Identifier: Apache-2.0
//
// gemini: Gemini CLI's hooks (more-agents §1). Claude-like: PascalCase events of its own, a JSON
// payload on stdin with session_id/cwd/tool_name/tool_input, and replies in hookSpecificOutput.
// What differs: the prompt hook is BeforeAgent and the stop hook AfterAgent; plain text on stdout
// reaches only the user, so context is always JSON; PreCompress fires on every model turn ("auto")
// whether or not anything is compressed; a headless run prepends the session-start context to the
// prompt it hands BeforeAgent; and hooks load only in folders the user trusts.
#include <starling/adapters/claude_style.hpp>
#include <starling/adapters/paths.hpp>
#include <starling/adapters/replies.hpp>
#include <starling/adapters/recorded_sessions.hpp>
#include <starling/sdk/text/blanks.hpp>

#include <algorithm>

#include <string_view>

namespace {

using starling::sdk::text::trim_blanks;
using starling::adapters::ClaudeStyleEvent;
using starling::adapters::Json;
using starling::sdk::EventKind;
namespace rules = starling::adapters::claude_rules;

// Gemini CLI runs no hook when a subagent starts, and the subagent's context holds none of the
// session's: its only way in is the task itself. BeforeTool of the tool that starts one
// (invoke_agent) is therefore its start, and the reply puts the context before the task.
constexpr std::string_view kSubagentTool = "invoke_agent";

// SessionStart, SessionEnd, PreCompress and Notification are advisory: only systemMessage is shown.
// A block at AfterAgent retries the turn with the reason as the prompt, as Claude's Stop does.
// BeforeModel/AfterModel fire per request and per streamed chunk: they get nothing.
constexpr ClaudeStyleEvent kEvents[] = {
    {"SessionStart", EventKind::session_started, rules::context},
    {"BeforeAgent", EventKind::prompt_submitted, rules::context_or_block},
    {"BeforeTool", EventKind::other, rules::silent},
    {"AfterTool", EventKind::tool_used, rules::context_or_block},
    {"AfterAgent", EventKind::turn_stopped, rules::message_or_continue},
    {"PreCompress", EventKind::context_compacting, rules::message},
    {"SessionEnd", EventKind::session_ended, rules::silent},
    {"BeforeModel", EventKind::other, rules::silent},
    {"AfterModel", EventKind::other, rules::silent},
    {"BeforeToolSelection", EventKind::other, rules::silent},
    {"Notification", EventKind::other, rules::silent},
};

constexpr std::string_view kFilePathKeys[] = {"file_path", "absolute_path", "path"};

constexpr starling::adapters::DetailField kGeminiDetails[] = {
    {"timestamp", starling::adapters::FieldType::text},
    {"reason", starling::adapters::FieldType::text},
};

// more-agents §1.1 and §4. User hooks in ~/.gemini/settings.json ($GEMINI_CLI_HOME/.gemini), each
// named so that `/hooks disable starling` finds them; MCP servers in the same file; instructions in
// GEMINI.md, which Gemini CLI loads from ~/.gemini and from the project.
starling::sdk::AgentIntegration agent_integration() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "Gemini CLI";
    agent.aliases = {"gemini-cli"};
    agent.user_folder = {".gemini", "GEMINI_CLI_HOME", true};
    agent.hooks.shape = HookFileShape::grouped;
    agent.hooks.user_path = "settings.json";
    agent.hooks.project_path = ".gemini/settings.json";
    agent.hooks.handler_fields = {{"name", "starling"}};
    agent.hooks.events = {{"SessionStart", ""},
                          {"BeforeAgent", ""},
                          {"BeforeTool", std::string{kSubagentTool}},
                          {"AfterTool", "read_file|read_many_files|run_shell_command"},
                          {"AfterAgent", ""},
                          {"PreCompress", ""},
                          {"SessionEnd", ""}};
    agent.instructions =
        Instructions{InstructionsPlacement::section, "GEMINI.md", "GEMINI.md", "## Starling memory\n\n"};
    agent.session_environment = {"GEMINI_SESSION_ID"};
    agent.mcp = McpServers{McpFileShape::json, "settings.json", false, ".gemini/settings.json"};
    agent.folder_trust = FolderTrust{"gemini-trusted-folders", "trustedFolders.json", "settings.json",
                                     "GEMINI_CLI_TRUST_WORKSPACE"};
    // A chat per session, in a folder per project.
    agent.history = SessionHistory{{"tmp/*/chats/session-*.jsonl"}};
    return agent;
}

const starling::adapters::ClaudeStyleDialect kDialect{
    "gemini",       kEvents,        starling::adapters::gemini_tools(),
    kFilePathKeys,  kGeminiDetails, starling::adapters::MissingStopHookFlag::must_not_continue,
    &agent_integration,
};

/// The prompt as the user typed it: a headless run hands BeforeAgent the session-start context
/// first, as `<hook_context>…</hook_context>` and a blank line.
std::string without_hook_context(std::string prompt) {
    constexpr std::string_view open = "<hook_context>";
    constexpr std::string_view close = "</hook_context>";
    while (prompt.starts_with(open)) {
        const auto end = prompt.find(close);
        if (end == std::string::npos) {
            break;
        }
        const auto text = prompt.find_first_not_of("\r\n", end + close.size());
        prompt.erase(0, text == std::string::npos ? prompt.size() : text);
    }
    return prompt;
}

/// A path named in read_many_files' `include` (or the older `paths`) when it names one file, not a
/// pattern.
std::string first_plain_path(const Json &tool_input) {
    for (const auto key : {"include", "paths"}) {
        for (const auto &path : starling::adapters::text_elements(tool_input, key)) {
            if (path.find_first_of("*?[{") == std::string::npos) {
                return path;
            }
        }
    }
    return {};
}

/// The text of a message's parts when every part is text (a function's response is not the user's).
std::string text_of_parts(const Json &parts) {
    if (!parts.is_array()) {
        return parts.is_string() ? parts.get<std::string>() : std::string{};
    }
    std::string text;
    for (const auto &part : parts) {
        if (!part.is_object() || !part.contains("text") || !part["text"].is_string() || part.size() != 1) {
            return {};
        }
        text += (text.empty() ? "" : "\n\n") + part["text"].get<std::string>();
    }
    return text;
}

/// The first of the workspace directories Gemini lists in the session context it sends first.
std::string first_workspace_directory(std::string_view context) {
    constexpr std::string_view heading = "Workspace Directories:";
    const auto at = context.find(heading);
    const auto item = at == std::string_view::npos ? at : context.find("- ", at + heading.size());
    if (item == std::string_view::npos) {
        return {};
    }
    const auto rest = context.substr(item + 2);
    return std::string{trim_blanks(rest.substr(0, rest.find('\n')))};
}

/// A Gemini CLI chat (~/.gemini/tmp/<project>/chats/session-*.jsonl): a header line with the
/// sessionId, then message records (`type` user or gemini, `content` parts, a `timestamp`), which
/// `$set` records may restate. The user's prompts are user messages of text parts, less the context
/// a hook put before them; not prompts: the session context Gemini sends first (which names the
/// workspace, the prompts' directory) and function responses.
std::vector<starling::sdk::RecordedPrompt> read_chat(std::string_view text) {
    using namespace starling::adapters;
    std::string session;
    std::string directory;
    std::vector<starling::sdk::RecordedPrompt> prompts;
    std::vector<std::string> seen;
    const auto take = [&](const Json &message) {
        const auto id = text_field(message, "id");
        if (text_field(message, "type") != "user" || !message.contains("content") ||
            (!id.empty() && std::find(seen.begin(), seen.end(), id) != seen.end())) {
            return;
        }
        seen.push_back(id);
        auto said = std::string{trim_blanks(text_of_parts(message["content"]))};
        if (said.starts_with("<session_context>")) {
            directory = first_workspace_directory(said);
            return;
        }
        said = std::string{trim_blanks(without_hook_context(std::move(said)))};
        if (!said.empty()) {
            prompts.push_back({std::move(said), text_field(message, "timestamp"), session, directory});
        }
    };
    for_each_json_line(text, [&](const Json &record) {
        if (session.empty() && !text_field(record, "sessionId").empty()) {
            session = text_field(record, "sessionId");
        }
        const auto set = object_field(record, "$set");
        if (set.contains("messages") && set["messages"].is_array()) {
            for (const auto &message : set["messages"]) {
                take(message);
            }
        } else {
            take(record);
        }
    });
    return prompts;
}

class GeminiAdapter final : public starling::adapters::ClaudeStyleAdapter, public starling::sdk::SessionHistoryReader {
public:
    GeminiAdapter(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings & /*settings*/)
        : ClaudeStyleAdapter(kDialect) {}

    starling::sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) override {
        auto event = ClaudeStyleAdapter::parse(argv, payload);
        if (event.kind == EventKind::prompt_submitted) {
            event.prompt = without_hook_context(std::move(event.prompt));
        }
        // An automatic PreCompress comes before every model turn, compressed or not: only /compress
        // is known to be one.
        if (event.kind == EventKind::context_compacting &&
            starling::adapters::text_field(event.details, "trigger") != "manual") {
            event.kind = EventKind::other;
        }
        return event;
    }

    starling::sdk::RenderedReply render(const starling::sdk::Event &event, const starling::sdk::Reply &reply) override {
        if (event.kind != EventKind::subagent_started) {
            return ClaudeStyleAdapter::render(event, reply);
        }
        auto tool_input = starling::adapters::object_field(event.details, "tool_input");
        const auto task = starling::adapters::text_field(tool_input, "prompt");
        if (reply.context.empty() || task.empty()) {
            return starling::adapters::silent_reply();
        }
        tool_input["prompt"] = reply.context + "\n\n" + task;
        return starling::adapters::json_reply(
            Json{{"hookSpecificOutput", {{"hookEventName", event.agent_event}, {"tool_input", tool_input}}}});
    }

    std::vector<starling::sdk::RecordedPrompt> read_history(std::string_view /*path*/, std::string_view text) override {
        return read_chat(text);
    }

protected:
    void read_agent_fields(const Json &fields, starling::sdk::Event &event) const override {
        if (event.agent_event == "BeforeTool" && starling::adapters::text_field(fields, "tool_name") == kSubagentTool) {
            event.kind = EventKind::subagent_started;
            // The reply restates the tool's arguments: Gemini replaces them with the reply's.
            event.details["tool_input"] = starling::adapters::object_field(fields, "tool_input");
        }
    }

    starling::sdk::ToolUse describe_tool(std::string name, const Json &tool_input,
                                         std::string_view working_directory) const override {
        auto use = ClaudeStyleAdapter::describe_tool(std::move(name), tool_input, working_directory);
        if (use.intent == starling::sdk::ToolIntent::read && use.file_path.empty()) {
            if (auto path = first_plain_path(tool_input); !path.empty()) {
                use.file_path = starling::adapters::resolve_path(working_directory, path);
            }
        }
        return use;
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(gemini, GeminiAdapter, "gemini", "1.0.0",
                        "Gemini CLI hooks: payloads to canonical events, replies as hookSpecificOutput JSON", "{}")
