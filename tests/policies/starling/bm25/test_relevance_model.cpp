// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/relevance_model.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <vector>

using starling::bm25::BatchTerms;
using starling::bm25::Field;
using starling::bm25::RelevanceModel;
using starling::bm25::TermId;

namespace {

constexpr std::array<double, 4> summary_tags_body{3.0, 2.0, 1.0, 1.0}; // and context

void add(BatchTerms &batch, Field field, const std::vector<TermId> &ids) {
    const auto slots = batch.add_text(field, ids.size());
    std::copy(ids.begin(), ids.end(), slots.begin());
}

std::map<TermId, double> probabilities(const RelevanceModel &model) {
    std::map<TermId, double> by_id;
    for (const auto &term : model.terms()) {
        by_id.emplace(term.id, term.probability);
    }
    return by_id;
}

} // namespace

TEST_CASE("P(t|R) mixes each feedback memory's weighted term distribution by its score share",
          "[policy][bm25][feedback]") {
    BatchTerms batch;
    batch.start_memory(); // weighted length 3·2 + 2·1 = 8
    add(batch, Field::summary, {1, 2});
    add(batch, Field::tags, {2});
    batch.start_memory(); // weighted length 3·2 + 1·1 = 7
    add(batch, Field::summary, {2, 3});
    add(batch, Field::body, {4});
    batch.start_memory(); // not feedback
    add(batch, Field::summary, {9});

    const std::vector<double> scores{3.0, 1.0, 0.5};
    const std::vector<std::size_t> feedback{0, 1};
    RelevanceModel model;
    model.estimate(batch, 10, feedback, scores, 4.0, summary_tags_body);

    const auto p = probabilities(model);
    REQUIRE(p.size() == 4);
    CHECK(p.at(1) == 0.75 * 3.0 / 8.0);
    CHECK(p.at(2) == Approx(0.75 * 5.0 / 8.0 + 0.25 * 3.0 / 7.0));
    CHECK(p.at(3) == Approx(0.25 * 3.0 / 7.0));
    CHECK(p.at(4) == Approx(0.25 * 1.0 / 7.0));
}

TEST_CASE("terms of fields weighted 0 are listed with probability 0", "[policy][bm25][feedback]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {1});
    add(batch, Field::tags, {8});
    batch.start_memory(); // every term in a field weighted 0: the memory adds nothing
    add(batch, Field::tags, {7});

    const std::vector<double> scores{1.0, 1.0};
    const std::vector<std::size_t> feedback{0, 1};
    RelevanceModel model;
    model.estimate(batch, 10, feedback, scores, 2.0, {3.0, 0.0, 1.0});

    const auto p = probabilities(model);
    REQUIRE(p.size() == 2);
    CHECK(p.at(1) == 0.5);
    CHECK(p.at(8) == 0.0);
}

TEST_CASE("each estimate starts from nothing", "[policy][bm25][feedback]") {
    BatchTerms batch;
    batch.start_memory();
    add(batch, Field::summary, {1, 2});
    batch.start_memory();
    add(batch, Field::summary, {2, 3});

    const std::vector<double> scores{1.0, 1.0};
    RelevanceModel model;
    model.estimate(batch, 4, std::vector<std::size_t>{0}, scores, 1.0, summary_tags_body);
    model.estimate(batch, 4, std::vector<std::size_t>{1}, scores, 1.0, summary_tags_body);

    const auto p = probabilities(model);
    REQUIRE(p.size() == 2);
    CHECK(p.at(2) == 0.5);
    CHECK(p.at(3) == 0.5);
}
