// SPDX-License-Identifier: Apache-2.0
#include "config/toml_outside_strings.hpp"

namespace starling::core {

std::optional<SourcePosition> first_non_ascii_outside_strings(std::string_view text) {
    enum class Context { code, comment, basic, literal, multiline_basic, multiline_literal };
    Context context = Context::code;
    std::uint32_t line = 1;
    std::size_t line_start = 0;
    // A byte order mark, as Windows editors write one, is not text.
    const std::size_t first = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    for (std::size_t at = first; at < text.size(); ++at) {
        const char c = text[at];
        const auto starts = [&](std::string_view what) { return text.substr(at, what.size()) == what; };
        if (c == '\n') {
            ++line;
            line_start = at + 1;
            if (context == Context::comment || context == Context::basic || context == Context::literal) {
                context = Context::code; // a single-line string cut by a newline is toml++'s error to report
            }
            continue;
        }
        switch (context) {
        case Context::code:
            if (static_cast<unsigned char>(c) > 0x7F) {
                return SourcePosition{line, static_cast<std::uint32_t>(at - line_start + 1)};
            }
            if (c == '#') {
                context = Context::comment;
            } else if (starts(R"(""")")) {
                context = Context::multiline_basic;
                at += 2;
            } else if (starts("'''")) {
                context = Context::multiline_literal;
                at += 2;
            } else if (c == '"') {
                context = Context::basic;
            } else if (c == '\'') {
                context = Context::literal;
            }
            break;
        case Context::comment:
            break;
        case Context::basic:
        case Context::multiline_basic:
            if (c == '\\') {
                ++at; // the escaped character, a quote included, cannot end the string
                if (at < text.size() && text[at] == '\n') {
                    ++line;
                    line_start = at + 1;
                }
            } else if (context == Context::multiline_basic && starts(R"(""")")) {
                context = Context::code;
                at += 2;
            } else if (context == Context::basic && c == '"') {
                context = Context::code;
            }
            break;
        case Context::literal:
            if (c == '\'') {
                context = Context::code;
            }
            break;
        case Context::multiline_literal:
            if (starts("'''")) {
                context = Context::code;
                at += 2;
            }
            break;
        }
    }
    return std::nullopt;
}

} // namespace starling::core
