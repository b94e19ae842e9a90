// SPDX-License-Identifier: Apache-2.0
#include "bm25_settings.hpp"

#include "stop_words.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace starling::bm25 {

namespace {

/// The shortest text that reads back as `value` ("2", "0.75"), as the user would have written it.
std::string shortest(double value) {
    std::array<char, 32> text{};
    const auto written = std::to_chars(text.data(), text.data() + text.size(), value);
    return {text.data(), written.ptr};
}

double read_number(const sdk::Settings &settings, const std::string &key, double fallback, double lowest,
                   double highest) {
    const auto value = sdk::get_number(settings, key, fallback);
    if (!std::isfinite(value) || value < lowest || value > highest) {
        throw std::invalid_argument("bm25 setting '" + key + "' must be between " + shortest(lowest) + " and " +
                                    shortest(highest) + ", got " + shortest(value));
    }
    return value;
}

std::size_t read_count(const sdk::Settings &settings, const std::string &key, int fallback, int highest) {
    const auto value = sdk::get_number(settings, key, fallback);
    if (value < 0 || value > highest) {
        throw std::invalid_argument("bm25 setting '" + key + "' must be between 0 and " +
                                    std::to_string(highest) + ", got " + std::to_string(value));
    }
    return static_cast<std::size_t>(value);
}

std::vector<std::string> read_stop_words(const sdk::Settings &settings) {
    std::vector<std::string> words;
    for (const auto &language : sdk::get_string_list(settings, "stop_words.languages")) {
        const BuiltInStopWords *list = find_built_in_stop_words(language);
        if (list == nullptr) {
            std::string known;
            for (const BuiltInStopWords &built_in : built_in_stop_words()) {
                known += known.empty() ? "" : ", ";
                known += built_in.language;
            }
            throw std::invalid_argument("bm25 setting 'stop_words.languages' names '" + language +
                                        "', which has no built-in stop-word list (there are: " + known + ")");
        }
        words.insert(words.end(), list->words.begin(), list->words.end());
    }
    auto extra = sdk::get_string_list(settings, "stop_words.extra");
    words.insert(words.end(), extra.begin(), extra.end());
    return words;
}

std::vector<std::string> read_relations(const sdk::Settings &settings) {
    auto relations = sdk::get_string_list(settings, "context.relations");
    for (const auto &relation : relations) {
        if (relation.empty() || relation.find_first_of(":,[] \t\n") != std::string::npos) {
            throw std::invalid_argument("bm25 setting 'context.relations' holds '" + relation +
                                        "', which is no link relation (a word without ':', ',', brackets or blanks)");
        }
    }
    return relations;
}

/// `synonyms.groups`: a list of lists of words, each word one term as `tokenizer` makes it, so that
/// a group matches the terms the queries and memories are made of ("deployments" stands for
/// "deploy"). A group of fewer than two terms, a stop word or a phrase is refused, naming the group.
std::map<std::string, std::vector<std::string>, std::less<>> read_synonyms(const sdk::Settings &settings,
                                                                        const TokenizerOptions &options) {
    std::map<std::string, std::vector<std::string>, std::less<>> synonyms;
    const auto groups = settings.get_child_optional("synonyms.groups");
    if (!groups || groups->empty()) {
        return synonyms;
    }
    Tokenizer tokenizer{options};
    TokenList tokens;
    std::size_t number = 0;
    for (const auto &[key, group] : *groups) {
        ++number;
        const std::string where = "bm25 setting 'synonyms.groups': group " + std::to_string(number);
        if (group.empty() && !group.data().empty()) {
            throw std::invalid_argument(where + " is the word '" + group.data() +
                                        "', not a list of words: write groups = [[\"k8s\", \"kubernetes\"]]");
        }
        std::vector<std::string> terms;
        for (const auto &[member_key, member] : group) {
            if (!member.empty()) {
                throw std::invalid_argument(where + " holds a list; each member must be a word");
            }
            const std::string word = member.get_value<std::string>();
            tokens.clear();
            tokenizer.tokenize(word, tokens, StopWordHandling::remove, CamelCaseParts::omit);
            if (tokens.size() != 1) {
                throw std::invalid_argument(where + " holds '" + word + "', which is " +
                                            (tokens.empty() ? std::string{"a stop word or no word at all"}
                                                            : std::to_string(tokens.size()) + " words") +
                                            "; each member must be one word");
            }
            const std::string term{tokens[0]};
            if (std::find(terms.begin(), terms.end(), term) == terms.end()) {
                terms.push_back(term);
            }
        }
        if (terms.size() < 2) {
            throw std::invalid_argument(where + " must be a list of at least two different words, such as "
                                                "[\"k8s\", \"kubernetes\"]");
        }
        for (const auto &term : terms) {
            auto &others = synonyms[term];
            for (const auto &other : terms) {
                if (other != term && std::find(others.begin(), others.end(), other) == others.end()) {
                    others.push_back(other);
                }
            }
        }
    }
    return synonyms;
}

} // namespace

