// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory_file.hpp>

#include "store/record/text_checks.hpp"

#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace starling::core {
namespace {

using detail::has_control;
using detail::trim_trailing_blanks;


constexpr std::string_view review_suffix = "[review]";

[[noreturn]] void fail_memory(std::string_view target_name, std::string_view problem) {
    std::string message(target_name.empty() ? std::string_view("memory") : target_name);
    message += ": ";
    message += problem;
    throw StoreError(message);
}



bool ends_with_review_suffix(std::string_view summary) noexcept {
    return summary.size() >= review_suffix.size() &&
           summary.substr(summary.size() - review_suffix.size()) == review_suffix;
}

std::optional<std::uint32_t> parse_count(std::string_view text) noexcept {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

std::optional<bool> parse_flag(std::string_view text) noexcept {
    if (text == "true") {
        return true;
    }
    if (text == "false") {
        return false;
    }
    return std::nullopt;
}

std::chrono::sys_seconds decode_time(const FrontmatterEntry &entry, std::string_view source_name) {
    const std::string text = decode_scalar(entry, source_name);
    const auto time = parse_timestamp(text);
    if (!time) {
        throw_field_error(source_name, entry,
                   "expected a timestamp such as 2026-11-22T10:00:00Z or 2026-11-22, got '" + text + "'");
    }
    return *time;
}

std::vector<std::string> decode_names(const FrontmatterEntry &entry, std::string_view source_name) {
    std::vector<std::string> items = decode_list(entry, source_name);
    for (const std::string &item : items) {
        if (item.empty() || has_control(item)) {
            throw_field_error(source_name, entry, "items must be non-empty and free of control characters");
        }
    }
    return items;
}

std::vector<std::string> distinct_in_order(std::vector<std::string> items) {
    // Lists are nearly always distinct already (every writer keeps them so), and a memory used in
    // many sessions has hundreds: check with sorted views, and copy nothing unless needed.
    std::vector<std::string_view> sorted(items.begin(), items.end());
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) {
        return items;
    }
    std::unordered_set<std::string> seen;
    std::vector<std::string> distinct;
    distinct.reserve(items.size());
    for (std::string &item : items) {
        if (seen.insert(item).second) {
            distinct.push_back(std::move(item));
        }
    }
    return distinct;
}

/// Whether an entry read from a file still says exactly what the typed member says. Any decoding
/// problem means "no": the entry is then rewritten from the member.
bool still_holds(const FrontmatterEntry &entry, const Memory &memory) {
    try {
        const std::string_view key = entry.key;
        if (key == "type") {
            return decode_scalar(entry, {}) == memory.type;
        }
        if (key == "summary") {
            return decode_scalar(entry, {}) == memory.summary;
        }
        if (key == "created" || key == "last_accessed") {
            const auto time = parse_timestamp(decode_scalar(entry, {}));
            return time && *time == (key == "created" ? memory.created : memory.last_accessed);
        }
        if (key == "access_count") {
            return parse_count(entry.value) == memory.access_count;
        }
        if (key == "tags") {
            return decode_list(entry, {}) == memory.tags;
        }
        if (key == "sessions") {
            return decode_list(entry, {}) == memory.sessions;
        }
        if (key == "session_count") {
            return parse_count(entry.value) == memory.session_count();
        }
        if (key == "review") {
            return parse_flag(entry.value) == memory.review;
        }
        if (key == "pinned") {
            return parse_flag(entry.value) == memory.pinned;
        }
        if (key == "id") {
            return decode_scalar(entry, {}) == memory.id;
        }
    } catch (const StoreError &) {
        return false;
    }
    return false;
}

/// The encoded value of a typed field, or nullopt when the field is left out of a new file.
std::optional<std::string> typed_value(std::string_view key, const Memory &memory) {
    if (key == "type") {
        return encode_scalar(memory.type);
    }
    if (key == "summary") {
        return encode_scalar(memory.summary);
    }
    if (key == "created") {
        return format_timestamp(memory.created);
    }
    if (key == "last_accessed") {
        return format_timestamp(memory.last_accessed);
    }
    if (key == "access_count") {
        return std::to_string(memory.access_count);
    }
    if (key == "tags") {
        return memory.tags.empty() ? std::nullopt : std::optional<std::string>(encode_list(memory.tags));
    }
    if (key == "sessions") {
        return memory.sessions.empty() ? std::nullopt
                                       : std::optional<std::string>(encode_list(memory.sessions));
    }
    if (key == "session_count") {
        return memory.earlier_sessions == 0 ? std::nullopt
                                            : std::optional<std::string>(std::to_string(memory.session_count()));
    }
    if (key == "review") {
        return memory.review ? std::optional<std::string>("true") : std::nullopt;
    }
    if (key == "pinned") {
        return memory.pinned ? std::optional<std::string>("true") : std::nullopt;
    }
    if (key == "id") {
        return memory.id.empty() ? std::nullopt : std::optional<std::string>(memory.id);
    }
    throw std::logic_error("not a typed memory field: " + std::string(key));
}

void check_time(std::chrono::sys_seconds time, std::string_view field, std::string_view target_name) {
    try {
        static_cast<void>(format_timestamp(time));
    } catch (const std::out_of_range &) {
        fail_memory(target_name, std::string(field) + " is outside the years 0000-9999");
    }
}

void check_names(const std::vector<std::string> &items, std::string_view field,
                 std::string_view target_name) {
    for (const std::string &item : items) {
        if (item.empty() || has_control(item)) {
            fail_memory(target_name,
                        std::string(field) + " must be non-empty and free of control characters");
        }
    }
}

} // namespace

