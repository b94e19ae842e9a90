// SPDX-License-Identifier: Apache-2.0
#include "rule_decisions.hpp"

#include "folded_text.hpp"
#include "statements.hpp"

#include <algorithm>
#include <stdexcept>
#include <variant>

namespace starling::policies::triples {
namespace {

DecisionSettings read_decision_settings(const sdk::Settings &settings) {
    DecisionSettings read;
    read.default_scope = settings.get<std::string>("default_scope", read.default_scope);
    if (read.default_scope != "project" && read.default_scope != "user") {
        throw std::invalid_argument("triples setting 'default_scope' must be \"project\" or \"user\", not '" +
                                    read.default_scope + "'");
    }
    const auto most = settings.get_optional<long long>("max_rules_per_message");
    if (most && *most < 1) {
        throw std::invalid_argument("triples setting 'max_rules_per_message' must be at least 1, not " +
                                    std::to_string(*most));
    }
    if (most) {
        read.max_rules_per_message = static_cast<std::size_t>(*most);
    }
    return read;
}

std::vector<std::string> read_secret_words(const sdk::Settings &settings) {
    std::vector<std::string> words;
    for (const auto &word : sdk::get_string_list(settings, "secret_words")) {
        words.push_back(fold(word));
    }
    return words;
}

/// Blanks every occurrence of the phrases out of `text`; whether there was one.
bool remove_phrases(std::string &text, const std::vector<std::string> &phrases) {
    bool found_any = false;
    for (const auto &phrase : phrases) {
        for (auto found = find_phrase(text, phrase); found != std::string::npos; found = find_phrase(text, phrase, found)) {
            text.replace(found, phrase.size(), " ");
            found_any = true;
        }
    }
    return found_any;
}

sdk::Decision claim_of(const ParsedRule &rule, const std::string &scope) {
    sdk::Decision claim;
    claim.store = true;
    claim.type = "feedback";
    claim.scope = scope;
    claim.reason = std::string{to_string(rule.kind)} + " (" + rule.triple.dedupe_key() + ")";
    claim.summary = rule.canonical;
    claim.tags = rule.tags;
    claim.fields = {{"kind", std::string{to_string(rule.kind)}},
                    {"subject", rule.triple.subject},
                    {"predicate", rule.triple.predicate},
                    {"object", rule.triple.object},
                    {"source", std::string{"user_direct"}}};
    claim.dedupe_key = rule.triple.dedupe_key();
    claim.body = rule.reason.empty() ? rule.canonical : rule.canonical + " Because " + rule.reason + ".";
    return claim;
}

} // namespace

RuleDecisions::RuleDecisions(const sdk::Settings &settings)
    : settings_(read_decision_settings(settings)), parser_(read_languages(settings), read_secret_words(settings)) {}

sdk::Decision RuleDecisions::decide(const sdk::Message &message) const {
    std::string text = fold(message.text);
    bool global = false;
    const Language *asked_in = nullptr;
    for (const auto &language : parser_.languages()) {
        global = remove_phrases(text, language.global_scope) || global;
        if (remove_phrases(text, language.triggers) && asked_in == nullptr) {
            asked_in = &language;
        }
    }
    // skill_master's local memory lives in the repository; outside one, only the user's is there.
    const bool user_scope = global || settings_.default_scope == "user" || message.project.empty();
    const std::string scope = user_scope ? "user" : "project";

    sdk::Decision decision;
    std::vector<std::string> keys;
    std::string why_not = "no rule in the message";
    for (const auto &sentence : split_sentences(text, parser_.languages())) {
        if (sentence.question) {
            why_not = "a question, not a rule";
            continue;
        }
        if (const auto veto = parser_.sentence_veto(sentence.text)) {
            why_not = to_string(*veto);
            continue;
        }
        for (const auto &clause : sentence.clauses) {
            const auto parsed = parser_.parse(clause, asked_in);
            if (const auto *not_a_rule = std::get_if<NotARule>(&parsed)) {
                why_not = to_string(*not_a_rule);
                continue;
            }
            const auto &rule = std::get<ParsedRule>(parsed);
            const auto key = rule.triple.dedupe_key();
            if (std::find(keys.begin(), keys.end(), key) != keys.end() ||
                decision.claims.size() >= settings_.max_rules_per_message) {
                continue;
            }
            keys.push_back(key);
            decision.claims.push_back(claim_of(rule, scope));
        }
    }
    if (decision.claims.empty()) {
        decision.reason = why_not;
        return decision;
    }
    decision.store = true;
    decision.type = "feedback";
    decision.scope = scope;
    decision.summary = decision.claims.front().summary;
    decision.reason = std::to_string(decision.claims.size()) + (decision.claims.size() == 1 ? " rule" : " rules") +
                      " as triples, scope " + scope + (global ? " (asked for global)" : "");
    return decision;
}

} // namespace starling::policies::triples
