// SPDX-License-Identifier: Apache-2.0
//
// starling-bm25-terms: counts in how many documents each term occurs, with bm25's tokenizer at its
// default settings, over documents read from standard input (one per line). Its output is
// bm25's background term table (policies/starling/bm25/lexicon/background.tsv, made by
// scripts/make-background-terms): how common a word is in developer text at large, which a store of
// five memories cannot tell.
//
//   starling-bm25-terms [--min-documents N] [--max-terms N] < documents > background.tsv

#include "stop_words.hpp"
#include "tokenizer.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

std::size_t number_argument(std::string_view flag, const char *value) {
    std::size_t number = 0;
    const std::string_view text = value == nullptr ? "" : value;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
        throw std::invalid_argument(std::string{flag} + " needs a whole number, got '" + std::string{text} + "'");
    }
    return number;
}

} // namespace

int main(int argc, char **argv) {
    try {
        std::size_t min_documents = 3;
        std::size_t max_terms = 30000;
        for (int index = 1; index < argc; ++index) {
            const std::string_view flag = argv[index];
            const char *value = index + 1 < argc ? argv[index + 1] : nullptr;
            if (flag == "--min-documents") {
                min_documents = number_argument(flag, value);
            } else if (flag == "--max-terms") {
                max_terms = number_argument(flag, value);
            } else {
                throw std::invalid_argument("unknown option '" + std::string{flag} +
                                            "' (usage: starling-bm25-terms [--min-documents N] [--max-terms N])");
            }
            ++index;
        }
        starling::bm25::TokenizerOptions options;
        for (const auto *language : {"en", "de"}) {
            const auto *list = starling::bm25::find_built_in_stop_words(language);
            options.stop_words.insert(options.stop_words.end(), list->words.begin(), list->words.end());
        }
        starling::bm25::Tokenizer tokenizer{options};
        starling::bm25::TokenList tokens;
        std::unordered_map<std::string, std::size_t> documents_containing;
        std::unordered_set<std::string_view> seen;
        std::size_t documents = 0;
        std::string line;
        while (std::getline(std::cin, line)) {
            tokens.clear();
            tokenizer.tokenize(line, tokens);
            if (tokens.empty()) {
                continue;
            }
            ++documents;
            seen.clear();
            for (std::size_t token = 0; token < tokens.size(); ++token) {
                if (seen.insert(tokens[token]).second) {
                    ++documents_containing[std::string{tokens[token]}];
                }
            }
        }
        std::vector<std::pair<std::string, std::size_t>> terms;
        for (auto &[term, count] : documents_containing) {
            // A tab or newline would break the table's lines; the tokenizer never makes one, but say so.
            if (count >= min_documents && term.find_first_of("\t\n") == std::string::npos) {
                terms.emplace_back(term, count);
            }
        }
        std::sort(terms.begin(), terms.end(), [](const auto &a, const auto &b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        terms.resize(std::min(terms.size(), max_terms));
        std::sort(terms.begin(), terms.end());
        std::cout << "# documents\t" << documents << '\n';
        for (const auto &[term, count] : terms) {
            std::cout << term << '\t' << count << '\n';
        }
        return 0;
    } catch (const std::exception &error) {
        std::cerr << "starling-bm25-terms: " << error.what() << '\n';
        return 2;
    }
}
