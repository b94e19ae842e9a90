// SPDX-License-Identifier: Apache-2.0
//
// The built-in software lexicon (lexicon/software.txt, compiled into the plugin): what tools are and
// which tools are of one kind, in English, German and Chinese, so that a prompt finds a memory that
// names its subject in other words — "which package manager?" finds "I prefer pnpm over npm", "npm
// install the deps" finds it too, "performance test the API" finds "load tests run with k6". Like
// the synonyms a user declares, only the query grows: a query term or phrase that is a member of a
// group also looks for the group's other one-term members, at a weight by how they are related.
//
// Every hook process makes the lexicon when it reads the settings. Reading its text there cost 1.8 M
// instructions, a seventh of a prompt hook's, so the build reads it (lexicon_tables.hpp) and the
// plugin holds the tables it makes, which a lexicon only views. Making all 1,500 members terms up
// front (tokenising and stemming each) cost 0.8 ms, so the lexicon makes terms only of those a
// query may name: a member is looked at only when the start of its first word (member_key) is the
// start of one of the query's terms, which a stem keeps, or the member's first word is a stop word
// the query was written with ("on call"); the tables list the members by key
// (LexiconTables::members_by_key), so that a query finds them without looking at the others.
//
// A phrase is found where its terms are consecutive, and also where a few words stand between them
// in one clause (phrase_gap): a prompt says "cut the 0.9.3 release", "add a nullable settled_at
// column", "Abhängigkeiten für das Backend installieren" more often than the phrase itself. The words
// must come in the phrase's order, and a sentence or clause end (. ! ? ; : , before a space, a line
// break, 。！？；：，、) between them breaks the phrase.
#pragma once

#include "lexicon_tables.hpp"
#include "tokenizer.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::bm25 {

/// How much of a query term's weight each relation lends the terms it expands to. 0 turns a
/// relation off; all 0 turns the lexicon off.
struct LexiconWeights {
    double same = 1.0;     ///< another name of the same thing (k8s, kubernetes)
    double sibling = 0.6;  ///< another thing of the same kind (npm, pnpm)
    double broader = 0.6;  ///< what a thing is (pnpm → package manager)
    double narrower = 0.6; ///< the things of a kind (package manager → pnpm)

    [[nodiscard]] bool any() const noexcept { return same > 0.0 || sibling > 0.0 || broader > 0.0 || narrower > 0.0; }
};

/// How many other words may stand between the first and the last word of a phrase found in a query
/// (lexicon.phrase_gap), chosen on the tuning half of the first-weeks benchmark.
inline constexpr std::size_t default_phrase_gap = 2;

/// Where one of a query's terms was written: the word it is part of (the query's words that make a
/// term, counted from 0, so a stop word between two words puts no distance between them) and the
/// clause.
struct WrittenPlace {
    std::uint32_t word = 0;
    std::uint32_t clause = 0;

    friend bool operator==(const WrittenPlace &, const WrittenPlace &) = default;
};

/// Makes `text` terms as the lexicon reads a query, replacing `terms` and `places`: its terms in the
/// order written, stop words dropped and a word in camel case whole (its parts would break a phrase:
/// "GitHub Actions" is github, action), each with its place. Words are separated by white space; a
/// clause ends at a line break, at . ! ? ; : or , before white space or the end, and at Chinese
/// punctuation that ends a sentence or a clause. The terms are those tokenize() makes of the text
/// whole (CamelCaseParts::omit); with StopWordHandling::keep, stop words are terms too.
void read_written_terms(std::string_view text, Tokenizer &tokenizer, TokenList &terms,
                        std::vector<WrittenPlace> &places, StopWordHandling stop_words = StopWordHandling::remove);

/// One term a query expands to, and the share of the triggering term's weight it gets.
struct LexiconExpansion {
    std::string term;
    double weight = 0.0;
    /// Bit i set: the i-th term of the query (i < 64) is part of a member that brought this term in.
    std::uint64_t sources = 0;
};

class Lexicon {
public:
    /// An empty lexicon: expands nothing.
    Lexicon() = default;

    /// Reads `text` (read_lexicon). Throws LexiconError naming `source` and the line of a
    /// malformed line.
    /// `phrase_gap`: how many other words may stand between a phrase's first and last word.
    Lexicon(std::string_view text, std::string_view source, const LexiconWeights &weights,
            std::size_t phrase_gap = default_phrase_gap);

    /// Views `tables`, which must outlive the lexicon: built_in_lexicon()'s, as a hook does.
    Lexicon(const LexiconTables &tables, const LexiconWeights &weights,
            std::size_t phrase_gap = default_phrase_gap) noexcept;

    [[nodiscard]] bool empty() const noexcept { return tables_.groups.empty(); }
    [[nodiscard]] std::size_t group_count() const noexcept { return tables_.groups.size(); }

    /// The terms `query` (a query's terms, in order, written at `places`: read_written_terms())
    /// expands to, its members made terms by `tokenizer`: for each group one of whose members occurs
    /// in it — a one-term member as a term, a phrase as consecutive terms or, a phrase of words
    /// (not of Chinese bigrams), as its terms in order in one clause with at most phrase_gap other
    /// words between its first and last — that group's other one-term members and those of the
    /// groups it is related to, each once at the strongest weight it is reached by. Terms of
    /// `query` itself are left out. `places` has one place per term of `query`; without, phrases
    /// are found as consecutive terms only.
    ///
    /// A phrase that stop words would leave one word ("log in" is log, "sign in" sign, "roll out"
    /// roll: words that mean other things) is found only as all its words, stop words included, in
    /// `text`, the query as written ("users can't sign in", not "sign the tag"); it is never a term
    /// a query expands to. Without `text` it is not found.
    void expand(std::string_view text, const std::vector<std::string_view> &query,
                std::span<const WrittenPlace> places, Tokenizer &tokenizer, std::vector<LexiconExpansion> &out) const;
    /// The same, each of `query`'s terms a word of its own and all of them one clause, and no text.
    void expand(const std::vector<std::string_view> &query, Tokenizer &tokenizer,
                std::vector<LexiconExpansion> &out) const;

    [[nodiscard]] std::size_t phrase_gap() const noexcept { return phrase_gap_; }

    [[nodiscard]] const LexiconTables &tables() const noexcept { return tables_; }

private:
    void add_members_of(const LexiconGroup &group, double weight, std::uint64_t sources,
                        const std::vector<std::string_view> &query, Tokenizer &tokenizer,
                        std::vector<LexiconExpansion> &out) const;

    std::shared_ptr<const ReadLexicon> read_; ///< what tables_ views, when read from text
    LexiconTables tables_;
    LexiconWeights weights_;
    std::size_t phrase_gap_ = default_phrase_gap;
};

/// The built-in lexicon's tables (lexicon/software.txt), read at build time and compiled in.
[[nodiscard]] LexiconTables built_in_lexicon() noexcept;

} // namespace starling::bm25
