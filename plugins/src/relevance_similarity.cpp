// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/relevance_similarity.hpp>

#include <starling/sdk/bytes.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace starling::plugins {

namespace {

/// What a memory says, as a relevance query: its summary, its tags, and its body when the batch
/// carries bodies, one per line.
std::string query_of(const starling_memory_view &memory, bool with_body) {
    std::string query{sdk::as_string_view(memory.summary)};
    const std::string_view tags = sdk::as_string_view(memory.tags);
    if (!tags.empty()) {
        query += '\n';
        query += tags;
    }
    const std::string_view body = sdk::as_string_view(memory.body);
    if (with_body && !body.empty()) {
        query += '\n';
        query += body;
    }
    return query;
}

/// r[j] / r[self] clamped into [0, 1]; nothing is similar to a memory its own query does not find.
std::vector<double> normalised_row(std::vector<double> scores, std::size_t self) {
    const double own = scores[self];
    const bool usable = std::isfinite(own) && own > 0.0;
    for (double &score : scores) {
        score = usable && std::isfinite(score) ? std::clamp(score / own, 0.0, 1.0) : 0.0;
    }
    return scores;
}

/// Every memory's directed row, then the smaller of the two directions for each pair.
std::vector<double> symmetric_matrix(const core::RelevanceScorer &relevance, const starling_memory_batch &batch) {
    const std::size_t count = batch.count;
    const bool with_bodies = (batch.flags & STARLING_BATCH_HAS_BODIES) != 0;
    std::vector<double> directed(count * count, 0.0);
    for (std::size_t row = 0; row < count; ++row) {
        auto scores = relevance.score(query_of(*batch.items[row], with_bodies), batch);
        if (scores.size() != count) {
            throw std::runtime_error("the relevance policy returned " + std::to_string(scores.size()) +
                                     " scores for " + std::to_string(count) + " memories");
        }
        const auto normalised = normalised_row(std::move(scores), row);
        std::copy(normalised.begin(), normalised.end(), directed.begin() + static_cast<std::ptrdiff_t>(row * count));
    }
    std::vector<double> similarities(count * count, 0.0);
    for (std::size_t row = 0; row < count; ++row) {
        for (std::size_t column = 0; column < count; ++column) {
            similarities[row * count + column] =
                row == column ? 1.0 : std::min(directed[row * count + column], directed[column * count + row]);
        }
    }
    return similarities;
}

} // namespace

std::vector<double> relevance_similarities(const core::RelevanceScorer &relevance,
                                           const starling_memory_batch &batch) {
    return symmetric_matrix(relevance, batch);
}

std::vector<double> relevance_similarity_to_text(const core::RelevanceScorer &relevance, std::string_view text,
                                                 const starling_memory_batch &batch) {
    const bool with_bodies = (batch.flags & STARLING_BATCH_HAS_BODIES) != 0;
    starling_memory_view unsaved{};
    unsaved.struct_size = sizeof(starling_memory_view);
    unsaved.summary = sdk::as_bytes(text);
    unsaved.body = with_bodies ? sdk::as_bytes(text) : starling_bytes{};
    unsaved.created = batch.now;
    unsaved.last_accessed = batch.now;
    unsaved.fields = sdk::as_bytes("{}");
    std::vector<const starling_memory_view *> items(batch.items, batch.items + batch.count);
    items.push_back(&unsaved);
    starling_memory_batch with_text = batch;
    with_text.struct_size = sizeof(starling_memory_batch);
    with_text.count = items.size();
    with_text.items = items.data();
    const auto matrix = symmetric_matrix(relevance, with_text);
    const std::size_t last = batch.count;
    return {matrix.begin() + static_cast<std::ptrdiff_t>(last * items.size()),
            matrix.begin() + static_cast<std::ptrdiff_t>(last * items.size() + batch.count)};
}

} // namespace starling::plugins
