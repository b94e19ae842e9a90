// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/batch_terms.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using starling::bm25::BatchTerms;
using starling::bm25::Field;
using starling::bm25::FieldCounts;
using starling::bm25::TermId;

namespace {

void add(BatchTerms &batch, Field field, const std::vector<TermId> &ids) {
    const auto slots = batch.add_text(field, ids.size());
    std::copy(ids.begin(), ids.end(), slots.begin());
}

std::vector<TermId> terms_of(const BatchTerms &batch, std::size_t memory, std::size_t text) {
    const auto terms = batch.terms(batch.texts(memory)[text]);
    return {terms.begin(), terms.end()};
}

} // namespace

TEST_CASE("each memory keeps its texts apart, in the order they were added", "[policy][bm25][batch-terms]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {0, 1, 2});
    add(batch, Field::tags, {3});
    add(batch, Field::tags, {4, 0});
    batch.start_memory();
    add(batch, Field::summary, {5});
    add(batch, Field::body, {1, 1, 6, 7});

    REQUIRE(batch.memory_count() == 2);
    REQUIRE(batch.texts(0).size() == 3);
    CHECK(batch.texts(0)[1].field == Field::tags);
    CHECK(terms_of(batch, 0, 0) == std::vector<TermId>{0, 1, 2});
    CHECK(terms_of(batch, 0, 2) == std::vector<TermId>{4, 0});
    REQUIRE(batch.texts(1).size() == 2);
    CHECK(batch.texts(1)[1].field == Field::body);
    CHECK(terms_of(batch, 1, 1) == std::vector<TermId>{1, 1, 6, 7});
}

TEST_CASE("field lengths add up the terms of every text of the field", "[policy][bm25][batch-terms]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {0, 1});
    add(batch, Field::tags, {2});
    add(batch, Field::tags, {3, 4, 5});
    batch.start_memory();
    CHECK(batch.lengths(0) == FieldCounts{2, 4, 0});
    CHECK(batch.lengths(1) == FieldCounts{0, 0, 0});
    CHECK(batch.texts(1).empty());
}

TEST_CASE("an empty text is kept as a text of no terms", "[policy][bm25][batch-terms]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {});
    add(batch, Field::tags, {9});
    REQUIRE(batch.texts(0).size() == 2);
    CHECK(batch.texts(0)[0].count == 0);
    CHECK(batch.terms(batch.texts(0)[0]).empty());
    CHECK(terms_of(batch, 0, 1) == std::vector<TermId>{9});
}

TEST_CASE("clearing forgets every memory", "[policy][bm25][batch-terms]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {1, 2});
    batch.clear();
    CHECK(batch.memory_count() == 0);
    batch.start_memory();
    add(batch, Field::summary, {3});
    CHECK(terms_of(batch, 0, 0) == std::vector<TermId>{3});
    CHECK(batch.lengths(0) == FieldCounts{1, 0, 0});
}
