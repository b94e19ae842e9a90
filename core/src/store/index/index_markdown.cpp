// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/index/index_markdown.hpp>

namespace starling::core {

std::string index_markdown_line(std::string_view summary, std::string_view file_name) {
    std::string line = "- [";
    line.reserve(summary.size() + file_name.size() + 16);
    for (const char character : summary) {
        if (character == '\n' || character == '\r' || character == '\t') {
            line += ' ';
        } else if (character == '[' || character == ']' || character == '\\') {
            line += '\\';
            line += character;
        } else {
            line += character;
        }
    }
    line += "](long/";
    line += file_name;
    line += ')';
    return line;
}

} // namespace starling::core
