// SPDX-License-Identifier: Apache-2.0
//
// POSIX shell words, both ways: quoting a word so that `sh -c` hands it to a program unchanged (agents
// run hook commands through a shell, and an install path may hold spaces or quotes), and splitting a
// command line into the words and operators a shell would see (to recognise an installed hook, or a
// file read through the shell tool). Only quoting is interpreted: expansions ($VAR, globs, `…`) are
// kept as written, since nothing here runs the command.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::sdk {

/// One word of a command line, or a control/redirection operator (`|`, `&&`, `;`, `>`, `2>`…).
struct ShellWord {
    std::string text;
    bool is_operator = false;

    friend bool operator==(const ShellWord &, const ShellWord &) = default;
};

namespace detail {

[[nodiscard]] constexpr bool is_shell_safe(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@' ||
           c == '%' || c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-';
}

[[nodiscard]] constexpr bool is_shell_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n'; }

[[nodiscard]] constexpr bool is_operator_character(char c) noexcept {
    return c == '|' || c == '&' || c == ';' || c == '<' || c == '>' || c == '(' || c == ')';
}

} // namespace detail

/// `word` as the shell must see it to pass it on unchanged: as it is when it holds only characters
/// no shell treats specially, else in single quotes (a quote inside becomes '\'').
[[nodiscard]] inline std::string shell_quote(std::string_view word) {
    bool safe = !word.empty();
    for (const char c : word) {
        safe = safe && detail::is_shell_safe(c);
    }
    if (safe) {
        return std::string{word};
    }
    std::string quoted = "'";
    for (const char c : word) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

/// The words and operators of `command`, with quotes and backslashes removed as the shell removes
/// them; none when a quote is left open. A `#` at the start of a word starts a comment.
[[nodiscard]] inline std::optional<std::vector<ShellWord>> split_shell_words(std::string_view command) {
    std::vector<ShellWord> words;
    std::string current;
    bool in_word = false;
    const auto finish_word = [&] {
        if (in_word) {
            words.push_back({std::move(current), false});
            current.clear();
            in_word = false;
        }
    };
    std::size_t i = 0;
    while (i < command.size()) {
        const char c = command[i];
        if (detail::is_shell_blank(c)) {
            finish_word();
            ++i;
        } else if (c == '#' && !in_word) {
            break;
        } else if (c == '\'') {
            const auto close = command.find('\'', i + 1);
            if (close == std::string_view::npos) {
                return std::nullopt;
            }
            current.append(command.substr(i + 1, close - i - 1));
            in_word = true;
            i = close + 1;
        } else if (c == '"') {
            in_word = true;
            ++i;
            while (true) {
                if (i >= command.size()) {
                    return std::nullopt;
                }
                const char inner = command[i];
                if (inner == '"') {
                    ++i;
                    break;
                }
                if (inner == '\\' && i + 1 < command.size()) {
                    const char next = command[i + 1];
                    if (next == '"' || next == '\\' || next == '$' || next == '`') {
                        current += next;
                        i += 2;
                        continue;
                    }
                    if (next == '\n') {
                        i += 2;
                        continue;
                    }
                }
                current += inner;
                ++i;
            }
        } else if (c == '\\') {
            if (i + 1 < command.size() && command[i + 1] != '\n') {
                current += command[i + 1];
                in_word = true;
            }
            i += 2;
        } else if (detail::is_operator_character(c)) {
            // A descriptor number right before a redirection belongs to it (2>, 2>&1).
            std::string op;
            const bool redirection = c == '<' || c == '>';
            if (redirection && in_word && !current.empty() &&
                current.find_first_not_of("0123456789") == std::string::npos && command[i - 1] == current.back()) {
                op = std::move(current);
                current.clear();
                in_word = false;
            } else {
                finish_word();
            }
            op += c;
            ++i;
            while (i < command.size() && detail::is_operator_character(command[i]) && command[i] != '(' &&
                   command[i] != ')' && op.size() < 3) {
                op += command[i];
                ++i;
            }
            words.push_back({std::move(op), true});
        } else {
            current += c;
            in_word = true;
            ++i;
        }
    }
    finish_word();
    return words;
}

} // namespace starling::sdk
