// SPDX-License-Identifier: Apache-2.0
//
// Which memories of a batch are linked with which: a memory's `links` (ABI 1.4 fields) of the
// relations bm25 reads as context — by default `episode`, the memories `remember` stored just
// before it in the same scope, and `related` — followed both ways, within one scope. A memory's
// linked memories lend it their texts as its `context` field (memory_fields.hpp), so that a
// question that names what was said around a memory finds it: one hop of expansion, computed when
// the batch is tokenised, so that scoring a batch and ranking from an index see the same texts.
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace starling::bm25 {

class LinkedContext {
public:
    /// Links nothing.
    LinkedContext() = default;

    /// The links of `batch` of the given relations. A link to a memory outside the batch, of
    /// another scope, or to the memory itself is ignored, as is a memory whose fields are not JSON.
    void build(const sdk::MemoryBatch &batch, std::span<const std::string> relations);

    /// The memories linked with `memory` (in either direction), in batch order, each once.
    [[nodiscard]] std::span<const std::uint32_t> linked_with(std::size_t memory) const noexcept {
        if (memory + 1 >= starts_.size()) {
            return {};
        }
        return std::span<const std::uint32_t>{linked_}.subspan(starts_[memory], starts_[memory + 1] - starts_[memory]);
    }

private:
    std::vector<std::size_t> starts_; ///< memory count + 1 offsets into linked_; empty when nothing links
    std::vector<std::uint32_t> linked_;
};

} // namespace starling::bm25
