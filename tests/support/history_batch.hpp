// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/bytes.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace starling::test {

/// A memory as a relevance policy sees it: its texts, and the access history its boosts read.
struct HistoryMemory {
    std::string summary{};
    std::string tags{}; ///< '\n'-separated, as the ABI carries them
    std::string body{};
    std::int64_t last_accessed = 0;
    std::uint32_t access_count = 0;
    std::uint32_t session_count = 0;
    std::string key = "memory.md";
    // ABI 1.4 and what policies reading fields see.
    std::string id{};
    std::string fields = "{}"; ///< a JSON object's text
    std::string type{};
    std::string scope{};
    std::int64_t created = 0;
};

/// Memories as the ABI batch a host hands a policy, in the given order; owns what the views borrow
/// and borrows the memories, which must outlive it.
class HistoryBatch {
public:
    HistoryBatch(const std::vector<const HistoryMemory *> &memories, bool with_bodies, std::int64_t now) {
        for (const HistoryMemory *memory : memories) {
            starling_memory_view view{};
            view.struct_size = sizeof(starling_memory_view);
            view.key = sdk::as_bytes(memory->key);
            view.summary = sdk::as_bytes(memory->summary);
            view.tags = sdk::as_bytes(memory->tags);
            view.body = sdk::as_bytes(memory->body);
            view.last_accessed = memory->last_accessed;
            view.access_count = memory->access_count;
            view.session_count = memory->session_count;
            view.id = sdk::as_bytes(memory->id);
            view.fields = sdk::as_bytes(memory->fields);
            view.type = sdk::as_bytes(memory->type);
            view.scope = sdk::as_bytes(memory->scope);
            view.created = memory->created;
            views_.push_back(view);
        }
        for (const auto &view : views_) {
            pointers_.push_back(&view);
        }
        batch_ = {sizeof(starling_memory_batch), with_bodies ? STARLING_BATCH_HAS_BODIES : 0U, now, pointers_.size(),
                  pointers_.data()};
    }
    HistoryBatch(const std::vector<HistoryMemory> &memories, bool with_bodies, std::int64_t now)
        : HistoryBatch(pointers_to(memories), with_bodies, now) {}
    HistoryBatch(const HistoryBatch &) = delete;
    HistoryBatch &operator=(const HistoryBatch &) = delete;

    [[nodiscard]] const starling_memory_batch &get() const noexcept { return batch_; }

    [[nodiscard]] static std::vector<const HistoryMemory *> pointers_to(const std::vector<HistoryMemory> &memories) {
        std::vector<const HistoryMemory *> pointers;
        for (const auto &memory : memories) {
            pointers.push_back(&memory);
        }
        return pointers;
    }

private:
    std::deque<starling_memory_view> views_;
    std::vector<const starling_memory_view *> pointers_;
    starling_memory_batch batch_{};
};

} // namespace starling::test
