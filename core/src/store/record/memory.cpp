// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory.hpp>

#include <starling/core/store/record/memory_id.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <utility>

namespace starling::core {
namespace {

bool is_other_entry(const FrontmatterEntry &entry) noexcept { return !is_typed_memory_field(entry.key); }

void require_extra_key(std::string_view key) {
    if (key.empty() || is_typed_memory_field(key)) {
        throw std::invalid_argument("'" + std::string(key) +
                                    "' is not an extra field: typed fields are set through Memory's members");
    }
}

} // namespace

void add_missing_items(std::vector<std::string> &into, const std::vector<std::string> &items) {
    for (const auto &item : items) {
        if (!item.empty() && std::find(into.begin(), into.end(), item) == into.end()) {
            into.push_back(item);
        }
    }
}

void add_sessions(Memory &memory, const std::vector<std::string> &session_ids) {
    add_missing_items(memory.sessions, session_ids);
    if (memory.sessions.size() <= max_listed_sessions) {
        return;
    }
    const std::size_t dropped = memory.sessions.size() - max_listed_sessions;
    memory.sessions.erase(memory.sessions.begin(), memory.sessions.begin() + static_cast<std::ptrdiff_t>(dropped));
    const std::uint32_t room = std::numeric_limits<std::uint32_t>::max() - memory.earlier_sessions;
    memory.earlier_sessions += static_cast<std::uint32_t>(std::min<std::size_t>(dropped, room));
}

void add_reads(Memory &memory, std::uint32_t count, std::chrono::sys_seconds latest,
               const std::vector<std::string> &session_ids) {
    memory.last_accessed = std::max(memory.last_accessed, latest);
    const std::uint32_t room = std::numeric_limits<std::uint32_t>::max() - memory.access_count;
    memory.access_count += std::min(count, room);
    add_sessions(memory, session_ids);
    memory.review = false;
}

std::uint32_t Memory::session_count() const noexcept {
    const std::uint32_t room = std::numeric_limits<std::uint32_t>::max() - earlier_sessions;
    return earlier_sessions + static_cast<std::uint32_t>(std::min<std::size_t>(sessions.size(), room));
}

std::string memory_id_of(const Memory &memory) {
    return memory.id.empty() ? derive_memory_id(memory.created, memory.summary) : memory.id;
}

bool is_typed_memory_field(std::string_view key) noexcept {
    return std::find(typed_field_keys.begin(), typed_field_keys.end(), key) != typed_field_keys.end();
}

const FrontmatterEntry *Memory::extra_field(std::string_view key) const noexcept {
    return is_typed_memory_field(key) ? nullptr : find_field(frontmatter, key);
}

void Memory::set_extra_field(std::string_view key, std::string_view value) {
    require_extra_key(key);
    set_field(frontmatter, key, encode_scalar(value));
}

void Memory::set_extra_list(std::string_view key, const std::vector<std::string> &items) {
    require_extra_key(key);
    set_field(frontmatter, key, encode_list(items));
}

bool Memory::erase_extra_field(std::string_view key) {
    return !is_typed_memory_field(key) && erase_field(frontmatter, key);
}

void supersede(Memory &memory, std::string_view by) {
    memory.superseded_by = by;
    if (memory.pinned) {
        memory.pinned = false;
        memory.set_extra_field(pinned_before_superseded_field, "true");
    }
}

std::string lift_supersession(Memory &memory) {
    std::string by = std::exchange(memory.superseded_by, {});
    if (memory.erase_extra_field(pinned_before_superseded_field)) {
        memory.pinned = true;
    }
    return by;
}

bool operator==(const Memory &left, const Memory &right) {
    bool typed_equal = true;
    for_each_memory_field(left, right, [&](const FieldInfo &, const auto &left_value, const auto &right_value) {
        typed_equal = typed_equal && left_value == right_value;
    });
    if (!typed_equal || left.sessions != right.sessions || left.earlier_sessions != right.earlier_sessions ||
        left.body != right.body) {
        return false;
    }
    auto left_entry = left.frontmatter.begin();
    auto right_entry = right.frontmatter.begin();
    while (true) {
        left_entry = std::find_if(left_entry, left.frontmatter.end(), is_other_entry);
        right_entry = std::find_if(right_entry, right.frontmatter.end(), is_other_entry);
        if (left_entry == left.frontmatter.end() || right_entry == right.frontmatter.end()) {
            return left_entry == left.frontmatter.end() && right_entry == right.frontmatter.end();
        }
        if (!(*left_entry == *right_entry)) {
            return false;
        }
        ++left_entry;
        ++right_entry;
    }
}

} // namespace starling::core
