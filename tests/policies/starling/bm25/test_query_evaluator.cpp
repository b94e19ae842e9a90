// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/batch_term_source.hpp"
#include "policies/starling/bm25/query_evaluator.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using starling::bm25::BatchTerms;
using starling::bm25::BatchTermSource;
using starling::bm25::Bm25Settings;
using starling::bm25::Field;
using starling::bm25::QueryEvaluator;
using starling::bm25::ScoredMemories;
using starling::bm25::ScoredMemory;
using starling::bm25::TermDictionary;
using starling::bm25::Tokenizer;

namespace {

/// Adds `text`, tokenised with `tokenizer` into `dictionary`, to the last memory of `batch` as `field`.
void add_text(BatchTerms &batch, Field field, const std::string &text, Tokenizer &tokenizer,
              TermDictionary &dictionary) {
    starling::bm25::TokenList tokens;
    tokenizer.tokenize(text, tokens);
    const auto ids = batch.add_text(field, tokens.size());
    for (std::size_t token = 0; token < tokens.size(); ++token) {
        ids[token] = dictionary.intern(tokens[token]);
    }
}

/// Summaries only, tokenised with `tokenizer` into `dictionary`.
BatchTerms summaries(const std::vector<std::string> &texts, Tokenizer &tokenizer, TermDictionary &dictionary) {
    BatchTerms batch;
    for (const auto &text : texts) {
        batch.start_memory();
        add_text(batch, Field::summary, text, tokenizer, dictionary);
    }
    return batch;
}

/// Settings whose scores are BM25F's alone: no feedback, no prior, no background, no stop words, and
/// short queries measured against their own terms only.
Bm25Settings plain_settings(double min_terms = 0.0, double length_prior = 0.0) {
    Bm25Settings settings;
    settings.feedback_documents = 0;
    settings.background_documents = 0.0;
    settings.length_prior = length_prior;
    settings.normalisation_min_terms = min_terms;
    settings.tokenizer.stop_words.clear();
    return settings;
}

/// Scores `texts` (summaries) for `query` with `settings`.
ScoredMemories evaluated_with(const Bm25Settings &settings, const std::string &query,
                              const std::vector<std::string> &texts) {
    Tokenizer tokenizer{settings.tokenizer};
    TermDictionary dictionary;
    QueryEvaluator evaluator{settings, tokenizer};
    REQUIRE(evaluator.set_query(query, dictionary));
    const auto batch = summaries(texts, tokenizer, dictionary);
    BatchTermSource source{batch, dictionary};
    ScoredMemories scored;
    evaluator.evaluate(source, scored, starling::bm25::QueryPass::full);
    return scored;
}

/// Scores `texts` (summaries) for `query` with plain_settings(`min_terms`, `length_prior`).
ScoredMemories evaluated(const std::string &query, const std::vector<std::string> &texts, double min_terms = 0.0,
                         double length_prior = 0.0) {
    return evaluated_with(plain_settings(min_terms, length_prior), query, texts);
}

/// The score of `memory`, which must have matched.
double score_of(const ScoredMemories &scored, std::uint32_t memory) {
    const auto found = std::find_if(scored.begin(), scored.end(),
                                    [&](const ScoredMemory &candidate) { return candidate.memory == memory; });
    REQUIRE(found != scored.end());
    return found->score;
}

/// Scores `texts` (summaries) for `query`, with the words of each of `groups` declared synonyms
/// at `weight`.
ScoredMemories evaluated_with_synonyms(const std::string &query, const std::vector<std::string> &texts,
                                       const std::vector<std::vector<std::string>> &groups, double weight) {
    Bm25Settings settings = plain_settings();
    Tokenizer tokenizer{settings.tokenizer};
    const auto term_of = [&](const std::string &word) {
        starling::bm25::TokenList tokens;
        tokenizer.tokenize(word, tokens);
        REQUIRE(tokens.size() == 1);
        return std::string{tokens[0]};
    };
    for (const auto &group : groups) {
        for (const auto &word : group) {
            for (const auto &other : group) {
                if (other != word) {
                    settings.synonyms[term_of(word)].push_back(term_of(other));
                }
            }
        }
    }
    settings.synonym_weight = weight;
    return evaluated_with(settings, query, texts);
}

} // namespace

