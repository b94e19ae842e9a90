// SPDX-License-Identifier: Apache-2.0
#include "entry_type.hpp"

#include <starling/sdk/text/blanks.hpp>
#include <starling/sdk/text/case_folding.hpp>

#include <algorithm>

namespace starling::isolation {

std::string_view text_of(const sdk::MemoryView &memory) {
    return memory.body().empty() ? memory.summary() : memory.body();
}

namespace {

constexpr std::string_view auto_session_save_prefix = "AUTO-SESSION-SAVE";

bool holds(std::string_view lowered, std::string_view marker) { return lowered.find(marker) != std::string_view::npos; }

} // namespace

std::string classify_entry(std::string_view text) {
    if (sdk::text::trim_blanks(text).starts_with(auto_session_save_prefix)) {
        return "auto-session-save";
    }
    const std::string lowered = sdk::text::lower_ascii(text);
    if (holds(lowered, "#decision") || holds(lowered, "#entscheidung")) {
        return "decision";
    }
    if (holds(lowered, "#user-gedanke")) {
        return "user-gedanke";
    }
    if (holds(lowered, "#session-save")) {
        return "session-save";
    }
    return "insight";
}

bool is_protected(const sdk::MemoryView &memory, const IsolationSettings &settings) {
    if (const auto type = memory.field("entry_type"); type && (*type == "decision" || *type == "user-gedanke")) {
        return true;
    }
    const std::string lowered = sdk::text::lower_ascii(text_of(memory)) + '\n' + sdk::text::lower_ascii(memory.summary());
    if (std::any_of(settings.protected_markers.begin(), settings.protected_markers.end(),
                    [&](const std::string &marker) { return holds(lowered, marker); })) {
        return true;
    }
    bool tagged = false;
    memory.for_each_tag([&](std::string_view tag) {
        const std::string folded = sdk::text::lower_ascii(tag);
        tagged = tagged || std::find(settings.protected_tags.begin(), settings.protected_tags.end(), folded) !=
                               settings.protected_tags.end();
    });
    return tagged;
}

bool is_empty_session_save(std::string_view text) {
    if (!sdk::text::trim_blanks(text).starts_with(auto_session_save_prefix)) {
        return false;
    }
    constexpr std::string_view no_user_message = "User Messages: 0";
    for (auto at = text.find(no_user_message); at != std::string_view::npos;
         at = text.find(no_user_message, at + 1)) {
        const auto after = at + no_user_message.size();
        if (after == text.size() || text[after] < '0' || text[after] > '9') {
            return true;
        }
    }
    return false;
}

} // namespace starling::isolation
