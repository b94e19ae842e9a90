// SPDX-License-Identifier: Apache-2.0
#include "policies/bm25/batch_term_source.hpp"
#include "policies/bm25/query_evaluator.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using starling::bm25::BatchTerms;
using starling::bm25::BatchTermSource;
using starling::bm25::Bm25Settings;
using starling::bm25::Field;
using starling::bm25::QueryEvaluator;
using starling::bm25::ScoredMemory;
using starling::bm25::TermDictionary;
using starling::bm25::Tokenizer;

namespace {

/// Summaries only, tokenised with `tokenizer` into `dictionary`.
BatchTerms summaries(const std::vector<std::string> &texts, Tokenizer &tokenizer, TermDictionary &dictionary) {
    BatchTerms batch;
    starling::bm25::TokenList tokens;
    for (const auto &text : texts) {
        batch.start_memory();
        tokens.clear();
        tokenizer.tokenize(text, tokens);
        const auto ids = batch.add_text(Field::summary, tokens.size());
        for (std::size_t token = 0; token < tokens.size(); ++token) {
            ids[token] = dictionary.intern(tokens[token]);
        }
    }
    return batch;
}

} // namespace

TEST_CASE("one query term scores by BM25F's formula", "[policy][bm25][evaluator]") {
    Bm25Settings settings;
    settings.feedback_documents = 0;
    settings.tokenizer.stop_words.clear();
    Tokenizer tokenizer{settings.tokenizer};
    TermDictionary dictionary;
    QueryEvaluator evaluator{settings, tokenizer};
    REQUIRE(evaluator.set_query("kafka", dictionary));
    const auto batch = summaries({"kafka lag", "billing queue runs", "kafka kafka"}, tokenizer, dictionary);
    BatchTermSource source{batch, dictionary};
    std::vector<ScoredMemory> scored;
    evaluator.evaluate(source, scored);

    // Average summary length 7 / 3; the term is in 2 of 3 memories.
    const double idf = std::log(1.0 + (3.0 - 2.0 + 0.5) / (2.0 + 0.5));
    const auto expected = [&](double count, double length) {
        const double frequency = 3.0 * count / (1.0 - 0.75 + 0.75 * length / (7.0 / 3.0));
        return idf * frequency * 2.2 / (1.2 + frequency);
    };
    REQUIRE(scored.size() == 2);
    CHECK(scored[0].memory == 0);
    CHECK(scored[0].score == Approx(expected(1, 2)));
    CHECK(scored[1].memory == 2);
    CHECK(scored[1].score == Approx(expected(2, 2)));
}

TEST_CASE("a query of stop words has no terms and scores nothing", "[policy][bm25][evaluator]") {
    Bm25Settings settings;
    settings.tokenizer.stop_words = {"the", "of"};
    Tokenizer tokenizer{settings.tokenizer};
    TermDictionary dictionary;
    QueryEvaluator evaluator{settings, tokenizer};
    CHECK_FALSE(evaluator.set_query("the of THE", dictionary));
}

TEST_CASE("feedback separates memories that the query's own terms cannot tell apart",
          "[policy][bm25][evaluator][feedback]") {
    Bm25Settings settings;
    settings.tokenizer.stop_words.clear();
    Tokenizer tokenizer{settings.tokenizer};
    const std::vector<std::string> texts{"kafka consumer lag", "kafka consumer lag", "kafka consumer",
                                         "kafka retention", "pnpm workspaces"};
    for (const bool feedback : {false, true}) {
        INFO("feedback " << feedback);
        settings.feedback_documents = feedback ? 5 : 0;
        TermDictionary dictionary;
        QueryEvaluator evaluator{settings, tokenizer};
        REQUIRE(evaluator.set_query("kafka", dictionary));
        const auto batch = summaries(texts, tokenizer, dictionary);
        BatchTermSource source{batch, dictionary};
        std::vector<ScoredMemory> scored;
        evaluator.evaluate(source, scored);
        // Only memories that match the query's own term score, with or without feedback.
        REQUIRE(scored.size() == 4);
        CHECK(scored[3].memory == 3);
        // Memories 2 and 3 have the query term once in a text as long: equal on the query alone,
        // told apart by the feedback terms they share with the best memories ("consumer" or "retention").
        CHECK((scored[2].score == scored[3].score) == !feedback);
    }
}