TEST_CASE("one query term scores by BM25F's formula", "[policy][bm25][evaluator]") {
    const auto scored = evaluated("kafka", {"kafka lag", "billing queue runs", "kafka kafka"});
    // Average summary length 7 / 3; the term is in 2 of 3 memories.
    const double idf = std::log(1.0 + (3.0 - 2.0 + 0.5) / (2.0 + 0.5));
    const auto expected = [&](double count, double length) {
        const double frequency = 3.0 * count / (1.0 - 0.75 + 0.75 * length / (7.0 / 3.0));
        return idf * frequency * 2.2 / (1.2 + frequency);
    };
    // Scores are on the query's scale: over what saturating the query's one term would score.
    const double full = idf * 2.2;
    REQUIRE(scored.size() == 2);
    CHECK(scored[0].memory == 0);
    CHECK(scored[0].score == Approx(expected(1, 2) / full));
    CHECK(scored[1].memory == 2);
    CHECK(scored[1].score == Approx(expected(2, 2) / full));
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
        ScoredMemories scored;
        evaluator.evaluate(source, scored, starling::bm25::QueryPass::full);
        // Only memories that match the query's own term score, with or without feedback.
        REQUIRE(scored.size() == 4);
        CHECK(scored[3].memory == 3);
        // Memories 2 and 3 have the query term once in a text as long: equal on the query alone,
        // told apart by the feedback terms they share with the best memories ("consumer" or "retention").
        CHECK((scored[2].score == scored[3].score) == !feedback);
    }
}

TEST_CASE("normalised scores are BM25F's divided by one number per query, so their order is BM25F's",
          "[policy][bm25][evaluator][normalised]") {
    const std::vector<std::string> texts{"kafka lag", "kafka kafka consumer", "lag lag lag billing", "pnpm", "kafka"};
    const auto scored = evaluated("kafka lag", texts);
    // Average summary length 11 / 5; kafka is in 3 memories, lag in 2.
    const double average = 11.0 / 5.0;
    const double idf_kafka = std::log(1.0 + (5.0 - 3.0 + 0.5) / (3.0 + 0.5));
    const double idf_lag = std::log(1.0 + (5.0 - 2.0 + 0.5) / (2.0 + 0.5));
    const auto contribution = [&](double idf, double count, double length) {
        const double frequency = 3.0 * count / (1.0 - 0.75 + 0.75 * length / average);
        return idf * frequency * 2.2 / (1.2 + frequency);
    };
    const double raw[] = {contribution(idf_kafka, 1, 2) + contribution(idf_lag, 1, 2), contribution(idf_kafka, 2, 3),
                          contribution(idf_lag, 3, 4), 0.0, contribution(idf_kafka, 1, 1)};
    const double full = 2.2 * (idf_kafka + idf_lag);
    REQUIRE(scored.size() == 4);
    for (const auto &memory : scored) {
        INFO("memory " << memory.memory);
        CHECK(memory.score == Approx(raw[memory.memory] / full));
    }
    std::vector<std::uint32_t> by_score;
    for (const auto &memory : scored) {
        by_score.push_back(memory.memory);
    }
    std::sort(by_score.begin(), by_score.end(),
              [&](std::uint32_t left, std::uint32_t right) { return score_of(scored, left) > score_of(scored, right); });
    std::vector<std::uint32_t> by_raw{0, 1, 2, 4};
    std::sort(by_raw.begin(), by_raw.end(), [&](std::uint32_t left, std::uint32_t right) { return raw[left] > raw[right]; });
    CHECK(by_score == by_raw);
}

TEST_CASE("a memory saturating every query term scores just under 1, one matching part of the query less",
          "[policy][bm25][evaluator][normalised]") {
    std::string saturated;
    for (int repeat = 0; repeat < 200; ++repeat) {
        saturated += "kafka lag ";
    }
    const auto scored = evaluated("kafka lag", {saturated, "kafka", "billing queue", "lag"});
    CHECK(score_of(scored, 0) < 1.0);
    CHECK(score_of(scored, 0) > 0.9);
    CHECK(score_of(scored, 1) < 0.6);
    CHECK(score_of(scored, 3) < 0.6);
}

TEST_CASE("normalised scores hardly change when the store grows fifty-fold, raw BM25F's do",
          "[policy][bm25][evaluator][normalised]") {
    const std::vector<std::string> labelled{"kafka consumer lag", "kafka retention", "billing queue runs",
                                            "pnpm workspace", "deploy on monday"};
    // Three words each, none of the query's: the average length stays about the same.
    const auto padded_to = [&](std::size_t size) {
        auto texts = labelled;
        for (std::size_t pad = 0; texts.size() < size; ++pad) {
            texts.push_back("note" + std::to_string(pad) + " about" + std::to_string(pad % 17) + " topic" +
                            std::to_string(pad % 29));
        }
        return texts;
    };
    const std::string query = "kafka consumer lag";
    const auto small = evaluated(query, padded_to(50));
    const auto large = evaluated(query, padded_to(2500));
    CHECK(score_of(large, 0) == Approx(score_of(small, 0)).epsilon(0.02)); // matches every query term
    CHECK(score_of(large, 1) == Approx(score_of(small, 1)).epsilon(0.1));  // matches one of three
    // What raw scores do meanwhile: the idf of a term in one memory more than doubles.
    const double raw_growth = std::log(1.0 + (2500.0 - 0.5) / 1.5) / std::log(1.0 + (50.0 - 0.5) / 1.5);
    CHECK(raw_growth > 2.0);
}

