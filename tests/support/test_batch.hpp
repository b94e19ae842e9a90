// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/bytes.hpp>

#include <deque>
#include <string>
#include <vector>

namespace starling::test {

/// A memory batch built by hand, for exercising policies without a store.
class TestBatch {
public:
    struct Entry {
        std::string key;
        std::string summary;
        std::string tags; ///< '\n'-separated, as the ABI carries them
        std::string body;
    };

    TestBatch &add(Entry entry) {
        entries_.push_back(std::move(entry));
        const Entry &stored = entries_.back();
        starling_memory_view view{};
        view.struct_size = sizeof(starling_memory_view);
        view.key = sdk::as_bytes(stored.key);
        view.scope = sdk::as_bytes("user");
        view.tier = sdk::as_bytes("long");
        view.type = sdk::as_bytes("feedback");
        view.summary = sdk::as_bytes(stored.summary);
        view.tags = sdk::as_bytes(stored.tags);
        view.body = sdk::as_bytes(stored.body);
        view.access_count = 1;
        view.session_count = 1;
        views_.push_back(view);
        return *this;
    }

    const starling_memory_batch &batch() {
        pointers_.clear();
        for (const auto &view : views_) {
            pointers_.push_back(&view);
        }
        batch_ = starling_memory_batch{sizeof(starling_memory_batch), STARLING_BATCH_HAS_BODIES, 0,
                                       pointers_.size(), pointers_.data()};
        return batch_;
    }

private:
    std::deque<Entry> entries_; // deque: views point into entries, which must not move
    std::deque<starling_memory_view> views_;
    std::vector<const starling_memory_view *> pointers_;
    starling_memory_batch batch_{};
};

} // namespace starling::test
