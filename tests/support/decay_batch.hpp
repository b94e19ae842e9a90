// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/bytes.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace starling::test {

inline constexpr std::int64_t seconds_per_day = 86'400;

/// A memory batch for decay policies, built by hand: every field a decay rule reads can be set.
/// Scope and tier default to what the key says (`memory/user/short/…`, `memory/projects/<id>/long/…`).
class DecayBatch {
public:
    struct Memory {
        // Every member has an initializer, so a designated initializer may name any subset of them.
        std::string key{};
        std::string summary{};
        std::string type = "feedback";
        std::string tags{};  ///< '\n'-separated, as the ABI carries them
        std::string tier{};  ///< empty: taken from the key
        std::string scope{}; ///< empty: taken from the key
        std::int64_t created = 0;
        std::int64_t last_accessed = 0;
        std::uint32_t access_count = 1;
        std::uint32_t session_count = 1;
        bool under_review = false;
        // ABI 1.4 members: the stable id and the other frontmatter fields, as a JSON object's text.
        std::string id{};
        std::string fields = "{}";
        bool pinned = false;
        std::string body{}; ///< read by policies only when the batch has bodies
    };

    /// `has_bodies`: the batch carries each memory's text, as consolidation's batches do.
    explicit DecayBatch(std::int64_t now, bool has_bodies = false) : now_(now), has_bodies_(has_bodies) {}
    // The views point into the memories: a copy would point into the original, a move keeps them valid.
    DecayBatch(const DecayBatch &) = delete;
    DecayBatch &operator=(const DecayBatch &) = delete;
    DecayBatch(DecayBatch &&) noexcept = default;
    DecayBatch &operator=(DecayBatch &&) noexcept = default;

    DecayBatch &add(Memory memory) {
        if (memory.tier.empty()) {
            memory.tier = tier_of(memory.key);
        }
        if (memory.scope.empty()) {
            memory.scope = std::string_view{memory.key}.starts_with("memory/projects/") ? "project" : "user";
        }
        memories_.push_back(std::move(memory));
        const Memory &stored = memories_.back();
        starling_memory_view view{};
        view.struct_size = sizeof(starling_memory_view);
        view.key = sdk::as_bytes(stored.key);
        view.scope = sdk::as_bytes(stored.scope);
        view.tier = sdk::as_bytes(stored.tier);
        view.type = sdk::as_bytes(stored.type);
        view.summary = sdk::as_bytes(stored.summary);
        view.tags = sdk::as_bytes(stored.tags);
        view.created = stored.created;
        view.last_accessed = stored.last_accessed;
        view.access_count = stored.access_count;
        view.session_count = stored.session_count;
        view.flags = (stored.under_review ? STARLING_MEMORY_UNDER_REVIEW : 0U) | (stored.pinned ? STARLING_MEMORY_PINNED : 0U);
        view.body = has_bodies_ ? sdk::as_bytes(stored.body) : starling_bytes{nullptr, 0};
        view.id = sdk::as_bytes(stored.id);
        view.fields = sdk::as_bytes(stored.fields);
        views_.push_back(view);
        return *this;
    }

    [[nodiscard]] std::int64_t now() const noexcept { return now_; }
    [[nodiscard]] const std::deque<Memory> &memories() const noexcept { return memories_; }

    /// The batch, its items in the order added. Valid until the next add().
    const starling_memory_batch &batch() {
        pointers_.clear();
        for (const auto &view : views_) {
            pointers_.push_back(&view);
        }
        batch_ =
            starling_memory_batch{sizeof(starling_memory_batch), has_bodies_ ? STARLING_BATCH_HAS_BODIES : 0U, now_,
                                   pointers_.size(), pointers_.data()};
        return batch_;
    }

private:
    static std::string tier_of(std::string_view key) {
        if (key.find("/short/") != std::string_view::npos) {
            return "short";
        }
        return key.find("/long/") != std::string_view::npos ? "long" : "";
    }

    std::int64_t now_;
    bool has_bodies_ = false;
    std::deque<Memory> memories_; // deque: views point into memories, which must not move
    std::deque<starling_memory_view> views_;
    std::vector<const starling_memory_view *> pointers_;
    starling_memory_batch batch_{};
};

} // namespace starling::test