TEST_CASE("a query of fewer than normalisation.min_terms terms is measured as if it had that many",
          "[policy][bm25][evaluator][normalised]") {
    const std::vector<std::string> texts{"kafka lag", "billing queue", "pnpm workspace", "deploy on monday"};
    // "kafka zzz": two terms, measured as four as telling as its own: every score halves.
    const double own = score_of(evaluated("kafka zzz", texts), 0);
    CHECK(score_of(evaluated("kafka zzz", texts, 4.0), 0) == Approx(own / 2.0));
    // A query of at least that many terms is measured against its own.
    CHECK(score_of(evaluated("kafka zzz yyy xxx", texts, 4.0), 0) == score_of(evaluated("kafka zzz yyy xxx", texts), 0));
}

TEST_CASE("the normaliser counts a CJK run as about half as many words as it has characters",
          "[policy][bm25][evaluator][normalised]") {
    // 深色模式 (dark mode) is three bigrams for two words: a memory matching "kafka" is measured
    // against kafka and two words' worth of bigrams, not against four terms.
    const std::vector<std::string> texts{"kafka lag", "深色模式", "billing queue"};
    const auto scored = evaluated("kafka 深色模式", texts);
    // Every query term is in one memory of three; the summaries average 7 / 3 terms.
    const double idf = std::log(1.0 + (3.0 - 1.0 + 0.5) / (1.0 + 0.5));
    const double frequency = 3.0 / (1.0 - 0.75 + 0.75 * 2.0 / (7.0 / 3.0));
    const double kafka = idf * frequency * 2.2 / (1.2 + frequency);
    CHECK(score_of(scored, 0) == Approx(kafka / (2.2 * idf * (1.0 + 2.0))));
    // A short query is measured by its words too: two words, measured as four, halve every score.
    CHECK(score_of(evaluated("深色模式", texts, 4.0), 1) == Approx(score_of(evaluated("深色模式", texts), 1) / 2.0));
}

TEST_CASE("tabulated field frequencies are the ones computed, to the last bit, in and beyond the table",
          "[policy][bm25][evaluator]") {
    using starling::bm25::FieldFrequencies;
    const auto bits = [](double value) { return std::bit_cast<std::uint64_t>(value); };
    for (const double b : {0.73, 1.0}) {
        starling::bm25::Bm25Settings settings;
        settings.b = b;
        settings.field_weights = {2.0, 0.0, 1.0, 0.35};
        const starling::bm25::FieldAverages averages{7.3, 1.0, 23.9, 131.7};
        FieldFrequencies frequencies;
        frequencies.reset(averages, settings);
        const auto last_count = FieldFrequencies::tabulated_counts;
        const auto last_length = FieldFrequencies::tabulated_lengths;
        for (int pass = 0; pass < 2; ++pass) { // computed, then looked up
            for (const std::uint32_t count : {1U, 2U, last_count, last_count + 1, 65535U}) {
                for (const std::uint32_t length : {0U, 1U, 24U, last_length - 1, last_length, 65535U}) {
                    for (std::size_t field = 0; field < starling::bm25::field_count; ++field) {
                        INFO("b " << b << ", field " << field << ", count " << count << ", length " << length);
                        // field_weighted_frequency's expression before it was tabulated
                        const double normalised_length = 1.0 - settings.b + settings.b * length / averages[field];
                        const double expected = settings.field_weights[field] * count / normalised_length;
                        CHECK(bits(frequencies(field, count, length)) == bits(expected));
                    }
                }
            }
        }
    }
}