Bm25Settings read_bm25_settings(const sdk::Settings &settings) {
    constexpr double unbounded = 1e9;
    Bm25Settings read;
    read.k1 = read_number(settings, "k1", read.k1, 0.0, 100.0);
    read.b = read_number(settings, "b", read.b, 0.0, 1.0);
    read.field_weights[static_cast<std::size_t>(Field::summary)] =
        read_number(settings, "fields.summary", read.field_weights[0], 0.0, unbounded);
    read.field_weights[static_cast<std::size_t>(Field::tags)] =
        read_number(settings, "fields.tags", read.field_weights[1], 0.0, unbounded);
    read.field_weights[static_cast<std::size_t>(Field::body)] =
        read_number(settings, "fields.body", read.field_weights[2], 0.0, unbounded);
    read.field_weights[static_cast<std::size_t>(Field::context)] =
        read_number(settings, "fields.context", read.field_weights[3], 0.0, unbounded);
    read.context_relations = read_relations(settings);

    read.feedback_documents = read_count(settings, "feedback.documents", 5, 1000);
    read.feedback_terms = read_count(settings, "feedback.terms", 10, 1000);
    read.feedback_weight = read_number(settings, "feedback.weight", read.feedback_weight, 0.0, 1.0);

    read.normalisation_min_terms =
        read_number(settings, "normalisation.min_terms", read.normalisation_min_terms, 0.0, 1000.0);
    read.length_prior = read_number(settings, "prior.length", read.length_prior, 0.0, 2.0);
    read.background_documents =
        read_number(settings, "background.documents", read.background_documents, 0.0, 1e7);
    read.recency_weight = read_number(settings, "recency.weight", read.recency_weight, 0.0, unbounded);
    read.recency_half_life_days =
        read_number(settings, "recency.half_life_days", read.recency_half_life_days, 1e-6, unbounded);
    read.access_weight =
        read_number(settings, "reinforcement.access_weight", read.access_weight, 0.0, unbounded);
    read.session_weight =
        read_number(settings, "reinforcement.session_weight", read.session_weight, 0.0, unbounded);

    read.tokenizer.stem_english = sdk::get_flag(settings, "stem_english", true);
    read.tokenizer.cjk_unigrams = sdk::get_flag(settings, "cjk_unigrams", false);
    read.tokenizer.stop_words = read_stop_words(settings);
    read.tokenizer.kept_words = sdk::get_string_list(settings, "stop_words.keep");
    read.synonyms = read_synonyms(settings, read.tokenizer);
    read.synonym_weight = read_number(settings, "synonyms.weight", read.synonym_weight, 0.0, 1.0);
    LexiconWeights lexicon_weights;
    lexicon_weights.same = read_number(settings, "lexicon.same", lexicon_weights.same, 0.0, 1.0);
    lexicon_weights.sibling = read_number(settings, "lexicon.sibling", lexicon_weights.sibling, 0.0, 1.0);
    lexicon_weights.broader = read_number(settings, "lexicon.broader", lexicon_weights.broader, 0.0, 1.0);
    lexicon_weights.narrower = read_number(settings, "lexicon.narrower", lexicon_weights.narrower, 0.0, 1.0);
    const std::size_t phrase_gap = read_count(settings, "lexicon.phrase_gap", static_cast<int>(default_phrase_gap), 10);
    if (lexicon_weights.any()) {
        read.lexicon = std::make_shared<Lexicon>(built_in_lexicon(), lexicon_weights, phrase_gap);
    }
    return read;
}

} // namespace starling::bm25
