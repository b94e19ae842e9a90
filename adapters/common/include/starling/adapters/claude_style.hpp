// SPDX-License-Identifier: Apache-2.0
//
// The hook protocol Claude Code defined and Codex and Codeflicker copied: PascalCase events, a JSON
// payload on stdin with session_id/cwd/tool_name/tool_input, and replies built from
// hookSpecificOutput, systemMessage and decision fields. An adapter for such an agent describes its
// dialect (events, the reply channels each honours, tool names, extra detail fields) and derives
// from ClaudeStyleAdapter.
#pragma once

#include <starling/adapters/hook_invocation.hpp>
#include <starling/adapters/json_fields.hpp>
#include <starling/adapters/tool_intents.hpp>

#include <starling/sdk/plugin.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::adapters {

/// How a block is said for one event.
enum class ClaudeBlockForm {
    none,                ///< the event cannot be blocked: a block is not rendered
    decision,            ///< {"decision":"block","reason":…}
    continuation,        ///< the same at a stop, where the reason is the instruction to keep working;
                         ///< never while a stop hook is already continuing the turn
    permission_decision, ///< hookSpecificOutput.permissionDecision "deny" + permissionDecisionReason
    permission_request,  ///< hookSpecificOutput.decision {"behavior":"deny","message":…}
    halt,                ///< {"continue":false,"stopReason":…}
};

/// The reply channels an agent honours for one event.
struct ClaudeReplyRules {
    bool context;        ///< hookSpecificOutput.additionalContext reaches the model
    bool system_message; ///< the user message as top-level systemMessage
    ClaudeBlockForm block;
};

using ClaudeStyleEvent = EventSpec<ClaudeReplyRules>;

/// The combinations the agents' event tables use, named for what they let a reply say.
namespace claude_rules {
/// Nothing at all: the output is discarded, or read as data (WorktreeCreate prints a path).
inline constexpr ClaudeReplyRules silent{false, false, ClaudeBlockForm::none};
inline constexpr ClaudeReplyRules message{false, true, ClaudeBlockForm::none};
inline constexpr ClaudeReplyRules message_or_block{false, true, ClaudeBlockForm::decision};
inline constexpr ClaudeReplyRules message_or_continue{false, true, ClaudeBlockForm::continuation};
inline constexpr ClaudeReplyRules message_or_deny_request{false, true, ClaudeBlockForm::permission_request};
inline constexpr ClaudeReplyRules message_or_halt{false, true, ClaudeBlockForm::halt};
inline constexpr ClaudeReplyRules context{true, true, ClaudeBlockForm::none};
inline constexpr ClaudeReplyRules context_or_block{true, true, ClaudeBlockForm::decision};
inline constexpr ClaudeReplyRules context_or_deny{true, true, ClaudeBlockForm::permission_decision};
} // namespace claude_rules

/// Whether a stop may be turned into more work when the payload does not say if a stop hook is
/// already doing so (`stop_hook_active` missing): only an agent that documents the flag may.
enum class MissingStopHookFlag { may_continue, must_not_continue };

struct ClaudeStyleDialect {
    std::string_view agent;                   ///< the adapter id
    std::span<const ClaudeStyleEvent> events; ///< every event the agent documents
    ToolVocabulary tools;
    std::span<const std::string_view> file_path_keys; ///< tool_input fields naming the file, by preference
    std::span<const DetailField> extra_details;       ///< payload fields kept beyond the common ones
    MissingStopHookFlag missing_stop_hook_flag;
    sdk::AgentIntegration (*integration)(); ///< how Starling is installed into the agent
};

class ClaudeStyleAdapter : public sdk::Adapter {
public:
    explicit ClaudeStyleAdapter(const ClaudeStyleDialect &dialect) noexcept : dialect_(dialect) {}

    sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) override;
    sdk::RenderedReply render(const sdk::Event &event, const sdk::Reply &reply) override;
    std::optional<sdk::AgentIntegration> integration() override { return dialect_.integration(); }

protected:
    [[nodiscard]] const ClaudeStyleDialect &dialect() const noexcept { return dialect_; }
    /// The tool of a tool_used event; an agent whose tool inputs need more than the name table
    /// overrides it.
    [[nodiscard]] virtual sdk::ToolUse describe_tool(std::string name, const Json &tool_input,
                                                     std::string_view working_directory) const;
    /// Last step of parse, with the payload's fields: an agent that reads more of them than the
    /// dialect's tables say (or decides the kind by one) overrides it. The default reads nothing.
    virtual void read_agent_fields(const Json &fields, sdk::Event &event) const;

private:
    ClaudeStyleDialect dialect_;
};

/// The plugin class of an adapter that is nothing but its dialect:
/// `STARLING_DECLARE_PLUGIN(symbol, ClaudeStylePlugin<kDialect>, ...)`.
template <const ClaudeStyleDialect &Dialect>
class ClaudeStylePlugin final : public ClaudeStyleAdapter {
public:
    ClaudeStylePlugin(const sdk::HostServices & /*host*/, const sdk::Settings & /*settings*/)
        : ClaudeStyleAdapter(Dialect) {}
};

} // namespace starling::adapters
