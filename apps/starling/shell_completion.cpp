// SPDX-License-Identifier: Apache-2.0
//
// Each script finds, in the words before the cursor, the command and (where the reference has one)
// its subcommand: the "key" of a reference entry. It then offers that entry's options, the values
// of the option just typed, or the words its first operand may be. Options are told apart from
// operands by their leading "-"; the value of --config is skipped.
#include "shell_completion.hpp"

#include "command_reference.hpp"

#include <starling/sdk/shell_words.hpp>

#include <algorithm>

namespace starling::app {

namespace {

/// How the value of an option, or an operand without choices, is completed.
enum class ValueKind { words, directory, file, nothing };

ValueKind value_kind(const OptionReference &option) {
    if (!option.choices.empty()) {
        return ValueKind::words;
    }
    if (option.value == "DIR") {
        return ValueKind::directory;
    }
    if (option.value == "FILE" || option.value.find("PATH") != std::string_view::npos) {
        return ValueKind::file;
    }
    return ValueKind::nothing;
}

std::string joined(const std::vector<std::string_view> &words, std::string_view separator = " ") {
    std::string text;
    for (const auto word : words) {
        text.append(text.empty() ? "" : separator).append(word);
    }
    return text;
}

/// The subcommand words of `command` ("show", "check" for "config").
std::vector<std::string_view> subcommands_of(std::string_view command) {
    std::vector<std::string_view> words;
    for (const CommandReference *entry : command_and_subcommands(command)) {
        if (entry->name != command) {
            words.push_back(entry->name.substr(command.size() + 1));
        }
    }
    return words;
}

/// The words the first operand after `key` may be: its subcommands, then its own choices.
std::vector<std::string_view> first_operand_words(std::string_view key) {
    auto words = key.find(' ') == std::string_view::npos ? subcommands_of(key) : std::vector<std::string_view>{};
    if (const CommandReference *entry = find_command_reference(key)) {
        for (const auto choice : entry->operand_choices) {
            if (std::find(words.begin(), words.end(), choice) == words.end()) {
                words.push_back(choice);
            }
        }
    }
    return words;
}

/// The keys of a command with its subcommand: "config show", ...
std::vector<std::string_view> two_word_keys() {
    std::vector<std::string_view> keys;
    for (const auto &entry : command_reference()) {
        if (entry.name.find(' ') != std::string_view::npos) {
            keys.push_back(entry.name);
        }
    }
    return keys;
}

/// Every key a line can have: each command, and each command with its subcommand.
std::vector<std::string> completion_keys() {
    std::vector<std::string> keys = command_names();
    for (const auto key : two_word_keys()) {
        keys.emplace_back(key);
    }
    return keys;
}

/// `text` inside single quotes for fish, where a backslash escapes a quote or a backslash.
std::string fish_quoted(std::string_view text) {
    std::string quoted{"'"};
    for (const char character : text) {
        if (character == '\'' || character == '\\') {
            quoted.push_back('\\');
        }
        quoted.push_back(character);
    }
    return quoted.append("'");
}

std::string summary_of_command(std::string_view command) {
    if (const CommandReference *entry = find_command_reference(command)) {
        return std::string{entry->summary};
    }
    // A command made only of subcommands (config, profile): their names.
    return joined(subcommands_of(command), ", ");
}

/// The shared line-reading part of the bash and zsh scripts: sets `command`, `sub` and
/// `operands` from the words before the cursor, then `key` and `position`.
std::string posix_line_reader(std::string_view words_array, std::string_view first_index) {
    std::string text;
    text.append("    local command= sub= operands=0 word i\n");
    text.append("    for ((i = ").append(first_index).append("; i < cursor; i++)); do\n");
    text.append("        word=${").append(words_array).append("[i]}\n");
    text.append("        if [[ $word == --config ]]; then ((i++)); continue; fi\n"
                "        [[ $word == -* ]] && continue\n"
                "        if [[ -z $command ]]; then command=$word\n"
                "        elif [[ -z $sub ]]; then sub=$word\n"
                "        fi\n"
                "        ((operands++))\n"
                "    done\n"
                "    local key=$command position=$((operands - 1))\n"
                "    case \"$command $sub\" in\n");
    const auto keys = two_word_keys();
    text.append("        ");
    for (std::size_t index = 0; index < keys.size(); ++index) {
        text.append(index == 0 ? "" : "|").append(sdk::shell_quote(keys[index]));
    }
    text.append(") key=\"$command $sub\" position=$((operands - 2)) ;;\n    esac\n");
    return text;
}

std::string bash_script() {
    std::string text{"# Bash completion for starling, made by `starling completion bash` from its command reference.\n"
                     "_starling() {\n"
                     "    local cursor=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"};
    text.append(posix_line_reader("COMP_WORDS", "1"));
    text.append("    local options= words=\n"
                "    case $key in\n");
    {
        std::string options;
        for (const auto &option : global_options()) {
            options.append(options.empty() ? "--" : " --").append(option.name);
        }
        std::vector<std::string_view> commands;
        const auto names = command_names();
        commands.assign(names.begin(), names.end());
        text.append("    '')\n        case $prev in --config) COMPREPLY=($(compgen -f -- \"$cur\")); return ;; esac\n");
        text.append("        options=").append(sdk::shell_quote(options)).append(" words=").append(sdk::shell_quote(joined(commands)));
        text.append(" ;;\n");
    }
    for (const auto &key : completion_keys()) {
        const CommandReference *entry = find_command_reference(key);
        text.append("    ").append(sdk::shell_quote(key)).append(")\n");
        std::string options;
        if (entry != nullptr) {
            std::string values;
            for (const auto &option : entry->options) {
                options.append(options.empty() ? "--" : " --").append(option.name);
                if (option.value.empty()) {
                    continue;
                }
                values.append("            --").append(option.name).append(") ");
                switch (value_kind(option)) {
                case ValueKind::words:
                    values.append("COMPREPLY=($(compgen -W ").append(sdk::shell_quote(joined(option.choices))).append(" -- \"$cur\")); ");
                    break;
                case ValueKind::directory:
                    values.append("COMPREPLY=($(compgen -d -- \"$cur\")); ");
                    break;
                case ValueKind::file:
                    values.append("COMPREPLY=($(compgen -f -- \"$cur\")); ");
                    break;
                case ValueKind::nothing:
                    break;
                }
                values.append("return ;;\n");
            }
            if (!values.empty()) {
                text.append("        case $prev in\n").append(values).append("        esac\n");
            }
        }
        const auto words = first_operand_words(key);
        text.append("        options=").append(sdk::shell_quote(options));
        if (!words.empty()) {
            text.append("\n        ((position == 0)) && words=").append(sdk::shell_quote(joined(words)));
        }
        text.append(" ;;\n");
    }
    text.append("    esac\n"
                "    if [[ $cur == -* ]]; then\n"
                "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
                "    elif [[ -n $words ]]; then\n"
                "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
                "    else\n"
                "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
                "    fi\n"
                "}\n"
                "complete -o filenames -F _starling starling\n");
    return text;
}

/// `name:description` for zsh's _describe, the colons of the name escaped.
std::string described(std::string_view name, std::string_view description) {
    std::string item;
    for (const char character : name) {
        if (character == ':') {
            item.push_back('\\');
        }
        item.push_back(character);
    }
    return sdk::shell_quote(item.append(":").append(description));
}

std::string zsh_script() {
    std::string text{"#compdef starling\n"
                     "# Zsh completion for starling, made by `starling completion zsh` from its command reference.\n"
                     "_starling() {\n"
                     "    local cursor=$CURRENT cur=${words[CURRENT]} prev=${words[CURRENT-1]}\n"};
    text.append(posix_line_reader("words", "2"));
    text.append("    local -a option_items choice_items\n"
                "    case $key in\n");
    text.append("    ('')\n        [[ $prev == --config ]] && { _files; return }\n        option_items=(");
    for (const auto &option : global_options()) {
        text.append(described(std::string{"--"} + std::string{option.name}, option.help)).append(" ");
    }
    text.append(")\n        choice_items=(");
    for (const auto &command : command_names()) {
        text.append(described(command, summary_of_command(command))).append(" ");
    }
    text.append(") ;;\n");
    for (const auto &key : completion_keys()) {
        const CommandReference *entry = find_command_reference(key);
        text.append("    (").append(sdk::shell_quote(key)).append(")\n");
        text.append("        option_items=(");
        std::string values;
        if (entry != nullptr) {
            for (const auto &option : entry->options) {
                text.append(described(std::string{"--"} + std::string{option.name}, option.help)).append(" ");
                if (option.value.empty()) {
                    continue;
                }
                values.append("            (--").append(option.name).append(") ");
                switch (value_kind(option)) {
                case ValueKind::words:
                    values.append("compadd -- ").append(joined(option.choices));
                    break;
                case ValueKind::directory:
                    values.append("_files -/");
                    break;
                case ValueKind::file:
                    values.append("_files");
                    break;
                case ValueKind::nothing:
                    values.append(":");
                    break;
                }
                values.append("; return ;;\n");
            }
        }
        text.append(")\n");
        if (!values.empty()) {
            text.append("        case $prev in\n").append(values).append("        esac\n");
        }
        const auto words = first_operand_words(key);
        if (!words.empty()) {
            text.append("        ((position == 0)) && choice_items=(");
            for (const auto word : words) {
                const auto sub = std::string{key} + " " + std::string{word};
                const CommandReference *sub_entry = find_command_reference(sub);
                text.append(described(word, sub_entry != nullptr ? sub_entry->summary : std::string_view{})).append(" ");
            }
            text.append(")\n");
        }
        text.append("        ;;\n");
    }
    text.append("    esac\n"
                "    if [[ $cur == -* ]]; then\n"
                "        _describe -t options option option_items\n"
                "    elif (( ${#choice_items} )); then\n"
                "        _describe -t values value choice_items\n"
                "    else\n"
                "        _files\n"
                "    fi\n"
                "}\n"
                "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n"
                "    _starling \"$@\"\n"
                "else\n"
                "    compdef _starling starling\n"
                "fi\n");
    return text;
}

std::string fish_condition(std::string_view key, std::optional<int> position = std::nullopt) {
    std::string condition{"__starling_on "};
    condition.append(fish_quoted(key));
    if (position) {
        condition.append(" ").append(std::to_string(*position));
    }
    return fish_quoted(condition);
}

std::string fish_option(std::string_view key, const OptionReference &option) {
    std::string line{"complete -c starling -n "};
    line.append(fish_condition(key)).append(" -l ").append(option.name);
    if (!option.value.empty()) {
        switch (value_kind(option)) {
        case ValueKind::words:
            line.append(" -x -a ").append(fish_quoted(joined(option.choices)));
            break;
        case ValueKind::directory:
            line.append(" -x -a '(__fish_complete_directories)'");
            break;
        case ValueKind::file:
            line.append(" -r -F");
            break;
        case ValueKind::nothing:
            line.append(" -x");
            break;
        }
    }
    return line.append(" -d ").append(fish_quoted(option.help)).append("\n");
}

std::string fish_script() {
    std::string text{"# Fish completion for starling, made by `starling completion fish` from its command reference.\n"
                     "set -g __starling_subcommands"};
    for (const auto key : two_word_keys()) {
        text.append(" ").append(fish_quoted(key));
    }
    text.append("\n"
                "# Whether the line's command (and subcommand) is KEY, and, given POSITION, whether the word\n"
                "# being completed is the operand at POSITION after it.\n"
                "function __starling_on --argument-names key position\n"
                "    set -l words\n"
                "    set -l skip 0\n"
                "    for token in (commandline -opc)[2..-1]\n"
                "        if test $skip = 1\n"
                "            set skip 0\n"
                "            continue\n"
                "        end\n"
                "        if test \"$token\" = --config\n"
                "            set skip 1\n"
                "            continue\n"
                "        end\n"
                "        string match -q -- '-*' $token; and continue\n"
                "        set -a words $token\n"
                "    end\n"
                "    set -l line_key \"$words[1]\"\n"
                "    set -l used 1\n"
                "    if test (count $words) -ge 2; and contains -- \"$words[1] $words[2]\" $__starling_subcommands\n"
                "        set line_key \"$words[1] $words[2]\"\n"
                "        set used 2\n"
                "    end\n"
                "    test (count $words) -eq 0; and set used 0\n"
                "    test \"$line_key\" = \"$key\"; or return 1\n"
                "    test -z \"$position\"; and return 0\n"
                "    test (math (count $words) - $used) -eq $position\n"
                "end\n"
                "complete -c starling -f\n");
    for (const auto &option : global_options()) {
        text.append(fish_option("", option));
    }
    for (const auto &command : command_names()) {
        text.append("complete -c starling -n ").append(fish_condition("")).append(" -a ").append(fish_quoted(command));
        text.append(" -d ").append(fish_quoted(summary_of_command(command))).append("\n");
    }
    for (const auto &key : completion_keys()) {
        const CommandReference *entry = find_command_reference(key);
        if (entry != nullptr) {
            for (const auto &option : entry->options) {
                text.append(fish_option(key, option));
            }
        }
        const auto words = first_operand_words(key);
        for (const auto word : words) {
            const CommandReference *sub_entry = find_command_reference(std::string{key} + " " + std::string{word});
            text.append("complete -c starling -n ").append(fish_condition(key, 0)).append(" -a ").append(fish_quoted(word));
            if (sub_entry != nullptr) {
                text.append(" -d ").append(fish_quoted(sub_entry->summary));
            }
            text.append("\n");
        }
        if (words.empty() && entry != nullptr && !entry->operands.empty()) {
            // Operands without choices are files, texts or ids: offer the files, as the shell would.
            text.append("complete -c starling -n ").append(fish_condition(key)).append(" -F\n");
        }
    }
    return text;
}

} // namespace

std::optional<Shell> shell_named(std::string_view name) {
    if (name == "bash") {
        return Shell::bash;
    }
    if (name == "zsh") {
        return Shell::zsh;
    }
    if (name == "fish") {
        return Shell::fish;
    }
    return std::nullopt;
}

std::string completion_script(Shell shell) {
    switch (shell) {
    case Shell::bash:
        return bash_script();
    case Shell::zsh:
        return zsh_script();
    case Shell::fish:
        return fish_script();
    }
    return {};
}

} // namespace starling::app
