// SPDX-License-Identifier: Apache-2.0
//
// The built-in software lexicon (lexicon/software.txt, compiled into the plugin): what tools are and
// which tools are of one kind, in English, German and Chinese, so that a prompt finds a memory that
// names its subject in other words — "which package manager?" finds "I prefer pnpm over npm", "npm
// install the deps" finds it too, "performance test the API" finds "load tests run with k6". Like
// the synonyms a user declares, only the query grows: a query term or phrase that is a member of a
// group also looks for the group's other one-term members, at a weight by how they are related.
//
// Every hook process reads the settings, and making the lexicon's 1,500 members terms (tokenising
// and stemming each) cost 0.8 ms, a quarter of a prompt hook. So the lexicon keeps its members as
// written and makes terms only of those a query may name: a member is looked at only when the start
// of its first word (member_key) is the start of one of the query's terms, which a stem keeps.
#pragma once

#include "tokenizer.hpp"

#include <cstddef>
#include <stdexcept>
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

/// A line of the lexicon that does not parse; the message names the line.
class LexiconError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One term a query expands to, and the share of the triggering term's weight it gets.
struct LexiconExpansion {
    std::string term;
    double weight = 0.0;
};

/// The start of a word or term by which a member is found: the first two bytes of its first run of
/// letters, digits and non-ASCII bytes, ASCII and Latin-1 capitals folded to lower case (a character
/// of two bytes is kept whole). A term the tokenizer makes of a member starts the same way — a stem
/// keeps its word's first two letters ("aws" is "aw", "fly" "fli") — and the lexicon's test holds
/// every member to it.
[[nodiscard]] std::string member_key(std::string_view word);

class Lexicon {
public:
    /// An empty lexicon: expands nothing.
    Lexicon() = default;

    /// Reads `text` (the format of lexicon/software.txt), which must outlive the lexicon. Throws
    /// LexiconError naming `source` and the line of a malformed line, an empty member, an unknown or
    /// wrong `broader`, or a duplicate id.
    Lexicon(std::string_view text, std::string_view source, const LexiconWeights &weights);

    [[nodiscard]] bool empty() const noexcept { return groups_.empty(); }
    [[nodiscard]] std::size_t group_count() const noexcept { return groups_.size(); }

    /// The terms `query` (a query's terms, in order) expands to, its members made terms by
    /// `tokenizer`: for each group one of whose members occurs in it — a one-term member as a
    /// term, a phrase as consecutive terms — that group's other one-term members and those of the
    /// groups it is related to, each once at the strongest weight it is reached by. Terms of
    /// `query` itself are left out.
    void expand(const std::vector<std::string_view> &query, Tokenizer &tokenizer,
                std::vector<LexiconExpansion> &out) const;

    /// Every member as written, for tests that hold the data to member_key's rule.
    [[nodiscard]] std::vector<std::string_view> members() const;

private:
    enum class Kind : unsigned char { same, kind };
    struct Member {
        std::string_view text; ///< as written, trimmed
        std::string key;       ///< member_key(text)
    };
    struct Group {
        Kind kind = Kind::same;
        std::string_view id;
        std::size_t broader = npos;
        std::vector<std::size_t> narrower;
        std::vector<Member> members;
    };
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    void add_members_of(std::size_t group, double weight, const std::vector<std::string_view> &query,
                        Tokenizer &tokenizer, std::vector<LexiconExpansion> &out) const;

    std::vector<Group> groups_;
    LexiconWeights weights_;
};

/// The built-in lexicon's text, as lexicon/software.txt holds it.
[[nodiscard]] std::string_view built_in_lexicon_text() noexcept;

} // namespace starling::bm25
