// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/term_matcher.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

using starling::bm25::BatchPostings;
using starling::bm25::BatchTerms;
using starling::bm25::Field;
using starling::bm25::FieldCounts;
using starling::bm25::TermId;
using starling::bm25::TermMatch;
using starling::bm25::TermMatcher;

namespace {

void add(BatchTerms &batch, Field field, const std::vector<TermId> &ids) {
    const auto slots = batch.add_text(field, ids.size());
    std::copy(ids.begin(), ids.end(), slots.begin());
}

} // namespace

TEST_CASE("query terms are counted per memory and field", "[policy][bm25][matcher]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {10, 11, 10});
    add(batch, Field::tags, {10});
    add(batch, Field::body, {12, 10});
    batch.start_memory();
    add(batch, Field::summary, {13});
    batch.start_memory();
    add(batch, Field::tags, {12});

    TermMatcher matcher;
    const std::vector<TermId> terms{12, 10}; // term 0 is id 12, term 1 is id 10
    matcher.match(terms, batch);

    const std::vector<TermMatch> expected{
        {0, 1, FieldCounts{2, 1, 1}}, // id 10 occurs first in memory 0
        {0, 0, FieldCounts{0, 0, 1}},
        {2, 0, FieldCounts{0, 1, 0}},
    };
    CHECK(matcher.matches() == expected);
}

TEST_CASE("ids beyond the largest query term and memories without matches are skipped",
          "[policy][bm25][matcher]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {500, 3, 7000});
    batch.start_memory();
    add(batch, Field::summary, {});

    TermMatcher matcher;
    const std::vector<TermId> terms{3};
    matcher.match(terms, batch);
    REQUIRE(matcher.matches().size() == 1);
    CHECK(matcher.matches().front() == TermMatch{0, 0, FieldCounts{1, 0, 0}});
}

TEST_CASE("matching again replaces the previous matches", "[policy][bm25][matcher]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {1, 2});

    TermMatcher matcher;
    matcher.match(std::vector<TermId>{1}, batch);
    matcher.match(std::vector<TermId>{2}, batch);
    REQUIRE(matcher.matches().size() == 1);
    CHECK(matcher.matches().front() == TermMatch{0, 0, FieldCounts{1, 0, 0}});

    matcher.match(std::vector<TermId>{}, batch);
    CHECK(matcher.matches().empty());
}

TEST_CASE("a batch's postings give the matches a pass over its tokens gives", "[policy][bm25][matcher]") {
    // Memories of random terms in every field, some empty, with repeats within and across texts.
    std::mt19937 random{20261129};
    std::uniform_int_distribution<TermId> term{0, 40};
    std::uniform_int_distribution<int> length{0, 9};
    BatchTerms batch;
    for (int memory = 0; memory < 60; ++memory) {
        batch.start_memory();
        for (const Field field : {Field::summary, Field::tags, Field::body, Field::context, Field::body}) {
            std::vector<TermId> ids(static_cast<std::size_t>(length(random)));
            std::generate(ids.begin(), ids.end(), [&] { return term(random); });
            add(batch, field, ids);
        }
    }
    const BatchPostings postings{batch, 41};
    TermMatcher by_tokens;
    TermMatcher by_postings;
    for (const std::vector<TermId> &terms : std::vector<std::vector<TermId>>{
             {3}, {12, 10}, {40, 0, 7, 21}, {}, {41, 99}, {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}) {
        by_tokens.match(terms, batch);
        by_postings.match(terms, postings);
        CHECK(by_postings.matches() == by_tokens.matches());
    }
    CHECK_FALSE(by_tokens.matches().empty());
}