Memory parse_memory(std::string_view text, std::string_view source_name) {
    FrontmatterDocument document = parse_frontmatter(text, source_name);
    Memory memory;
    memory.body = std::move(document.body);
    memory.line_ending = document.line_ending;
    memory.access_count = 0;

    const auto require = [&](std::string_view key) -> const FrontmatterEntry & {
        const FrontmatterEntry *entry = document.find(key);
        if (entry == nullptr) {
            throw StoreError(std::string(source_name) + ": missing required field '" + std::string(key) +
                             "'");
        }
        return *entry;
    };

    const FrontmatterEntry &type_entry = require("type");
    memory.type = decode_scalar(type_entry, source_name);
    if (memory.type.empty() || has_control(memory.type)) {
        throw_field_error(source_name, type_entry, "must be non-empty and free of control characters");
    }

    const FrontmatterEntry &summary_entry = require("summary");
    std::string summary = decode_scalar(summary_entry, source_name);
    std::string_view unsuffixed = summary;
    while (ends_with_review_suffix(unsuffixed)) {
        const std::string_view shorter =
            trim_trailing_blanks(unsuffixed.substr(0, unsuffixed.size() - review_suffix.size()));
        if (shorter.empty()) {
            break;
        }
        unsuffixed = shorter;
        memory.review = true;
    }
    if (unsuffixed.empty()) {
        throw_field_error(source_name, summary_entry, "must not be empty");
    }
    memory.summary = std::string(unsuffixed);

    memory.created = decode_time(require("created"), source_name);
    const FrontmatterEntry *last_accessed = document.find("last_accessed");
    memory.last_accessed =
        last_accessed != nullptr ? decode_time(*last_accessed, source_name) : memory.created;

    if (const FrontmatterEntry *count = document.find("access_count")) {
        const auto value = parse_count(count->value);
        if (!value) {
            throw_field_error(source_name, *count,
                       "expected a whole number from 0 to 4294967295, got '" + count->value + "'");
        }
        memory.access_count = *value;
    }
    if (const FrontmatterEntry *tags = document.find("tags")) {
        memory.tags = decode_names(*tags, source_name);
    }
    if (const FrontmatterEntry *sessions = document.find("sessions")) {
        memory.sessions = distinct_in_order(decode_names(*sessions, source_name));
    }
    if (const FrontmatterEntry *count = document.find("session_count")) {
        const auto total = parse_count(count->value);
        if (!total) {
            throw_field_error(source_name, *count,
                              "expected a whole number from 0 to 4294967295, got '" + count->value + "'");
        }
        if (*total < memory.sessions.size()) {
            throw_field_error(source_name, *count,
                              "counts " + count->value + " sessions, fewer than the " +
                                  std::to_string(memory.sessions.size()) + " that 'sessions' lists");
        }
        memory.earlier_sessions = static_cast<std::uint32_t>(*total - memory.sessions.size());
    }
    if (const FrontmatterEntry *review = document.find("review")) {
        const auto flag = parse_flag(review->value);
        if (!flag) {
            throw_field_error(source_name, *review, "expected 'true' or 'false', got '" + review->value + "'");
        }
        memory.review = memory.review || *flag;
    }
    if (const FrontmatterEntry *pinned = document.find("pinned")) {
        const auto flag = parse_flag(pinned->value);
        if (!flag) {
            throw_field_error(source_name, *pinned, "expected 'true' or 'false', got '" + pinned->value + "'");
        }
        memory.pinned = *flag;
    }
    if (const FrontmatterEntry *id = document.find("id")) {
        memory.id = decode_scalar(*id, source_name);
        if (!is_memory_id(memory.id)) {
            throw_field_error(source_name, *id,
                              "expected 7 characters of 0-9 and a-z without i, l, o and u (such as k3f9a2q), got '" +
                                  memory.id + "'");
        }
    }
    memory.frontmatter = std::move(document.entries);
    return memory;
}

