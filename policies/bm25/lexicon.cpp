// SPDX-License-Identifier: Apache-2.0
#include "lexicon.hpp"

#include <starling/bm25/built_in_lexicon.hpp>

#include <algorithm>

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

} // namespace

std::string_view built_in_lexicon_text() noexcept { return built_in_lexicon; }

Lexicon::Lexicon(std::string_view text, std::string_view source, Tokenizer &tokenizer, const LexiconWeights &weights)
    : weights_(weights) {
    struct PendingBroader {
        std::size_t group;
        std::string id;
        std::size_t line;
    };
    std::vector<PendingBroader> pending;
    TokenList tokens;
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
        for (const Group &other : groups_) {
            if (other.id == group.id) {
                fail(line_number, "the id '" + group.id + "' is used twice");
            }
        }
        if (fields[2] != "-") {
            pending.push_back({groups_.size(), std::string{fields[2]}, line_number});
        }
        for (const auto member : split(fields[3], ',')) {
            if (member.empty()) {
                fail(line_number, "an empty member (two commas in a row, or one at the end)");
            }
            tokens.clear();
            tokenizer.tokenize(member, tokens, StopWordHandling::remove, CamelCaseParts::omit);
            if (tokens.empty()) {
                continue; // a stop word under these settings: nothing a query could say
            }
            std::vector<std::string> terms;
            for (std::size_t token = 0; token < tokens.size(); ++token) {
                terms.emplace_back(tokens[token]);
            }
            if (std::find(group.members.begin(), group.members.end(), terms) == group.members.end()) {
                group.members.push_back(std::move(terms));
            }
        }
        if (group.members.empty()) {
            fail(line_number, "the group '" + group.id + "' has no member");
        }
        groups_.push_back(std::move(group));
    }
    for (const auto &broader : pending) {
        const auto found = std::find_if(groups_.begin(), groups_.end(),
                                        [&](const Group &group) { return group.id == broader.id; });
        if (found == groups_.end()) {
            fail(broader.line, "broader names '" + broader.id + "', which no line defines");
        }
        if (found->kind != Kind::same) {
            fail(broader.line, "broader names '" + broader.id + "', a 'kind' line; it must name a 'same' line");
        }
        const auto index = static_cast<std::size_t>(found - groups_.begin());
        if (index == broader.group) {
            fail(broader.line, "a group cannot be broader than itself");
        }
        groups_[broader.group].broader = index;
        groups_[index].narrower.push_back(broader.group);
    }
    for (std::size_t group = 0; group < groups_.size(); ++group) {
        for (std::size_t member = 0; member < groups_[group].members.size(); ++member) {
            by_first_term_[groups_[group].members[member].front()].emplace_back(group, member);
        }
    }
}

void Lexicon::add_members_of(std::size_t group, double weight, const std::vector<std::string_view> &query,
                             std::vector<LexiconExpansion> &out) const {
    if (weight <= 0.0) {
        return;
    }
    for (const auto &member : groups_[group].members) {
        // A phrase is found in a query as consecutive terms, but a memory's index has no positions:
        // its words apart would find every memory that says "manager" or "test". Only one-term
        // members are looked for.
        if (member.size() != 1 || std::find(query.begin(), query.end(), member.front()) != query.end()) {
            continue;
        }
        const auto existing = std::find_if(out.begin(), out.end(),
                                           [&](const LexiconExpansion &expansion) { return expansion.term == member.front(); });
        if (existing == out.end()) {
            out.push_back({member.front(), weight});
        } else {
            existing->weight = std::max(existing->weight, weight);
        }
    }
}

void Lexicon::expand(const std::vector<std::string_view> &query, std::vector<LexiconExpansion> &out) const {
    out.clear();
    if (groups_.empty() || !weights_.any()) {
        return;
    }
    std::vector<std::size_t> triggered;
    for (std::size_t at = 0; at < query.size(); ++at) {
        const auto found = by_first_term_.find(query[at]);
        if (found == by_first_term_.end()) {
            continue;
        }
        for (const auto &[group, member] : found->second) {
            const auto &terms = groups_[group].members[member];
            if (at + terms.size() > query.size() ||
                !std::equal(terms.begin(), terms.end(), query.begin() + static_cast<std::ptrdiff_t>(at))) {
                continue;
            }
            if (std::find(triggered.begin(), triggered.end(), group) == triggered.end()) {
                triggered.push_back(group);
            }
        }
    }
    for (const std::size_t group : triggered) {
        const Group &found = groups_[group];
        add_members_of(group, found.kind == Kind::same ? weights_.same : weights_.sibling, query, out);
        if (found.broader != npos) {
            add_members_of(found.broader, weights_.broader, query, out);
        }
        for (const std::size_t narrower : found.narrower) {
            add_members_of(narrower, weights_.narrower, query, out);
        }
    }
}

} // namespace starling::bm25
