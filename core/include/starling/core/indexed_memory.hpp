// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/file_io.hpp>
#include <starling/core/index_entry.hpp>
#include <starling/core/scope.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
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
    std::string_view type;
    std::string_view summary;
    /// The tags joined by '\n', as the plugin ABI passes them; empty when there are none.
    std::string_view tags;
    std::chrono::sys_seconds created{};
    std::chrono::sys_seconds last_accessed{};
    std::uint32_t access_count = 0;
    std::uint32_t session_count = 0;
    bool review = false;
    FileStamp file;
};

/// The owning copy of a view.
[[nodiscard]] IndexEntry to_index_entry(const IndexedMemory &memory);

/// Tags joined by '\n', the form IndexedMemory and the plugin ABI use.
[[nodiscard]] std::string join_tags(const std::vector<std::string> &tags);

/// A view of `entry`, whose tags are given joined (see join_tags); both must outlive it.
[[nodiscard]] IndexedMemory view_of(const IndexEntry &entry, std::string_view joined_tags) noexcept;

/// A listing of the machine index that copies no text: the hook path lists thousands of memories to
/// score a prompt, and copying each one's strings used to cost as much as the scoring. The views stay
/// valid as long as this object, whatever the store does meanwhile.
class IndexedMemories {
public:
    IndexedMemories() = default;
    IndexedMemories(std::shared_ptr<const void> storage, std::vector<IndexedMemory> memories)
        : storage_{std::move(storage)}, memories_(std::move(memories)) {}

    [[nodiscard]] std::size_t size() const noexcept { return memories_.size(); }
    [[nodiscard]] bool empty() const noexcept { return memories_.empty(); }
    [[nodiscard]] const IndexedMemory &operator[](std::size_t index) const noexcept { return memories_[index]; }
    [[nodiscard]] auto begin() const noexcept { return memories_.begin(); }
    [[nodiscard]] auto end() const noexcept { return memories_.end(); }

    /// Appends another listing's memories, keeping its data alive too.
    void append(IndexedMemories other);

private:
    std::vector<std::shared_ptr<const void>> storage_;
    std::vector<IndexedMemory> memories_;
};

} // namespace starling::core
