// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/store/record/memory_fields.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// One memory: what the agent should remember, and how it has been used.
///
/// The typed members are the fields Starling reasons about (memory_fields.def). Everything else in the file's frontmatter
/// (other seed systems' `salience`, `confidence`, `source`, `status`, `trigger`, `related`, hand-added
/// fields, comments) is kept in `frontmatter`, in file order, and written back untouched.
struct Memory {
    /// The fields of memory_fields.def, each as its row documents it.
#define STARLING_MEMORY_FIELD(member, kind, key, presence, check, initial, writer, abi)                                \
    FieldTypes<FieldKind::kind>::owned member = FieldTypes<FieldKind::kind>::owned initial;
#include <starling/core/store/record/memory_fields.def>

    /// The distinct ids of the most recent sessions that accessed the memory, oldest first; at most
    /// max_listed_sessions once add_sessions has run (a file written by hand may list more). Only
    /// the file keeps them; the index keeps their count (session_count()).
    std::vector<std::string> sessions;
    /// How many distinct sessions accessed the memory before the oldest one `sessions` lists. A
    /// memory injected into every new session would otherwise grow by an id a session, without
    /// bound, in a file meant for people to read. The file holds the total as `session_count`
    /// when this is not zero.
    std::uint32_t earlier_sessions = 0;
    /// The Markdown after the frontmatter, byte for byte.
    std::string body;

    /// Every frontmatter line as read, in file order. Entries for the typed fields above only record
    /// where those fields sit (the typed members win when writing); all other entries are carried
    /// through unchanged.
    std::vector<FrontmatterEntry> frontmatter;
    /// "\n" or "\r\n", as the file was written.
    std::string line_ending = "\n";

    /// A field this struct does not model (e.g. `salience`), or nullptr. Its value is still encoded;
    /// use decode_scalar or decode_list on it.
    [[nodiscard]] const FrontmatterEntry *extra_field(std::string_view key) const noexcept;

    /// Sets a field this struct does not model to a scalar value (encoded as needed), in place or at
    /// the end. Throws std::invalid_argument for a typed field's key, which must be set via its member.
    void set_extra_field(std::string_view key, std::string_view value);

    /// As set_extra_field, with an inline-list value.
    void set_extra_list(std::string_view key, const std::vector<std::string> &items);

    /// Removes a field this struct does not model; returns whether it existed.
    bool erase_extra_field(std::string_view key);

    /// Every distinct session that accessed the memory: listed and earlier ones (saturating).
    [[nodiscard]] std::uint32_t session_count() const noexcept;

    /// Equal when the typed members, the body and the other frontmatter entries (keys and values, in
    /// order) are equal. Line numbers, original spelling and line endings are layout, not content.
    friend bool operator==(const Memory &left, const Memory &right);
};

/// Appends each non-empty item of `items` that `into` does not hold yet, in order: how the tags and
/// sessions of two sources (a merge, a restatement, noted uses) are united.
void add_missing_items(std::vector<std::string> &into, const std::vector<std::string> &items);

/// How many session ids a memory lists; older ones are only counted (Memory::earlier_sessions).
inline constexpr std::size_t max_listed_sessions = 16;

/// Adds the ids of `session_ids` that `memory` does not list yet (add_missing_items), then keeps
/// only the newest max_listed_sessions, counting the ones it drops in `earlier_sessions`. A session
/// that comes back after its id was dropped is counted again: the price of a bounded list.
void add_sessions(Memory &memory, const std::vector<std::string> &session_ids);

/// Counts `count` reads of `memory`, the latest at `latest`, by `session_ids`: what reinforcement
/// is. A read also ends a review (the memory proved useful again).
void add_reads(Memory &memory, std::uint32_t count, std::chrono::sys_seconds latest,
               const std::vector<std::string> &session_ids);

/// Whether `key` is one of the frontmatter fields Memory models as a typed member: a row of
/// memory_fields.def, `sessions` or `session_count`.
[[nodiscard]] bool is_typed_memory_field(std::string_view key) noexcept;

/// The frontmatter fields Memory does not model as typed members (is_typed_memory_field), as one JSON
/// object in file order, then the typed fields plugins see there (STARLING_ABI_FIELDS) that are not
/// empty: a value written as an inline list is an array of strings, any other a string (decoded; a
/// value that does not decode is given as written). Empty when there are none.
/// This is what a policy sees as a memory's `fields` (abi.h, ABI 1.4).
[[nodiscard]] std::string fields_json(const Memory &memory);

/// The frontmatter field naming the memory that replaced this one (Memory::superseded_by).
inline constexpr std::string_view superseded_by_field = memory_field::superseded_by.key;

/// On a superseded memory that was pinned: `true`. Superseding lifts the pin, so that decay may
/// archive what a correction replaced; `starling restore` pins it again.
inline constexpr std::string_view pinned_before_superseded_field = "pinned_before_superseded";

/// Marks `memory` superseded by the memory with id `by`, and lifts its pin, remembering it.
void supersede(Memory &memory, std::string_view by);

/// Lifts the mark of supersede(), and pins the memory again if it was pinned. Returns the id of the
/// memory that had superseded it (empty when it was not superseded).
std::string lift_supersession(Memory &memory);

/// The memory's id: its `id` field, or for a file without one the id derived from its creation time
/// and summary (derive_memory_id), which is what the index and every command know it by.
[[nodiscard]] std::string memory_id_of(const Memory &memory);

} // namespace starling::core
