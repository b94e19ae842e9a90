// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// The rows of memory_fields.def as values, and the visitors every codec of a memory walks them with.
namespace starling::core {

/// What a field holds: its type in each form (FieldTypes) and how each representation codes it.
enum class FieldKind : std::uint8_t { text, list, time, count, flag };

/// When a field must be in a memory's file, and when it is written (memory_fields.def).
enum class FieldPresence : std::uint8_t { required, always, optional };

/// What a field's value must be (memory_fields.def).
enum class FieldCheck : std::uint8_t { any, word, nonempty, memory_id, names };

/// Who may set a field (memory_fields.def): only Starling, or a decay policy's plan too.
enum class FieldWriter : std::uint8_t { host, policies };

/// One row of memory_fields.def.
struct FieldInfo {
    /// The member's name: also the field's name in JSON output.
    std::string_view name;
    FieldKind kind = FieldKind::text;
    /// The frontmatter key; empty for a field the index derives (STARLING_INDEX_FIELD).
    std::string_view key;
    FieldPresence presence = FieldPresence::optional;
    FieldCheck check = FieldCheck::any;
    FieldWriter writer = FieldWriter::host;
    /// Whether plugins see it in the view's `fields` object rather than as a member of the view.
    bool in_abi_fields = false;
};

/// A kind's type in the owning forms (Memory, IndexEntry) and in the index's view (IndexedMemory),
/// which holds a list as its items joined by '\n', as the plugin ABI passes them.
template <FieldKind>
struct FieldTypes;
template <>
struct FieldTypes<FieldKind::text> {
    using owned = std::string;
    using view = std::string_view;
};
template <>
struct FieldTypes<FieldKind::list> {
    using owned = std::vector<std::string>;
    using view = std::string_view;
};
template <>
struct FieldTypes<FieldKind::time> {
    using owned = std::chrono::sys_seconds;
    using view = std::chrono::sys_seconds;
};
template <>
struct FieldTypes<FieldKind::count> {
    using owned = std::uint32_t;
    using view = std::uint32_t;
};
template <>
struct FieldTypes<FieldKind::flag> {
    using owned = bool;
    using view = bool;
};

/// The rows of the memory's own fields, by member name: memory_field::summary.
namespace memory_field {
#define STARLING_ABI_MEMBER(view_member) false
#define STARLING_ABI_FLAG(bit) false
#define STARLING_ABI_FIELDS true
#define STARLING_MEMORY_FIELD(member, kind_, key_, presence_, check_, initial, writer_, abi)                    \
    inline constexpr FieldInfo member{.name = #member,                                                      \
                                      .kind = FieldKind::kind_,                                             \
                                      .key = key_,                                                          \
                                      .presence = FieldPresence::presence_,                                 \
                                      .check = FieldCheck::check_,                                          \
                                      .writer = FieldWriter::writer_,                                       \
                                      .in_abi_fields = abi};
#include <starling/core/store/record/memory_fields.def>
#undef STARLING_ABI_MEMBER
#undef STARLING_ABI_FLAG
#undef STARLING_ABI_FIELDS
} // namespace memory_field

/// The rows of the fields the index derives, by member name: index_field::body_excerpt.
namespace index_field {
#define STARLING_INDEX_FIELD(member, kind_)                                                                  \
    inline constexpr FieldInfo member{.name = #member,                                                      \
                                      .kind = FieldKind::kind_,                                             \
                                      .key = {},                                                            \
                                      .presence = FieldPresence::optional,                                  \
                                      .check = FieldCheck::any,                                             \
                                      .writer = FieldWriter::host,                                          \
                                      .in_abi_fields = false};
#include <starling/core/store/record/memory_fields.def>
} // namespace index_field

/// Every row of the memory's own fields, in order.
inline constexpr std::array memory_fields = {
#define STARLING_MEMORY_FIELD(member, ...) memory_field::member,
#include <starling/core/store/record/memory_fields.def>
};

/// The frontmatter keys of every typed field, the file-only ones too, in the order a new file has them.
inline constexpr std::array typed_field_keys = {
#define STARLING_MEMORY_FIELD(member, kind, key, ...) std::string_view{key},
#define STARLING_FILE_FIELD(key) std::string_view{key},
#include <starling/core/store/record/memory_fields.def>
};

/// Every row the index stores: the memory's own fields, then the derived ones, in order.
inline constexpr std::array indexed_fields = {
#define STARLING_MEMORY_FIELD(member, ...) memory_field::member,
#define STARLING_INDEX_FIELD(member, kind) index_field::member,
#include <starling/core/store/record/memory_fields.def>
};

/// How many of the index's fields are lists: the storage a view of an IndexEntry needs (view_of).
inline constexpr std::size_t indexed_list_fields = static_cast<std::size_t>(std::count_if(
    indexed_fields.begin(), indexed_fields.end(), [](const FieldInfo &field) { return field.kind == FieldKind::list; }));

/// Calls `visit(const FieldInfo &, member)` for each of the memory's own fields of `record` (a Memory,
/// IndexEntry or IndexedMemory, const or not), in row order.
template <class Record, class Visit>
void for_each_memory_field(Record &record, Visit &&visit) {
#define STARLING_MEMORY_FIELD(member, ...) visit(memory_field::member, record.member);
#include <starling/core/store/record/memory_fields.def>
}

/// As for_each_memory_field, with the member of each of several records: `visit(info, records.member...)`.
template <class Visit, class... Records>
void for_each_memory_field_of(Visit &&visit, Records &...records) {
#define STARLING_MEMORY_FIELD(member, ...) visit(memory_field::member, records.member...);
#include <starling/core/store/record/memory_fields.def>
}

/// As for_each_memory_field, with a member of each record: `visit(info, left.member, right.member)`.
template <class Left, class Right, class Visit>
void for_each_memory_field(Left &left, Right &right, Visit &&visit) {
    for_each_memory_field_of(visit, left, right);
}

/// Calls `visit(const FieldInfo &, member)` for each field the index stores of `record` (an
/// IndexEntry or IndexedMemory): the memory's own, then the derived ones.
template <class Record, class Visit>
void for_each_indexed_field(Record &record, Visit &&visit) {
    for_each_memory_field(record, visit);
#define STARLING_INDEX_FIELD(member, kind) visit(index_field::member, record.member);
#include <starling/core/store/record/memory_fields.def>
}

/// As for_each_indexed_field, with a member of each record: `visit(info, left.member, right.member)`.
template <class Left, class Right, class Visit>
void for_each_indexed_field(Left &left, Right &right, Visit &&visit) {
    for_each_memory_field(left, right, visit);
#define STARLING_INDEX_FIELD(member, kind) visit(index_field::member, left.member, right.member);
#include <starling/core/store/record/memory_fields.def>
}

} // namespace starling::core
