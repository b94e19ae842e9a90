// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/batch_term_source.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using starling::bm25::BatchTerms;
using starling::bm25::BatchTermSource;
using starling::bm25::Field;
using starling::bm25::FieldCounts;
using starling::bm25::Occurrence;
using starling::bm25::TermDictionary;
using starling::bm25::TermId;

namespace {

void add(BatchTerms &batch, Field field, const std::vector<TermId> &ids) {
    const auto slots = batch.add_text(field, ids.size());
    std::copy(ids.begin(), ids.end(), slots.begin());
}

/// Memory 0: summary {1 2 1}, tags {3}; memory 1: summary {2}; memory 2: tags {1 4}, body {4 4}.
BatchTerms sample_batch() {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {1, 2, 1});
    add(batch, Field::tags, {3});
    batch.start_memory();
    add(batch, Field::summary, {2});
    batch.start_memory();
    add(batch, Field::tags, {1, 4});
    add(batch, Field::body, {4, 4});
    return batch;
}

/// Keeps what it is shown.
class Collect final : public starling::bm25::OccurrenceVisitor {
public:
    void operator()(const Occurrence &occurrence) override { occurrences.push_back(occurrence); }
    std::vector<Occurrence> occurrences;
};

} // namespace

TEST_CASE("a batch source counts memories and field lengths", "[policy][bm25][source]") {
    const auto batch = sample_batch();
    TermDictionary dictionary;
    BatchTermSource source{batch, dictionary};
    CHECK(source.memory_count() == 3);
    CHECK(source.length_totals() == std::array<std::uint64_t, 4>{4, 3, 2, 0});

    std::vector<std::uint32_t> containing(4, 99);
    const std::vector<TermId> terms{1, 4, 2, 7};
    source.count_containing(terms, containing);
    CHECK(containing == std::vector<std::uint32_t>{2, 1, 2, 0});
}

TEST_CASE("a batch source visits occurrences term by term, under the indices it is given",
          "[policy][bm25][source]") {
    const auto batch = sample_batch();
    TermDictionary dictionary;
    BatchTermSource source{batch, dictionary};
    std::vector<std::uint32_t> containing(3);
    source.count_containing(std::vector<TermId>{1, 2, 4}, containing);

    // A subset of the counted terms, under indices of the caller's choosing, in the order given.
    Collect found;
    source.visit_occurrences(std::vector<TermId>{4, 1}, std::vector<std::uint32_t>{7, 5}, found, {});
    const std::vector<Occurrence> expected{
        {2, 7, FieldCounts{0, 1, 2}, FieldCounts{0, 2, 2}},
        {0, 5, FieldCounts{2, 0, 0}, FieldCounts{3, 1, 0}},
        {2, 5, FieldCounts{0, 1, 0}, FieldCounts{0, 2, 2}},
    };
    CHECK(found.occurrences == expected);

    // Terms not counted before are matched afresh.
    Collect again;
    source.visit_occurrences(std::vector<TermId>{3}, std::vector<std::uint32_t>{0}, again, {});
    CHECK(again.occurrences == std::vector<Occurrence>{{0, 0, FieldCounts{0, 1, 0}, FieldCounts{3, 1, 0}}});

    // Only the memories asked for.
    Collect only;
    const std::vector<std::uint8_t> memory_2{0, 0, 1};
    source.visit_occurrences(std::vector<TermId>{4, 1}, std::vector<std::uint32_t>{7, 5}, only, memory_2);
    CHECK(only.occurrences == std::vector<Occurrence>{expected[0], expected[2]});
}

TEST_CASE("a batch source copies the texts of the memories asked for, in that order", "[policy][bm25][source]") {
    const auto batch = sample_batch();
    TermDictionary dictionary;
    BatchTermSource source{batch, dictionary};
    BatchTerms out;
    source.memory_terms(std::vector<std::uint32_t>{2, 0}, out);
    REQUIRE(out.memory_count() == 2);
    REQUIRE(out.texts(0).size() == 2);
    CHECK(out.texts(0)[0].field == Field::tags);
    CHECK(std::vector<TermId>(out.terms(out.texts(0)[1]).begin(), out.terms(out.texts(0)[1]).end()) ==
          std::vector<TermId>{4, 4});
    CHECK(out.lengths(1) == FieldCounts{3, 1, 0});
}
