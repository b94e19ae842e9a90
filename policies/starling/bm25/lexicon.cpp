// SPDX-License-Identifier: Apache-2.0
#include "lexicon.hpp"

#include "term_characters.hpp"

// The tables starling-bm25-lexicon compiles lexicon/software.txt into (tools/compile_lexicon.cpp).
#include <starling/bm25/built_in_lexicon.hpp>
#include <starling/sdk/text/clauses.hpp>

#include <algorithm>
#include <optional>

namespace starling::bm25 {

namespace {

/// The terms `tokenizer` makes of a member, as a query's terms are made (or with its stop words).
std::vector<std::string> terms_of(std::string_view member, Tokenizer &tokenizer,
                                  StopWordHandling stop_words = StopWordHandling::remove) {
    TokenList tokens;
    tokenizer.tokenize(member, tokens, stop_words, CamelCaseParts::omit);
    std::vector<std::string> terms;
    terms.reserve(tokens.size());
    for (std::size_t token = 0; token < tokens.size(); ++token) {
        terms.emplace_back(tokens[token]);
    }
    return terms;
}

/// Whether stop words leave a member of several words one term (`terms`, as terms_of() made it):
/// "log in" as log, a word that alone means something else.
bool cut_to_one_word(std::string_view member, const std::vector<std::string> &terms, Tokenizer &tokenizer) {
    return terms.size() == 1 && terms_of(member, tokenizer, StopWordHandling::keep).size() != 1;
}

/// Whether every term of `phrase` is (part of) a word of a spaced script. A Chinese phrase's terms
/// are the overlapping pairs of its characters, which only stand next to each other.
bool is_phrase_of_words(const std::vector<std::string> &phrase) {
    return std::none_of(phrase.begin(), phrase.end(), [](const std::string &term) {
        return !term.empty() &&
               classify(sdk::text::decode_utf8(term, 0, term_utf8_rules)) == sdk::text::CharacterClass::unspaced;
    });
}

/// Whether `text` starts with the word `folded_word` (in any case) and goes on after a space.
bool starts_with_word(std::string_view text, std::string_view folded_word) noexcept {
    if (text.size() <= folded_word.size() || text[folded_word.size()] != ' ') {
        return false;
    }
    return std::equal(folded_word.begin(), folded_word.end(), text.begin(), [](char folded, char written) {
        return folded == (written >= 'A' && written <= 'Z' ? static_cast<char>(written - 'A' + 'a') : written);
    });
}

/// The bit of `position` in a mask of a query's terms; none past the 64th.
std::uint64_t position_bit(std::size_t position) noexcept {
    return position < 64 ? std::uint64_t{1} << position : 0;
}

/// Where `phrase` occurs in `query`, written at `places`, as a mask of the query's terms it is
/// (position_bit()), or nothing: as consecutive terms, or — a phrase of words — as its terms in
/// order in one clause with at most `gap` other words between its first and last. The earliest
/// match of each next term from a first one makes the shortest span there.
std::optional<std::uint64_t> occurs(const std::vector<std::string_view> &query, std::span<const WrittenPlace> places,
                                    const std::vector<std::string> &phrase, std::size_t gap) {
    if (phrase.empty()) {
        return std::nullopt;
    }
    const auto equal = [](std::string_view a, const std::string &b) { return a == b; };
    if (const auto found = std::search(query.begin(), query.end(), phrase.begin(), phrase.end(), equal);
        found != query.end()) {
        const auto first = static_cast<std::size_t>(found - query.begin());
        std::uint64_t mask = 0;
        for (std::size_t at = first; at < first + phrase.size(); ++at) {
            mask |= position_bit(at);
        }
        return mask;
    }
    if (gap == 0 || phrase.size() < 2 || !is_phrase_of_words(phrase)) {
        return std::nullopt;
    }
    const std::size_t longest_span = phrase.size() - 1 + gap; // in words, from the first to the last
    for (std::size_t first = 0; first < query.size(); ++first) {
        if (query[first] != phrase.front()) {
            continue;
        }
        std::size_t next = 1;
        std::uint64_t mask = position_bit(first);
        for (std::size_t at = first + 1; at < query.size() && next < phrase.size(); ++at) {
            if (places[at].clause != places[first].clause || places[at].word - places[first].word > longest_span) {
                break;
            }
            if (query[at] == phrase[next]) {
                ++next;
                mask |= position_bit(at);
            }
        }
        if (next == phrase.size()) {
            return mask;
        }
    }
    return std::nullopt;
}

} // namespace

void read_written_terms(std::string_view text, Tokenizer &tokenizer, TokenList &terms,
                        std::vector<WrittenPlace> &places, StopWordHandling stop_words) {
    terms.clear();
    places.clear();
    WrittenPlace place;
    std::size_t word_start = 0;
    // Each word is made terms alone: white space and the punctuation a clause ends at separate
    // terms anyway, so the terms are those of the text whole.
    const auto end_word = [&](std::size_t end) {
        if (end > word_start) {
            tokenizer.tokenize(text.substr(word_start, end - word_start), terms, stop_words, CamelCaseParts::omit);
            if (terms.size() > places.size()) {
                places.resize(terms.size(), place);
                ++place.word;
            }
        }
        word_start = end;
    };
    std::size_t position = 0;
    while (position < text.size()) {
        const auto byte = static_cast<unsigned char>(text[position]);
        if (byte >= 0x80) {
            const auto decoded = sdk::text::decode_utf8(text, position, term_utf8_rules);
            position += decoded.length;
            if (decoded.valid && sdk::text::is_cjk_clause_punctuation(decoded.code_point)) {
                end_word(position);
                ++place.clause;
            }
            continue;
        }
        const bool ends_clause = sdk::text::ends_clause_at(text, position);
        ++position;
        if (sdk::text::is_ascii_white_space(byte) || ends_clause) {
            end_word(position);
            place.clause += ends_clause ? 1U : 0U;
        }
    }
    end_word(text.size());
}

LexiconTables built_in_lexicon() noexcept {
    return {{compiled_lexicon::text, sizeof compiled_lexicon::text - 1}, compiled_lexicon::groups,
            compiled_lexicon::members, compiled_lexicon::narrower, compiled_lexicon::members_by_key};
}

Lexicon::Lexicon(std::string_view text, std::string_view source, const LexiconWeights &weights,
                 std::size_t phrase_gap)
    : read_(std::make_shared<const ReadLexicon>(read_lexicon(text, source))), tables_(read_->tables()),
      weights_(weights), phrase_gap_(phrase_gap) {}

Lexicon::Lexicon(const LexiconTables &tables, const LexiconWeights &weights, std::size_t phrase_gap) noexcept
    : tables_(tables), weights_(weights), phrase_gap_(phrase_gap) {}

void Lexicon::add_members_of(const LexiconGroup &group, double weight, std::uint64_t sources,
                             const std::vector<std::string_view> &query, Tokenizer &tokenizer,
                             std::vector<LexiconExpansion> &out) const {
    if (weight <= 0.0) {
        return;
    }
    for (const LexiconMember &member : tables_.members_of(group)) {
        // A phrase is found in a query as consecutive terms, but a memory's index has no positions:
        // its words apart would find every memory that says "manager" or "test". Only one-term
        // members are looked for.
        const auto member_text = tables_.text_of(member.text);
        const auto terms = terms_of(member_text, tokenizer);
        // A member that stop words left with one term ("log in" as log) would find what that word
        // means on its own.
        if (terms.size() != 1 || std::find(query.begin(), query.end(), terms.front()) != query.end() ||
            cut_to_one_word(member_text, terms, tokenizer)) {
            continue;
        }
        const auto existing = std::find_if(out.begin(), out.end(),
                                           [&](const LexiconExpansion &expansion) { return expansion.term == terms.front(); });
        if (existing == out.end()) {
            out.push_back({terms.front(), weight, sources});
        } else {
            existing->weight = std::max(existing->weight, weight);
            existing->sources |= sources;
        }
    }
}

void Lexicon::expand(const std::vector<std::string_view> &query, Tokenizer &tokenizer,
                     std::vector<LexiconExpansion> &out) const {
    std::vector<WrittenPlace> places(query.size());
    for (std::size_t term = 0; term < places.size(); ++term) {
        places[term].word = static_cast<std::uint32_t>(term);
    }
    expand({}, query, places, tokenizer, out);
}

void Lexicon::expand(std::string_view text, const std::vector<std::string_view> &query,
                     std::span<const WrittenPlace> places, Tokenizer &tokenizer,
                     std::vector<LexiconExpansion> &out) const {
    out.clear();
    if (tables_.groups.empty() || !weights_.any() || query.empty()) {
        return;
    }
    // Without a place for each term, phrases are found as consecutive terms only.
    const std::size_t gap = places.size() == query.size() ? phrase_gap_ : 0;
    std::vector<std::string> query_keys;
    for (const auto term : query) {
        query_keys.push_back(member_key(term));
    }
    // The query as written with its stop words, read when a member needs them.
    TokenList with_stop_words_tokens;
    std::vector<WrittenPlace> with_stop_words_places;
    std::vector<std::string_view> with_stop_words_terms;
    bool with_stop_words_read = false;
    const auto written_with_stop_words = [&]() -> const std::vector<std::string_view> & {
        if (!with_stop_words_read) {
            with_stop_words_read = true;
            read_written_terms(text, tokenizer, with_stop_words_tokens, with_stop_words_places, StopWordHandling::keep);
            for (std::size_t term = 0; term < with_stop_words_tokens.size(); ++term) {
                with_stop_words_terms.push_back(with_stop_words_tokens[term]);
            }
        }
        return with_stop_words_terms;
    };
    // The members a query term may be: those keyed as one of them, in member order, which is group
    // order. A group is triggered by the first of them found in the query.
    std::sort(query_keys.begin(), query_keys.end());
    query_keys.erase(std::unique(query_keys.begin(), query_keys.end()), query_keys.end());
    std::vector<std::uint32_t> candidates;
    for (const auto &key : query_keys) {
        const auto keyed = tables_.members_keyed(key);
        candidates.insert(candidates.end(), keyed.begin(), keyed.end());
    }
    // A member may start with a stop word, which the query's terms lack ("on call"): it is looked
    // for under each stop word the query was written with that is the member's first word.
    if (!text.empty()) {
        for (const auto written : written_with_stop_words()) {
            if (!tokenizer.is_stop_word(written)) {
                continue;
            }
            for (const std::uint32_t member : tables_.members_keyed(member_key(written))) {
                if (starts_with_word(tables_.text_of(tables_.members[member].text), written)) {
                    candidates.push_back(member);
                }
            }
        }
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    struct Triggered {
        const LexiconGroup *group;
        std::uint64_t sources; ///< the query's terms the member that triggered it is
    };
    std::vector<Triggered> triggered;
    for (const std::uint32_t candidate : candidates) {
        const LexiconGroup &group = tables_.groups[tables_.group_of_member(candidate)];
        if (!triggered.empty() && triggered.back().group == &group) {
            continue; // found already by an earlier member
        }
        const auto member_text = tables_.text_of(tables_.members[candidate].text);
        const auto terms = terms_of(member_text, tokenizer);
        std::optional<std::uint64_t> found;
        if (!cut_to_one_word(member_text, terms, tokenizer)) {
            found = occurs(query, places, terms, gap);
        } else if (!text.empty()) {
            // Its positions are among the query's stop words too: not the query's terms.
            const auto &written = written_with_stop_words();
            if (occurs(written, with_stop_words_places, terms_of(member_text, tokenizer, StopWordHandling::keep),
                       gap)) {
                found = 0;
            }
        }
        if (found) {
            triggered.push_back({&group, *found});
        }
    }
    for (const auto &[group, sources] : triggered) {
        const double own_line = group->kind == LexiconKind::same   ? weights_.same
                                : group->kind == LexiconKind::kind ? weights_.sibling
                                                                   : 0.0; // each: no alternatives to one another
        add_members_of(*group, own_line, sources, query, tokenizer, out);
        if (group->broader != LexiconGroup::no_broader) {
            add_members_of(tables_.groups[group->broader], weights_.broader, sources, query, tokenizer, out);
        }
        for (const std::uint32_t narrower : tables_.narrower_of(*group)) {
            // What each of an "each" line is does not name any one of them: "AWS" is not about S3.
            if (tables_.groups[narrower].kind != LexiconKind::each) {
                add_members_of(tables_.groups[narrower], weights_.narrower, sources, query, tokenizer, out);
            }
        }
    }
}

} // namespace starling::bm25
