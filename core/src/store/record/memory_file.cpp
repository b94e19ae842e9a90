// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory_file.hpp>

#include "store/record/field_values.hpp"
#include "store/record/text_checks.hpp"

#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <unordered_set>

namespace starling::core {
namespace {

using detail::encode_value;
using detail::has_control;
using detail::is_empty_value;
using detail::parse_count;
using detail::parse_flag;
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

/// Decodes a typed field's entry into its member (a row of memory_fields.def); throws StoreError
/// naming the file, line and field. What the value must be beyond its kind is check_read's.
void decode_into(const FrontmatterEntry &entry, std::string_view source_name, std::string &value) {
    value = decode_scalar(entry, source_name);
}
void decode_into(const FrontmatterEntry &entry, std::string_view source_name, std::vector<std::string> &value) {
    value = decode_list(entry, source_name);
}
void decode_into(const FrontmatterEntry &entry, std::string_view source_name, std::chrono::sys_seconds &value) {
    value = decode_time(entry, source_name);
}
void decode_into(const FrontmatterEntry &entry, std::string_view source_name, std::uint32_t &value) {
    const auto count = parse_count(entry.value);
    if (!count) {
        throw_field_error(source_name, entry, "expected a whole number from 0 to 4294967295, got '" + entry.value + "'");
    }
    value = *count;
}
void decode_into(const FrontmatterEntry &entry, std::string_view source_name, bool &value) {
    const auto flag = parse_flag(entry.value);
    if (!flag) {
        throw_field_error(source_name, entry, "expected 'true' or 'false', got '" + entry.value + "'");
    }
    value = *flag;
}

/// Whose words a check failure is in: a parse error follows the file's line and field, a write
/// error names the field itself.
enum class Wording : std::uint8_t { reading, writing };

/// Why `value` fails its row's check (memory_fields.def), as a sentence after the field; empty when
/// it passes.
template <class Value>
std::string check_failure(const FieldInfo &field, const Value &value, Wording wording) {
    if constexpr (std::is_same_v<Value, std::string>) {
        switch (field.check) {
        case FieldCheck::word:
            return value.empty() || has_control(value) ? "must be non-empty and free of control characters" : "";
        case FieldCheck::nonempty: return value.empty() ? "must not be empty" : "";
        case FieldCheck::memory_id:
            if ((value.empty() && field.presence == FieldPresence::optional) || is_memory_id(value)) {
                return {};
            }
            return wording == Wording::reading
                       ? "expected 7 characters of 0-9 and a-z without i, l, o and u (such as k3f9a2q), got '" + value + "'"
                       : "'" + value + "' is not a memory id (7 characters of 0-9, a-z without i, l, o, u)";
        case FieldCheck::any:
        case FieldCheck::names: break;
        }
    } else if constexpr (std::is_same_v<Value, std::vector<std::string>>) {
        if (field.check == FieldCheck::names &&
            std::any_of(value.begin(), value.end(), [](const std::string &item) { return item.empty() || has_control(item); })) {
            return wording == Wording::reading ? "items must be non-empty and free of control characters"
                                               : "must be non-empty and free of control characters";
        }
    }
    return {};
}

/// Whether an entry read from a file still says exactly what the typed member says. Any decoding
/// problem means "no": the entry is then rewritten from the member.
bool still_holds(const FrontmatterEntry &entry, const Memory &memory) {
    try {
        if (entry.key == "sessions") {
            return decode_list(entry, {}) == memory.sessions;
        }
        if (entry.key == "session_count") {
            return parse_count(entry.value) == memory.session_count();
        }
        bool holds = false;
        for_each_memory_field(memory, [&](const FieldInfo &field, const auto &value) {
            if (field.key == entry.key) {
                std::decay_t<decltype(value)> read{};
                decode_into(entry, {}, read);
                holds = read == value;
            }
        });
        return holds;
    } catch (const StoreError &) {
        return false;
    }
}

/// The encoded value of a typed field, or nullopt when the field is left out of a new file.
std::optional<std::string> typed_value(std::string_view key, const Memory &memory) {
    if (key == "sessions") {
        return memory.sessions.empty() ? std::nullopt : std::optional<std::string>(encode_list(memory.sessions));
    }
    if (key == "session_count") {
        return memory.earlier_sessions == 0 ? std::nullopt
                                            : std::optional<std::string>(std::to_string(memory.session_count()));
    }
    std::optional<std::string> encoded;
    bool typed = false;
    for_each_memory_field(memory, [&](const FieldInfo &field, const auto &value) {
        if (field.key == key) {
            typed = true;
            if (field.presence != FieldPresence::optional || !is_empty_value(value)) {
                encoded = encode_value(value);
            }
        }
    });
    if (!typed) {
        throw std::logic_error("not a typed memory field: " + std::string(key));
    }
    return encoded;
}

/// Whether an emptied typed field that a file already has is written empty ("[]") rather than left out.
bool kept_when_empty(std::string_view key) {
    return key == "sessions" || std::any_of(memory_fields.begin(), memory_fields.end(), [&](const FieldInfo &field) {
               return field.key == key && field.kind == FieldKind::list;
           });
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

    // Every row of memory_fields.def: present ones decoded, absent ones at their empty value.
    const FrontmatterEntry *last_accessed = nullptr;
    for_each_memory_field(memory, [&](const FieldInfo &field, auto &value) {
        const FrontmatterEntry *entry = document.find(field.key);
        if (entry == nullptr) {
            if (field.presence == FieldPresence::required) {
                throw StoreError(std::string(source_name) + ": missing required field '" + std::string(field.key) + "'");
            }
            value = {};
            return;
        }
        decode_into(*entry, source_name, value);
        if (field.name == memory_field::last_accessed.name) {
            last_accessed = entry;
        }
    });
    if (last_accessed == nullptr) {
        memory.last_accessed = memory.created;
    }
    // collie's review mark: "summary [review]" reads as the summary and review = true.
    std::string_view unsuffixed = memory.summary;
    while (ends_with_review_suffix(unsuffixed)) {
        const std::string_view shorter =
            trim_trailing_blanks(unsuffixed.substr(0, unsuffixed.size() - review_suffix.size()));
        if (shorter.empty()) {
            break;
        }
        unsuffixed = shorter;
        memory.review = true;
    }
    memory.summary.resize(unsuffixed.size());
    for_each_memory_field(memory, [&](const FieldInfo &field, const auto &value) {
        if (const std::string failure = check_failure(field, value, Wording::reading); !failure.empty()) {
            const FrontmatterEntry *entry = document.find(field.key);
            if (entry == nullptr) { // only a required field can fail its check, and it was found above
                throw StoreError(std::string(source_name) + ": '" + std::string(field.key) + "' " + failure);
            }
            throw_field_error(source_name, *entry, failure);
        }
    });
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
    memory.frontmatter = std::move(document.entries);
    return memory;
}

void validate_memory(const Memory &memory, std::string_view target_name) {
    for_each_memory_field(memory, [&](const FieldInfo &field, const auto &value) {
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::chrono::sys_seconds>) {
            check_time(value, field.key, target_name);
        } else if (const std::string failure = check_failure(field, value, Wording::writing); !failure.empty()) {
            fail_memory(target_name, std::string(field.key) + " " + failure);
        }
    });
    if (ends_with_review_suffix(memory.summary)) {
        fail_memory(target_name, "summary ends with '[review]'; set the review flag instead");
    }
    check_names(memory.sessions, "session ids", target_name);
    if (std::set<std::string>(memory.sessions.begin(), memory.sessions.end()).size() !=
        memory.sessions.size()) {
        fail_memory(target_name, "a session id appears twice in sessions");
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
        if (!value && kept_when_empty(entry.key)) {
            value = "[]";
        }
        if (value) {
            FrontmatterEntry updated = entry;
            updated.value = std::move(*value);
            document.entries.push_back(std::move(updated));
        }
    }
    const auto write_new = [&](std::string_view key) {
        if (written.contains(key)) {
            return;
        }
        if (std::optional<std::string> value = typed_value(key, memory)) {
            FrontmatterEntry entry;
            entry.key = std::string(key);
            entry.value = std::move(*value);
            document.entries.push_back(std::move(entry));
        }
    };
    for (const std::string_view key : typed_field_keys) {
        write_new(key);
    }
    try {
        return serialise_frontmatter(document);
    } catch (const StoreError &error) {
        fail_memory(target_name, error.what());
    }
}

} // namespace starling::core
