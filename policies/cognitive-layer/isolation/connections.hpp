// SPDX-License-Identifier: Apache-2.0
//
// Who connects to whom: the memories of one scope, their similarities, and the clusters they form.
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::isolation {

/// `memory/user` or `memory/projects/<id>`: the scope directory of a key. Memories connect only within
/// one; the seed's NULL project connected to every project and bridged them.
[[nodiscard]] std::string scope_of(std::string_view key);

/// The memories of one scope, as indices into the batch, in batch order.
struct ScopeGroup {
    std::string scope;
    std::vector<std::size_t> members;
};

/// The batch split by scope, scopes in the order they first occur.
[[nodiscard]] std::vector<ScopeGroup> scope_groups(const sdk::MemoryBatch &memories);

/// A symmetric similarity matrix over `size` memories, row-major.
class SimilarityMatrix {
public:
    SimilarityMatrix(std::size_t size, std::vector<double> values) : size_(size), values_(std::move(values)) {}
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] double at(std::size_t row, std::size_t column) const { return values_.at(row * size_ + column); }

private:
    std::size_t size_;
    std::vector<double> values_;
};

/// The connected components of the graph whose edges join memories at least `threshold` similar:
/// each a sorted list of positions, components ordered by their first position.
[[nodiscard]] std::vector<std::vector<std::size_t>> components(const SimilarityMatrix &similarity, double threshold);

/// The seed's coherence step: while some pair of the component is less than `threshold` similar,
/// drop the member whose removal leaves the greatest least pairwise similarity (the later position
/// on a tie). Empty when fewer than `min_size` members remain.
[[nodiscard]] std::vector<std::size_t> coherent_core(std::vector<std::size_t> component,
                                                     const SimilarityMatrix &similarity, double threshold,
                                                     std::size_t min_size);

} // namespace starling::isolation
