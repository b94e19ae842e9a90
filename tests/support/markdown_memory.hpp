// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <string_view>

namespace starling::test {

/// A Markdown memory file as a reader from outside sees it: its frontmatter fields (raw values) and
/// its body.
struct MarkdownMemory {
    std::map<std::string, std::string> fields;
    std::string body;
};

inline MarkdownMemory parse_markdown(const std::string &text) {
    MarkdownMemory memory;
    REQUIRE(text.rfind("---\n", 0) == 0);
    const auto end = text.find("\n---\n", 3);
    REQUIRE(end != std::string::npos);
    std::string_view block{text.data() + 4, end - 3};
    while (!block.empty()) {
        const auto line_end = block.find('\n');
        const std::string_view line = block.substr(0, line_end);
        block = line_end == std::string_view::npos ? std::string_view{} : block.substr(line_end + 1);
        const auto colon = line.find(':');
        if (colon != std::string_view::npos) {
            const auto value_start = line.find_first_not_of(' ', colon + 1);
            memory.fields[std::string{line.substr(0, colon)}] =
                value_start == std::string_view::npos ? "" : std::string{line.substr(value_start)};
        }
    }
    memory.body = text.substr(end + 5);
    return memory;
}

} // namespace starling::test
