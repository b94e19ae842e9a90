// SPDX-License-Identifier: Apache-2.0
//
// Reading what an agent recorded of its own sessions (its transcripts), for `starling import
// history`: files the agent writes for itself, in formats it changes without notice, so every reader
// skips what it does not recognise rather than failing the file.
#pragma once

#include <starling/adapters/json_fields.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

namespace starling::adapters {

/// Calls `visit(object)` for each line of a JSON Lines text that is a JSON object, in order; a line
/// that is not (a torn last line, a blank one) is skipped.
template <class Visit>
void for_each_json_line(std::string_view text, Visit visit) {
    while (!text.empty()) {
        const auto end = text.find('\n');
        const auto line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        auto object = Json::parse(line, nullptr, false);
        if (object.is_object()) {
            visit(object);
        }
    }
}

/// The text of a message's content: a string as it is, or the `text` of an array's parts whose type
/// is one of `text_types`, joined by blank lines. Empty when an array holds a part of another type
/// (a tool result, an image): such a message is not words the user typed alone.
[[nodiscard]] std::string typed_text(const Json &content, std::initializer_list<std::string_view> text_types);

} // namespace starling::adapters