void validate_memory(const Memory &memory, std::string_view target_name) {
    if (memory.type.empty() || has_control(memory.type)) {
        fail_memory(target_name, "type must be non-empty and free of control characters");
    }
    if (memory.summary.empty()) {
        fail_memory(target_name, "summary must not be empty");
    }
    if (ends_with_review_suffix(memory.summary)) {
        fail_memory(target_name, "summary ends with '[review]'; set the review flag instead");
    }
    check_time(memory.created, "created", target_name);
    check_time(memory.last_accessed, "last_accessed", target_name);
    check_names(memory.tags, "tags", target_name);
    check_names(memory.sessions, "session ids", target_name);
    if (std::set<std::string>(memory.sessions.begin(), memory.sessions.end()).size() !=
        memory.sessions.size()) {
        fail_memory(target_name, "a session id appears twice in sessions");
    }
    if (!memory.id.empty() && !is_memory_id(memory.id)) {
        fail_memory(target_name, "id '" + memory.id + "' is not a memory id (7 characters of 0-9, a-z without i, l, o, u)");
    }
    if (memory.line_ending != "\n" && memory.line_ending != "\r\n") {
        fail_memory(target_name, "line ending must be \"\\n\" or \"\\r\\n\"");
    }
    std::set<std::string_view> keys;
    for (const FrontmatterEntry &entry : memory.frontmatter) {
        if (entry.is_field() && !keys.insert(entry.key).second) {
            fail_memory(target_name, "frontmatter field '" + entry.key + "' appears twice");
        }
    }
}

std::string serialise_memory(const Memory &memory, std::string_view target_name) {
    validate_memory(memory, target_name);
    FrontmatterDocument document;
    document.line_ending = memory.line_ending;
    document.body = memory.body;
    document.entries.reserve(memory.frontmatter.size() + 8);
    std::set<std::string_view> written;
    for (const FrontmatterEntry &entry : memory.frontmatter) {
        if (!is_typed_memory_field(entry.key)) {
            document.entries.push_back(entry);
            continue;
        }
        written.insert(entry.key);
        if (still_holds(entry, memory)) {
            document.entries.push_back(entry);
            continue;
        }
        std::optional<std::string> value = typed_value(entry.key, memory);
        if (!value && (entry.key == "tags" || entry.key == "sessions")) {
            value = "[]";
        }
        if (value) {
            FrontmatterEntry updated = entry;
            updated.value = std::move(*value);
            document.entries.push_back(std::move(updated));
        }
    }
    for (const std::string_view key : {"id", "type", "summary", "created", "last_accessed", "access_count", "tags",
                                       "sessions", "session_count", "review", "pinned"}) {
        if (written.contains(key)) {
            continue;
        }
        if (std::optional<std::string> value = typed_value(key, memory)) {
            FrontmatterEntry entry;
            entry.key = std::string(key);
            entry.value = std::move(*value);
            document.entries.push_back(std::move(entry));
        }
    }
    try {
        return serialise_frontmatter(document);
    } catch (const StoreError &error) {
        fail_memory(target_name, error.what());
    }
}

} // namespace starling::core
