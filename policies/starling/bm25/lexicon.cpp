// SPDX-License-Identifier: Apache-2.0
#include "lexicon.hpp"

#include <starling/bm25/built_in_lexicon.hpp>

#include <algorithm>
#include <unordered_map>

namespace starling::bm25 {

namespace {

std::string_view trim(std::string_view text) noexcept {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// `text` split at `separator`, each piece trimmed.
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> pieces;
    while (true) {
        const auto at = text.find(separator);
        pieces.push_back(trim(text.substr(0, at)));
        if (at == std::string_view::npos) {
            return pieces;
        }
        text.remove_prefix(at + 1);
    }
}

bool is_id(std::string_view id) noexcept {
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

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

std::string member_key(std::string_view word) {
    constexpr std::size_t key_bytes = 2;
    const auto is_word_byte = [](unsigned char byte) {
        return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
               byte >= 0x80;
    };
    std::size_t at = 0;
    while (at < word.size() && !is_word_byte(static_cast<unsigned char>(word[at]))) {
        ++at; // ".NET" is found as "net"
    }
    std::string key;
    for (; at < word.size() && key.size() < key_bytes; ++at) {
        const auto byte = static_cast<unsigned char>(word[at]);
        if (!is_word_byte(byte)) {
            break;
        }
        if (byte >= 'A' && byte <= 'Z') {
            key += static_cast<char>(byte - 'A' + 'a');
        } else if (byte == 0xC3 && at + 1 < word.size() && key.size() + 2 <= key_bytes + 1) {
            // Latin-1 capitals (À–Þ but ×) fold as the tokenizer folds them: "Änderung" as "änderung".
            const auto next = static_cast<unsigned char>(word[at + 1]);
            key += static_cast<char>(byte);
            key += static_cast<char>(next >= 0x80 && next <= 0x9E && next != 0x97 ? next + 0x20 : next);
            ++at;
        } else {
            key += static_cast<char>(byte);
        }
    }
    return key;
}

std::string_view built_in_lexicon_text() noexcept { return built_in_lexicon; }

Lexicon::Lexicon(std::string_view text, std::string_view source, const LexiconWeights &weights) : weights_(weights) {
    struct PendingBroader {
        std::size_t group;
        std::string_view id;
        std::size_t line;
    };
    std::vector<PendingBroader> pending;
    std::unordered_map<std::string_view, std::size_t> group_of_id;
    std::size_t line_number = 0;
    const auto fail = [&](std::size_t line, const std::string &what) {
        throw LexiconError(std::string{source} + ":" + std::to_string(line) + ": " + what);
    };
    while (!text.empty()) {
        ++line_number;
        const auto end = text.find('\n');
        const auto line = trim(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (line.empty() || line.front() == '#') {
            continue;
        }
        const auto fields = split(line, '|');
        if (fields.size() != 4) {
            fail(line_number, "expected 'kind | id | broader | members', found " + std::to_string(fields.size()) +
                                  " field(s)");
        }
        Group group;
        if (fields[0] == "same") {
            group.kind = Kind::same;
        } else if (fields[0] == "kind") {
            group.kind = Kind::kind;
        } else {
            fail(line_number, "kind must be 'same' or 'kind', not '" + std::string{fields[0]} + "'");
        }
        if (!is_id(fields[1])) {
            fail(line_number, "'" + std::string{fields[1]} + "' is no id (lower-case ASCII letters, digits, '-')");
        }
        group.id = fields[1];
        if (!group_of_id.emplace(group.id, groups_.size()).second) {
            fail(line_number, "the id '" + std::string{group.id} + "' is used twice");
        }
        if (fields[2] != "-") {
            pending.push_back({groups_.size(), fields[2], line_number});
        }
        for (const auto member : split(fields[3], ',')) {
            if (member.empty()) {
                fail(line_number, "an empty member (two commas in a row, or one at the end)");
            }
            group.members.push_back({member, member_key(member)});
        }
        groups_.push_back(std::move(group));
    }
    for (const auto &broader : pending) {
        const auto found = group_of_id.find(broader.id);
        if (found == group_of_id.end()) {
            fail(broader.line, "broader names '" + std::string{broader.id} + "', which no line defines");
        }
        if (groups_[found->second].kind != Kind::same) {
            fail(broader.line, "broader names '" + std::string{broader.id} + "', a 'kind' line; it must name a 'same' line");
        }
        if (found->second == broader.group) {
            fail(broader.line, "a group cannot be broader than itself");
        }
        groups_[broader.group].broader = found->second;
        groups_[found->second].narrower.push_back(broader.group);
    }
}

std::vector<std::string_view> Lexicon::members() const {
    std::vector<std::string_view> all;
    for (const Group &group : groups_) {
        for (const Member &member : group.members) {
            all.push_back(member.text);
        }
    }
    return all;
}

void Lexicon::add_members_of(std::size_t group, double weight, const std::vector<std::string_view> &query,
                             Tokenizer &tokenizer, std::vector<LexiconExpansion> &out) const {
    if (weight <= 0.0) {
        return;
    }
    for (const Member &member : groups_[group].members) {
        // A phrase is found in a query as consecutive terms, but a memory's index has no positions:
        // its words apart would find every memory that says "manager" or "test". Only one-term
        // members are looked for.
        const auto terms = terms_of(member.text, tokenizer);
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
    if (groups_.empty() || !weights_.any() || query.empty()) {
        return;
    }
    std::vector<std::string> query_keys;
    for (const auto term : query) {
        query_keys.push_back(member_key(term));
    }
    std::vector<std::size_t> triggered;
    for (std::size_t group = 0; group < groups_.size(); ++group) {
        for (const Member &member : groups_[group].members) {
            if (std::find(query_keys.begin(), query_keys.end(), member.key) == query_keys.end()) {
                continue; // no query term starts as this member does: it cannot be one of them
            }
            const auto terms = terms_of(member.text, tokenizer);
            const bool found = !terms.empty() && std::search(query.begin(), query.end(), terms.begin(), terms.end(),
                                                            [](std::string_view a, const std::string &b) {
                                                                return a == b;
                                                            }) != query.end();
            if (found) {
                triggered.push_back(group);
                break;
            }
        }
    }
    for (const std::size_t group : triggered) {
        const Group &found = groups_[group];
        add_members_of(group, found.kind == Kind::same ? weights_.same : weights_.sibling, query, tokenizer, out);
        if (found.broader != npos) {
            add_members_of(found.broader, weights_.broader, query, tokenizer, out);
        }
        for (const std::size_t narrower : found.narrower) {
            add_members_of(narrower, weights_.narrower, query, tokenizer, out);
        }
    }
}

} // namespace starling::bm25
