// SPDX-License-Identifier: Apache-2.0
#include "command_help.hpp"

#include "command_reference.hpp"

#include <starling/sdk/text/utf8.hpp>

#include <algorithm>
#include <span>
#include <vector>

namespace starling::app {

namespace {

/// Where the summaries of `starling --help` and the option explanations start.
constexpr std::size_t kSecondColumn = 24;

constexpr std::string_view kMemoryOperand =
    "MEMORY is a memory's id, such as k3f9a2q, its first four characters or more, its key or its file's path.";

std::size_t columns_of(std::string_view text) {
    return sdk::text::count_code_points(text, sdk::text::Utf8Rules::strict);
}

/// `left` in a column of kSecondColumn, then `right` wrapped beside it (on the next line when
/// `left` does not leave room).
std::string two_columns(std::string_view left, std::string_view right) {
    std::string text{"  "};
    text.append(left);
    if (columns_of(text) + 2 > kSecondColumn) {
        return text.append("\n").append(wrap_text(right, kSecondColumn, kSecondColumn));
    }
    // The wrapped text starts with kSecondColumn spaces; `left` takes the place of the first ones.
    return text + wrap_text(right, kSecondColumn, kSecondColumn).substr(columns_of(text));
}

std::string option_words(const OptionReference &option) {
    std::string words{"--"};
    words.append(option.name);
    if (!option.value.empty()) {
        words.append(" ").append(option.value);
    }
    return words;
}

std::string option_explanation(const OptionReference &option) {
    std::string text{option.help};
    if (!option.choices.empty() && option.value.find('|') == std::string_view::npos) {
        text.append(" (");
        for (std::size_t index = 0; index < option.choices.size(); ++index) {
            text.append(index == 0 ? "" : index + 1 == option.choices.size() ? " or " : ", ")
                .append(option.choices[index]);
        }
        text.append(")");
    }
    if (!option.default_value.empty()) {
        text.append("; default: ").append(option.default_value);
    }
    return text;
}

} // namespace

std::string wrap_words(std::span<const std::string> words, std::size_t indent, std::size_t first_indent,
                       std::size_t width) {
    std::string wrapped(first_indent, ' ');
    std::size_t column = first_indent;
    bool line_empty = true;
    for (const auto &word : words) {
        const std::size_t length = columns_of(word);
        if (!line_empty && column + 1 + length > width) {
            wrapped.append("\n").append(indent, ' ');
            column = indent;
            line_empty = true;
        }
        if (!line_empty) {
            wrapped.push_back(' ');
            ++column;
        }
        wrapped.append(word);
        column += length;
        line_empty = false;
    }
    return wrapped.append("\n");
}

std::string wrap_text(std::string_view text, std::size_t indent, std::size_t first_indent, std::size_t width) {
    std::vector<std::string> words;
    std::size_t position = 0;
    while (position < text.size()) {
        if (text[position] == ' ') {
            ++position;
            continue;
        }
        const auto end = std::min(text.find(' ', position), text.size());
        words.emplace_back(text.substr(position, end - position));
        position = end;
    }
    return wrap_words(words, indent, first_indent, width);
}

namespace {

/// The synopsis in the pieces a line may break between: an option in brackets stays whole.
std::vector<std::string> synopsis_pieces(const CommandReference &entry) {
    std::vector<std::string> pieces{"starling"};
    std::string name{entry.name};
    for (auto space = name.find(' '); space != std::string::npos; space = name.find(' ')) {
        pieces.push_back(name.substr(0, space));
        name.erase(0, space + 1);
    }
    pieces.push_back(name);
    for (const auto &option : entry.options) {
        pieces.push_back("[" + option_words(option) + "]");
    }
    if (!entry.operands.empty()) {
        pieces.emplace_back(entry.operands);
    }
    return pieces;
}

} // namespace

std::string wrapped_synopsis(std::string_view name, std::string_view prefix, std::size_t indent, std::size_t width) {
    const CommandReference *entry = find_command_reference(name);
    if (entry == nullptr) {
        return {};
    }
    auto pieces = synopsis_pieces(*entry);
    pieces.front().insert(0, prefix);
    return wrap_words(pieces, indent, 0, width);
}

std::string overall_help() {
    std::string text{"starling — one long-term memory shared by every coding agent\n\n"
                     "Usage: starling [--config FILE] COMMAND [ARGS...]\n"};
    for (const auto group : {CommandGroup::memories, CommandGroup::other_systems, CommandGroup::sharing,
                             CommandGroup::agents, CommandGroup::configuration, CommandGroup::shell}) {
        text.append("\n").append(group_title(group)).append(":\n");
        for (const auto &entry : command_reference()) {
            if (entry.group == group) {
                text.append(two_columns(entry.name, entry.summary));
            }
        }
    }
    text.append("\nGlobal options:\n");
    for (const auto &option : global_options()) {
        text.append(two_columns(option_words(option), option.help));
    }
    text.append("\nEnvironment:\n");
    for (const auto &[variable, meaning] : environment_variables()) {
        text.append(two_columns(variable, meaning));
    }
    return text.append("\nSee 'starling help COMMAND' for a command's options and examples, and\n"
                       "docs/quickstart.md to begin.\n");
}

std::string short_usage() {
    return "usage: starling [--config FILE] COMMAND [ARGS...]\n"
           "\n"
           "  starling install claude-code            give an agent Starling's memory\n"
           "  starling remember \"TEXT\"               keep TEXT for every session\n"
           "  starling inject --event session-start   what the next session starts with\n"
           "  starling list, starling search QUERY    what Starling remembers\n"
           "\n"
           "See 'starling --help' for every command, 'starling help COMMAND' for one.\n";
}

std::string command_help(std::string_view command) {
    const auto entries = command_and_subcommands(command);
    std::string text;
    for (const CommandReference *entry : entries) {
        if (!text.empty()) {
            text.append("\n");
        }
        text.append(wrapped_synopsis(entry->name, "Usage: ", 16)).append("\n");
        text.append(wrap_text(entry->description, 2, 2));
        if (entry->operands.find("MEMORY") != std::string_view::npos) {
            text.append(wrap_text(kMemoryOperand, 2, 2));
        }
        if (!entry->options.empty()) {
            text.append("\nOptions:\n");
            for (const auto &option : entry->options) {
                text.append(two_columns(option_words(option), option_explanation(option)));
            }
        }
        text.append(entry->examples.size() == 1 ? "\nExample:\n" : "\nExamples:\n");
        for (const auto example : entry->examples) {
            text.append("  ").append(example).append("\n");
        }
    }
    return text;
}

} // namespace starling::app
