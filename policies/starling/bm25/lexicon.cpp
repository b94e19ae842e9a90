// SPDX-License-Identifier: Apache-2.0
#include "lexicon.hpp"

// The tables starling-bm25-lexicon compiles lexicon/software.txt into (tools/compile_lexicon.cpp).
#include <starling/bm25/built_in_lexicon.hpp>

#include <algorithm>

namespace starling::bm25 {

namespace {

/// The terms `tokenizer` makes of a member, as a query's terms are made.
std::vector<std::string> terms_of(std::string_view member, Tokenizer &tokenizer) {
    TokenList tokens;
    tokenizer.tokenize(member, tokens, StopWordHandling::remove, CamelCaseParts::omit);
    std::vector<std::string> terms;
    terms.reserve(tokens.size());
    for (std::size_t token = 0; token < tokens.size(); ++token) {
        terms.emplace_back(tokens[token]);
    }
    return terms;
}

} // namespace

LexiconTables built_in_lexicon() noexcept {
    return {{compiled_lexicon::text, sizeof compiled_lexicon::text - 1}, compiled_lexicon::groups,
            compiled_lexicon::members, compiled_lexicon::narrower};
}

Lexicon::Lexicon(std::string_view text, std::string_view source, const LexiconWeights &weights)
    : read_(std::make_shared<const ReadLexicon>(read_lexicon(text, source))), tables_(read_->tables()),
      weights_(weights) {}

Lexicon::Lexicon(const LexiconTables &tables, const LexiconWeights &weights) noexcept
    : tables_(tables), weights_(weights) {}

void Lexicon::add_members_of(const LexiconGroup &group, double weight, const std::vector<std::string_view> &query,
                             Tokenizer &tokenizer, std::vector<LexiconExpansion> &out) const {
    if (weight <= 0.0) {
        return;
    }
    for (const LexiconMember &member : tables_.members_of(group)) {
        // A phrase is found in a query as consecutive terms, but a memory's index has no positions:
        // its words apart would find every memory that says "manager" or "test". Only one-term
        // members are looked for.
        const auto terms = terms_of(tables_.text_of(member.text), tokenizer);
        if (terms.size() != 1 || std::find(query.begin(), query.end(), terms.front()) != query.end()) {
            continue;
        }
        const auto existing = std::find_if(out.begin(), out.end(),
                                           [&](const LexiconExpansion &expansion) { return expansion.term == terms.front(); });
        if (existing == out.end()) {
            out.push_back({terms.front(), weight});
        } else {
            existing->weight = std::max(existing->weight, weight);
        }
    }
}

void Lexicon::expand(const std::vector<std::string_view> &query, Tokenizer &tokenizer,
                     std::vector<LexiconExpansion> &out) const {
    out.clear();
    if (tables_.groups.empty() || !weights_.any() || query.empty()) {
        return;
    }
    std::vector<std::string> query_keys;
    for (const auto term : query) {
        query_keys.push_back(member_key(term));
    }
    std::vector<const LexiconGroup *> triggered;
    for (const LexiconGroup &group : tables_.groups) {
        for (const LexiconMember &member : tables_.members_of(group)) {
            if (std::find(query_keys.begin(), query_keys.end(), tables_.text_of(member.key)) == query_keys.end()) {
                continue; // no query term starts as this member does: it cannot be one of them
            }
            const auto terms = terms_of(tables_.text_of(member.text), tokenizer);
            const bool found = !terms.empty() && std::search(query.begin(), query.end(), terms.begin(), terms.end(),
                                                            [](std::string_view a, const std::string &b) {
                                                                return a == b;
                                                            }) != query.end();
            if (found) {
                triggered.push_back(&group);
                break;
            }
        }
    }
    for (const LexiconGroup *group : triggered) {
        add_members_of(*group, group->kind == LexiconKind::same ? weights_.same : weights_.sibling, query, tokenizer,
                       out);
        if (group->broader != LexiconGroup::no_broader) {
            add_members_of(tables_.groups[group->broader], weights_.broader, query, tokenizer, out);
        }
        for (const std::uint32_t narrower : tables_.narrower_of(*group)) {
            add_members_of(tables_.groups[narrower], weights_.narrower, query, tokenizer, out);
        }
    }
}

} // namespace starling::bm25
