// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/record/scope.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// What the machine index says about one memory, read in place: the texts point into the index
/// data, which the IndexedMemories holding the view keeps alive. IndexEntry is the owning form.
struct IndexedMemory {
    std::string_view key;
    ScopeKind scope_kind = ScopeKind::user;
    /// Empty for the user scope.
    std::string_view project_id;
    Tier tier = Tier::short_term;
    FileStamp file;
    /// The fields of memory_fields.def, as IndexEntry has them; a list as its items joined by '\n'
    /// (the plugin ABI's form), empty when it has none.
#define STARLING_MEMORY_FIELD(member, kind, ...) FieldTypes<FieldKind::kind>::view member{};
#define STARLING_INDEX_FIELD(member, kind) FieldTypes<FieldKind::kind>::view member{};
#include <starling/core/store/record/memory_fields.def>
};

/// Whether a correction superseded the memory (memory_fields.def).
[[nodiscard]] inline bool is_superseded(const IndexedMemory &memory) noexcept { return !memory.superseded_by.empty(); }

/// The owning copy of a view.
[[nodiscard]] IndexEntry to_index_entry(const IndexedMemory &memory);

/// A list's items joined by '\n', the form IndexedMemory and the plugin ABI use.
[[nodiscard]] std::string join_list(const std::vector<std::string> &items);

/// What a view of an IndexEntry points into besides the entry: its lists, joined (join_list).
using JoinedLists = std::array<std::string, indexed_list_fields>;

/// A view of `entry`, whose lists are joined into `joined`; both must outlive it.
[[nodiscard]] IndexedMemory view_of(const IndexEntry &entry, JoinedLists &joined);

/// A listing of the machine index that copies neither text nor records: the hook path lists
/// thousands of memories to score a prompt, and copying each one's strings, and later each one's
/// record, used to cost as much as the scoring (at 10,000 memories a record copy alone touched
/// 400 fresh pages). The listing points at records that `storage` keeps alive, or at copies it owns;
/// either way they stay valid as long as this object, whatever the store does meanwhile.
class IndexedMemories {
public:
    /// Iterates the memories as `const IndexedMemory &`.
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = IndexedMemory;
        using difference_type = std::ptrdiff_t;
        using pointer = const IndexedMemory *;
        using reference = const IndexedMemory &;

        const_iterator() = default;
        explicit const_iterator(std::vector<const IndexedMemory *>::const_iterator at) : at_(at) {}

        reference operator*() const noexcept { return **at_; }
        pointer operator->() const noexcept { return *at_; }
        reference operator[](difference_type offset) const noexcept { return *at_[offset]; }
        const_iterator &operator++() noexcept { ++at_; return *this; }
        const_iterator operator++(int) noexcept { return const_iterator{at_++}; }
        const_iterator &operator--() noexcept { --at_; return *this; }
        const_iterator operator--(int) noexcept { return const_iterator{at_--}; }
        const_iterator &operator+=(difference_type offset) noexcept { at_ += offset; return *this; }
        const_iterator &operator-=(difference_type offset) noexcept { at_ -= offset; return *this; }
        friend const_iterator operator+(const_iterator it, difference_type offset) noexcept { return it += offset; }
        friend const_iterator operator+(difference_type offset, const_iterator it) noexcept { return it += offset; }
        friend const_iterator operator-(const_iterator it, difference_type offset) noexcept { return it -= offset; }
        friend difference_type operator-(const_iterator left, const_iterator right) noexcept {
            return left.at_ - right.at_;
        }
        friend bool operator==(const const_iterator &, const const_iterator &) = default;
        friend auto operator<=>(const const_iterator &, const const_iterator &) = default;

    private:
        std::vector<const IndexedMemory *>::const_iterator at_;
    };

    IndexedMemories() = default;
    /// A listing of memories that live in `storage` (what they and their texts live in), which the
    /// listing keeps alive.
    IndexedMemories(std::vector<std::shared_ptr<const void>> storage, std::vector<const IndexedMemory *> memories);
    /// A listing that owns `memories`; their texts point into `storage`, which it keeps alive.
    IndexedMemories(std::shared_ptr<const void> storage, std::vector<IndexedMemory> memories);

    [[nodiscard]] std::size_t size() const noexcept { return memories_.size(); }
    [[nodiscard]] bool empty() const noexcept { return memories_.empty(); }
    [[nodiscard]] const IndexedMemory &operator[](std::size_t index) const noexcept { return *memories_[index]; }
    [[nodiscard]] const_iterator begin() const noexcept { return const_iterator{memories_.begin()}; }
    [[nodiscard]] const_iterator end() const noexcept { return const_iterator{memories_.end()}; }

    /// Appends another listing's memories, keeping its data alive too.
    void append(IndexedMemories other);

private:
    std::vector<std::shared_ptr<const void>> storage_;
    std::vector<const IndexedMemory *> memories_;
};

} // namespace starling::core
