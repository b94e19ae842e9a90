// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace starling::sdk {

/// Read-only view of one memory handed to a policy. Borrowed: valid for the call only.
class MemoryView {
public:
    explicit MemoryView(const starling_memory_view &view) noexcept : view_(&view) {}

    [[nodiscard]] std::string_view key() const noexcept { return as_string_view(view_->key); }
    [[nodiscard]] std::string_view scope() const noexcept { return as_string_view(view_->scope); }
    [[nodiscard]] std::string_view tier() const noexcept { return as_string_view(view_->tier); }
    [[nodiscard]] std::string_view type() const noexcept { return as_string_view(view_->type); }
    [[nodiscard]] std::string_view summary() const noexcept { return as_string_view(view_->summary); }
    [[nodiscard]] std::string_view body() const noexcept { return as_string_view(view_->body); }
    [[nodiscard]] std::int64_t created() const noexcept { return view_->created; }
    [[nodiscard]] std::int64_t last_accessed() const noexcept { return view_->last_accessed; }
    [[nodiscard]] std::uint32_t access_count() const noexcept { return view_->access_count; }
    [[nodiscard]] std::uint32_t session_count() const noexcept { return view_->session_count; }
    [[nodiscard]] bool under_review() const noexcept { return (view_->flags & STARLING_MEMORY_UNDER_REVIEW) != 0; }

    /// The tags, split on the '\n' separator of the ABI.
    [[nodiscard]] std::vector<std::string_view> tags() const {
        std::vector<std::string_view> tags;
        for_each_tag([&](std::string_view tag) { tags.push_back(tag); });
        return tags;
    }

    /// Calls `visit(std::string_view)` for each tag, in order, without allocating: for policies
    /// that look at the tags of every memory on every call.
    template <class Visit>
    void for_each_tag(Visit &&visit) const {
        std::string_view rest = as_string_view(view_->tags);
        while (!rest.empty()) {
            const auto end = rest.find('\n');
            const auto tag = rest.substr(0, end);
            if (!tag.empty()) {
                visit(tag);
            }
            if (end == std::string_view::npos) {
                break;
            }
            rest.remove_prefix(end + 1);
        }
    }

private:
    const starling_memory_view *view_;
};

/// Read-only view of the batch a policy scores or plans over in one call.
class MemoryBatch {
public:
    explicit MemoryBatch(const starling_memory_batch &batch) noexcept : batch_(&batch) {}

    [[nodiscard]] std::size_t size() const noexcept { return batch_->count; }
    [[nodiscard]] bool empty() const noexcept { return batch_->count == 0; }
    [[nodiscard]] MemoryView operator[](std::size_t index) const noexcept { return MemoryView{*batch_->items[index]}; }
    [[nodiscard]] std::int64_t now() const noexcept { return batch_->now; }
    [[nodiscard]] bool has_bodies() const noexcept { return (batch_->flags & STARLING_BATCH_HAS_BODIES) != 0; }

private:
    const starling_memory_batch *batch_;
};

} // namespace starling::sdk
