// SPDX-License-Identifier: Apache-2.0
#include "man_pages.hpp"

#include "command_help.hpp"
#include "command_reference.hpp"

#include <array>

namespace starling::app {

namespace {

constexpr std::array kGroups{CommandGroup::memories, CommandGroup::other_systems, CommandGroup::sharing,
                             CommandGroup::agents, CommandGroup::configuration, CommandGroup::shell};

std::string_view page_suffix(CommandGroup group) {
    switch (group) {
    case CommandGroup::memories:
        return "memories";
    case CommandGroup::other_systems:
        return "import";
    case CommandGroup::sharing:
        return "sharing";
    case CommandGroup::agents:
        return "agents";
    case CommandGroup::configuration:
        return "config";
    case CommandGroup::shell:
        return "shell";
    }
    return "";
}

std::string page_name(CommandGroup group) { return "starling-" + std::string{page_suffix(group)}; }

/// `text` safe as roff running text: backslashes and hyphens escaped, and a line never starting
/// with a control character.
std::string roff(std::string_view text) {
    std::string escaped;
    for (const char character : text) {
        if (character == '\\') {
            escaped.append("\\e");
        } else if (character == '-') {
            escaped.append("\\-");
        } else {
            escaped.push_back(character);
        }
        if (character == '\n') {
            escaped.append("\\&");
        }
    }
    if (!escaped.empty() && (escaped.front() == '.' || escaped.front() == '\'')) {
        escaped.insert(0, "\\&");
    }
    return escaped;
}

/// `text` as roff, ending with a full stop unless it ends with a mark of its own.
std::string sentence(std::string_view text) {
    std::string escaped = roff(text);
    if (!escaped.empty() && escaped.back() != '?' && escaped.back() != '.' && escaped.back() != '!') {
        escaped.push_back('.');
    }
    return escaped;
}

std::string header(const std::string &name, std::string_view what, const std::string &version) {
    std::string text{".\\\" Made by `starling man-pages` from the command reference; do not edit.\n"};
    text.append(".TH ").append(name).append(" 1 \"\" \"starling ").append(version).append("\" \"Starling Manual\"\n");
    text.append(".SH NAME\n").append(roff(name)).append(" \\- ").append(roff(what)).append("\n");
    return text;
}

std::string option_item(const OptionReference &option) {
    std::string text{".TP\n.B \\-\\-"};
    text.append(roff(option.name));
    if (!option.value.empty()) {
        text.append(" \\fI").append(roff(option.value)).append("\\fR");
    }
    text.append("\n").append(roff(option.help));
    if (!option.choices.empty()) {
        std::string choices;
        for (const auto choice : option.choices) {
            choices.append(choices.empty() ? "" : ", ").append(choice);
        }
        text.append(" (").append(roff(choices)).append(")");
    }
    if (!option.default_value.empty()) {
        text.append("; default: ").append(roff(option.default_value));
    }
    return text.append(".\n");
}

std::string command_section(const CommandReference &entry) {
    std::string text{".SS "};
    text.append(roff(entry.name)).append("\n");
    // man(1) indents a page's text by 7 columns of 80.
    std::string synopsis = wrapped_synopsis(entry.name, "", 4, 72);
    synopsis.pop_back(); // its line end, which roff() would guard as if a line followed
    text.append(".nf\n").append(roff(synopsis)).append("\n.fi\n");
    text.append(".PP\n").append(roff(entry.description)).append("\n");
    for (const auto &option : entry.options) {
        text.append(option_item(option));
    }
    text.append(".PP\n").append(entry.examples.size() == 1 ? "Example:" : "Examples:").append("\n.PP\n.RS 4\n.nf\n");
    for (const auto example : entry.examples) {
        text.append(roff(example)).append("\n");
    }
    return text.append(".fi\n.RE\n");
}

std::string group_page(CommandGroup group, const std::string &version) {
    std::string text = header(page_name(group), std::string{"Starling's commands: "} + std::string{group_title(group)}, version);
    text.append(".SH SYNOPSIS\n.nf\n");
    for (const auto &entry : command_reference()) {
        if (entry.group == group) {
            text.append("\\fBstarling ").append(roff(entry.name)).append("\\fR");
            if (!entry.operands.empty()) {
                text.append(" \\fI").append(roff(entry.operands)).append("\\fR");
            }
            text.append("\n");
        }
    }
    text.append(".fi\n");
    text.append(".SH COMMANDS\n");
    for (const auto &entry : command_reference()) {
        if (entry.group == group) {
            text.append(command_section(entry));
        }
    }
    if (group == CommandGroup::memories) {
        text.append(".SH MEMORY\nMEMORY is a memory's id, such as k3f9a2q, its first four characters or more, its "
                    "key or its file's path.\n");
    }
    return text.append(".SH SEE ALSO\n.BR starling (1)\n");
}

std::string main_page(const std::string &version) {
    std::string text = header("starling", "one long-term memory shared by every coding agent", version);
    text.append(".SH SYNOPSIS\n.B starling\n[\\-\\-config \\fIFILE\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]\n");
    text.append(".SH DESCRIPTION\n"
                "Starling is one long\\-term memory shared by the coding agents you use (Claude Code, Codex, "
                "Gemini CLI, GitHub Copilot CLI, OpenCode, Cursor, Codeflicker). It runs from the agents' own "
                "hooks: it keeps what is worth remembering as Markdown files, reinforces what is used, lets "
                "the rest decay, archives before it forgets, and puts the right memories back into the "
                "agent's context.\n"
                ".PP\n"
                "Begin with \\fBstarling install\\fR \\fIAGENT\\fR and \\fBstarling remember\\fR; "
                "\\fBstarling inject \\-\\-event session\\-start\\fR shows what the next session starts with.\n");
    text.append(".SH COMMANDS\n");
    for (const auto group : kGroups) {
        text.append(".SS ").append(roff(group_title(group))).append(" (see \\fB").append(page_name(group)).append("\\fR(1))\n");
        for (const auto &entry : command_reference()) {
            if (entry.group == group) {
                text.append(".TP\n.B ").append(roff(entry.name)).append("\n").append(sentence(entry.summary)).append("\n");
            }
        }
    }
    text.append(".SH OPTIONS\n");
    for (const auto &option : global_options()) {
        text.append(option_item(option));
    }
    text.append(".SH ENVIRONMENT\n");
    for (const auto &[variable, meaning] : environment_variables()) {
        text.append(".TP\n.B ").append(variable).append("\n").append(roff(meaning)).append(".\n");
    }
    text.append(".SH FILES\n"
                ".TP\n.I ~/.starling/starling.toml\nThe configuration; without it the embedded defaults apply.\n"
                ".TP\n.I ~/.starling/memory/\nThe memories, one Markdown file each, by scope and tier.\n"
                ".TP\n.I ~/.starling/logs/starling.log\nWhat went wrong, and what the hooks did.\n");
    text.append(".SH EXIT STATUS\n0 on success, 1 when the command failed or found a problem (the message says "
                "which), 64 when the command line was wrong.\n");
    text.append(".SH SEE ALSO\n");
    for (std::size_t index = 0; index < kGroups.size(); ++index) {
        text.append(".BR ").append(page_name(kGroups[index])).append(" (1)").append(index + 1 < kGroups.size() ? "," : "").append("\n");
    }
    return text;
}

} // namespace

std::vector<ManPage> man_pages(const std::string &version) {
    std::vector<ManPage> pages{{"starling.1", main_page(version)}};
    for (const auto group : kGroups) {
        pages.push_back({page_name(group) + ".1", group_page(group, version)});
    }
    return pages;
}

} // namespace starling::app