TEST_CASE("the length prior multiplies a match by (its own terms / the average) ^ prior.length",
          "[policy][bm25][evaluator][prior]") {
    std::string long_text = "kafka";
    for (int word = 0; word < 299; ++word) {
        long_text += " word" + std::to_string(word); // 300 terms: beyond the prior's table of lengths
    }
    const std::vector<std::string> texts{"kafka lag", "kafka consumer lag retention", long_text, "pnpm workspace"};
    const double average = (2.0 + 4.0 + 300.0 + 2.0) / 4.0;
    const auto plain = evaluated("kafka lag", texts);
    const auto weighed = evaluated("kafka lag", texts, 0.0, 0.5);
    REQUIRE(weighed.size() == plain.size());
    for (const auto &[memory, length] : {std::pair{0U, 2.0}, std::pair{1U, 4.0}, std::pair{2U, 300.0}}) {
        INFO("memory " << memory);
        CHECK(score_of(weighed, memory) == Approx(score_of(plain, memory) * std::sqrt(length / average)));
    }
    // Of two memories that match alike, the one that says more now ranks first.
    const std::vector<std::string> alike{"kafka lag", "kafka lag consumer", "pnpm"};
    const auto without_prior = evaluated("kafka", alike);
    const auto with_prior = evaluated("kafka", alike, 0.0, 0.5);
    CHECK(score_of(without_prior, 1) < score_of(without_prior, 0)); // BM25's length normalisation
    CHECK(score_of(with_prior, 1) > score_of(with_prior, 0));
}

TEST_CASE("the length prior counts a memory's own terms, not the context its links lend it",
          "[policy][bm25][evaluator][prior]") {
    const Bm25Settings settings = plain_settings(0.0, 1.0);
    Tokenizer tokenizer{settings.tokenizer};
    TermDictionary dictionary;
    QueryEvaluator evaluator{settings, tokenizer};
    REQUIRE(evaluator.set_query("kafka", dictionary));
    BatchTerms batch;
    const auto add = [&](Field field, const std::string &text) { add_text(batch, field, text, tokenizer, dictionary); };
    batch.start_memory();
    add(Field::summary, "kafka lag");
    add(Field::context, "billing queue runs nightly from the scheduler");
    batch.start_memory();
    add(Field::summary, "kafka lag");
    batch.start_memory();
    add(Field::summary, "pnpm workspace");
    BatchTermSource source{batch, dictionary};
    ScoredMemories scored;
    evaluator.evaluate(source, scored, starling::bm25::QueryPass::full);
    // Context of no query term changes neither BM25F's score nor the prior: the two tie.
    CHECK(score_of(scored, 0) == score_of(scored, 1));
}

TEST_CASE("a memory that says only a synonym of a query term matches, at the synonym's weight",
          "[policy][bm25][evaluator][synonyms]") {
    const std::vector<std::string> texts{"kubernetes rollout", "k8s rollout", "billing queue"};
    CHECK(evaluated_with_synonyms("k8s", texts, {}, 0.5).size() == 1);

    const auto scored = evaluated_with_synonyms("k8s", texts, {{"k8s", "kubernetes"}}, 0.5);
    REQUIRE(scored.size() == 2);
    // Both words are in one memory of three and both memories are as long: the synonym's match is
    // the word's, times its weight. The normaliser counts the query's own term only, so the word's
    // match scores as it did without synonyms.
    CHECK(score_of(scored, 0) == Approx(0.5 * score_of(scored, 1)));
    CHECK(score_of(scored, 1) == score_of(evaluated_with_synonyms("k8s", texts, {}, 0.5), 1));

    SECTION("a weight of 0 turns synonyms off") {
        CHECK(evaluated_with_synonyms("k8s", texts, {{"k8s", "kubernetes"}}, 0.0).size() == 1);
    }
    SECTION("a synonym the query says itself keeps its own weight") {
        const auto both = evaluated_with_synonyms("k8s kubernetes", texts, {{"k8s", "kubernetes"}}, 0.5);
        REQUIRE(both.size() == 2);
        CHECK(score_of(both, 0) == score_of(both, 1));
    }
}

TEST_CASE("a related term tells no more than the query's term it came from: its idf is at most that term's",
          "[policy][bm25][evaluator][synonyms]") {
    // "run" is in three memories of four, its German "ausführen" in one: at its own idf the memory
    // that says only the translation would outrank every memory that says the prompt's own word.
    const std::vector<std::string> texts{"run the tests", "run the linter", "run it", "ausführen bitte"};
    const auto scored = evaluated_with_synonyms("run", texts, {{"run", "ausführen"}}, 1.0);
    REQUIRE(scored.size() == 4);
    // "run it" and "ausführen bitte" are as long, and each says its word once.
    CHECK(score_of(scored, 3) == Approx(score_of(scored, 2)));

    SECTION("a related term rarer than the query's own keeps its own, lower idf") {
        const std::vector<std::string> common_translation{"run it", "ausführen bitte", "ausführen jetzt",
                                                          "ausführen später"};
        const auto reversed = evaluated_with_synonyms("run", common_translation, {{"run", "ausführen"}}, 1.0);
        REQUIRE(reversed.size() == 4);
        CHECK(score_of(reversed, 1) < score_of(reversed, 0));
    }
}
