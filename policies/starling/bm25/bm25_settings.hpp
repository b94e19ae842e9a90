// SPDX-License-Identifier: Apache-2.0
//
// The bm25 policy's settings, read once from the host's settings tree and checked. Every key is
// declared with its default in default_settings.json; the defaults below only apply when a key is
// absent, which the host prevents, so they repeat the JSON rather than compete with it.
#pragma once

#include "background_terms.hpp"
#include "lexicon.hpp"
#include "memory_fields.hpp"
#include "tokenizer.hpp"

#include <starling/sdk/settings.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace starling::bm25 {

struct Bm25Settings {
    /// Term-frequency saturation and length normalisation of Okapi BM25.
    double k1 = 1.2;
    double b = 0.75;
    /// BM25F weight of each field's term frequency, indexed by Field.
    std::array<double, field_count> field_weights{3.0, 2.0, 1.0, 0.35};
    /// The relations of a memory's links whose memories lend it their texts as context
    /// (linked_context.hpp); none turns context off.
    std::vector<std::string> context_relations{"episode", "related"};

    /// Pseudo-relevance feedback (RM3): the best `feedback_documents` memories of a first pass
    /// lend their `feedback_terms` most distinctive terms to a second pass, weighted
    /// `feedback_weight` against the query's own terms. 0 documents turns it off.
    std::size_t feedback_documents = 5;
    std::size_t feedback_terms = 10;
    double feedback_weight = 0.15;

    /// Scores are normalised per query (QueryEvaluator::evaluate): over what a memory matching every
    /// query term fully would score, where a query of fewer terms counts as `normalisation_min_terms`
    /// terms as telling as its own, so one shared word of a two-word prompt is not half of it.
    double normalisation_min_terms = 5.0;

    /// How many documents of developer text at large (BackgroundTerms) a term's idf counts beside
    /// the memories: a term in `share` of them counts as in `background_documents × share` more
    /// memories. A store of a few memories then still tells "pnpm" from "work", and as a store grows
    /// its own counts outweigh them. 0 turns the background off.
    double background_documents = 100.0;

    /// A matching memory's score × (its own terms / the average memory's own terms) ^ `length_prior`
    /// (length_prior() in scoring_formula.hpp): what a memory says about itself is likelier to answer
    /// a query the more it says. 0 turns it off.
    double length_prior = 0.2;

    /// Boosts of a matching memory: score × (1 + recency + reinforcement), never of a non-match.
    double recency_weight = 0.1;
    double recency_half_life_days = 30.0;
    double access_weight = 0.05;
    double session_weight = 0.05;

    /// Words the user declared interchangeable (`synonyms.groups`): each query term also looks for
    /// the other members of its groups, at `synonym_weight` times its own weight. By term as the
    /// tokenizer makes it (stemmed), each term's synonyms in the order declared. The comparison is
    /// transparent, so that a query term is looked up by the dictionary's view of it, not a copy.
    std::map<std::string, std::vector<std::string>, std::less<>> synonyms;
    double synonym_weight = 1.0;

    /// The built-in software lexicon (lexicon.hpp); empty when every one of its weights is 0.
    /// Shared: the settings are copied, the lexicon is not.
    std::shared_ptr<const Lexicon> lexicon = std::make_shared<Lexicon>();

    TokenizerOptions tokenizer;
};

/// Reads and checks the settings. Throws std::invalid_argument naming the key of a bad value.
[[nodiscard]] Bm25Settings read_bm25_settings(const sdk::Settings &settings);

} // namespace starling::bm25
