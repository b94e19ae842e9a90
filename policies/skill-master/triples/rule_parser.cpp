// SPDX-License-Identifier: Apache-2.0
#include "rule_parser.hpp"

#include "folded_text.hpp"

#include <algorithm>
#include <utility>

namespace starling::policies::triples {
namespace {

constexpr std::size_t max_tags = 5;
constexpr std::size_t max_unspaced_tag_bytes = 24;
/// The host's mark for what it redacted (core/src/redaction/redaction.cpp), folded.
constexpr std::string_view redaction_mark = "[redacted:";

bool contains(const std::vector<std::string> &list, std::string_view word) {
    return std::find(list.begin(), list.end(), word) != list.end();
}

bool contains_phrase(std::string_view text, const std::vector<std::string> &phrases) {
    return std::any_of(phrases.begin(), phrases.end(),
                       [&](const std::string &phrase) { return find_phrase(text, phrase) != std::string_view::npos; });
}

/// The words of a phrase as a triple holds them: no articles, English nouns in the singular.
std::vector<std::string> key_words(std::string_view phrase, const Language &language) {
    std::vector<std::string> words;
    for (auto &word : split_words(phrase)) {
        if (contains(language.articles, word)) {
            continue;
        }
        words.push_back(language.fold_plurals ? english_singular(word) : std::move(word));
    }
    return words;
}

std::string capitalized(std::string text) {
    if (!text.empty() && text.front() >= 'a' && text.front() <= 'z') {
        text.front() = static_cast<char>(text.front() - 'a' + 'A');
    }
    return text;
}

/// The modal a canonical sentence with a subject uses for the kind.
std::string_view modal_of(RuleKind kind, bool negative) {
    switch (kind) {
    case RuleKind::constraint: return negative ? "must not" : "must";
    case RuleKind::rule: return negative ? "should not" : "should";
    case RuleKind::preference: return negative ? "should preferably not" : "should preferably";
    }
    return "should";
}

/// What an instruction without a subject starts with, for the kind.
std::string_view lead_of(RuleKind kind, bool negative, std::string_view verb) {
    switch (kind) {
    case RuleKind::constraint: return negative ? "never " : "always ";
    case RuleKind::rule: return negative ? "do not " : "";
    case RuleKind::preference:
        if (verb == "prefer") {
            return negative ? "do not " : "";
        }
        return negative ? "preferably do not " : "preferably ";
    }
    return "";
}

std::vector<std::string> tags_of(const Triple &triple, const Language &language) {
    std::vector<std::string> tags;
    const auto add = [&](const std::string &tag) {
        if (tags.size() < max_tags && !tag.empty() && !contains(tags, tag)) {
            tags.push_back(tag);
        }
    };
    for (const std::string *part : {&triple.subject, &triple.object}) {
        if (has_unspaced_script(*part)) {
            if (part->size() <= max_unspaced_tag_bytes) {
                add(*part);
            }
            continue;
        }
        for (const auto &word : split_words(*part)) {
            const bool plain = word.size() >= 2 && !contains(language.stopwords, word) &&
                               !contains(language.qualifiers, word) && !contains(language.articles, word) &&
                               !contains(language.pronouns, word);
            if (plain) {
                add(word);
            }
        }
    }
    return tags;
}

} // namespace

std::string_view to_string(NotARule why) noexcept {
    switch (why) {
    case NotARule::no_cue: return "no rule: nothing says must, never, should, use or prefer";
    case NotARule::secret: return "holds a secret: never made a rule of";
    case NotARule::transient: return "only for now: expires at once";
    case NotARule::nothing_to_be_about: return "no rule: nothing it is about";
    }
    return "no rule";
}

RuleParser::RuleParser(std::vector<Language> languages, std::vector<std::string> secret_words)
    : languages_(std::move(languages)), secret_words_(std::move(secret_words)) {}

std::vector<RuleParser::CueMatch> RuleParser::cue_matches(std::string_view text) const {
    std::vector<CueMatch> all;
    for (const auto &language : languages_) {
        for (const auto &cue : language.cues) {
            for (auto found = find_phrase(text, cue.phrase); found != std::string_view::npos;
                 found = find_phrase(text, cue.phrase, found + 1)) {
                all.push_back({found, found + cue.phrase.size(), &cue, &language});
            }
        }
    }
    // Earliest first, the longest of those first: "must not" is one cue, not "must" and a stray "not".
    std::stable_sort(all.begin(), all.end(), [](const CueMatch &a, const CueMatch &b) {
        return a.position != b.position ? a.position < b.position : a.end > b.end;
    });
    std::vector<CueMatch> kept;
    for (const auto &match : all) {
        if (kept.empty() || match.position >= kept.back().end) {
            kept.push_back(match);
        }
    }
    return kept;
}

bool RuleParser::holds_secret(std::string_view text) const {
    if (text.find(redaction_mark) != std::string_view::npos) {
        return true;
    }
    // "the token is abc123", "password: hunter2": a value given for a secret the redactor did not know.
    for (const auto &word : secret_words_) {
        for (auto found = find_phrase(text, word); found != std::string_view::npos;
             found = find_phrase(text, word, found + 1)) {
            auto rest = std::string_view{text}.substr(found + word.size());
            while (!rest.empty() && rest.front() == ' ') {
                rest.remove_prefix(1);
            }
            for (const std::string_view assignment : {"=", ":", "is ", "ist ", "是", "："}) {
                if (rest.starts_with(assignment) && !trim_phrase(rest.substr(assignment.size())).empty()) {
                    return true;
                }
            }
        }
    }
    return false;
}

std::optional<NotARule> RuleParser::sentence_veto(std::string_view sentence) const {
    if (holds_secret(sentence)) {
        return NotARule::secret;
    }
    for (const auto &language : languages_) {
        if (contains_phrase(sentence, language.transient)) {
            return NotARule::transient;
        }
    }
    return std::nullopt;
}

namespace {

/// A clause cut where its cues are: what precedes them, the action after them, and what the cues say.
struct RuleShape {
    const Language *language = nullptr;
    std::string before;
    std::string after;
    std::string verb; ///< named by a verb cue or a copula; empty: the action's own
    bool negative = false;
    RuleKind kind = RuleKind::rule;
};

/// Cuts at the first cue and every cue that follows it with only fillers between ("should never
/// use", "prefer that you never use"); the kind is that of the strongest cue of the clause.
RuleShape shape_with_cues(const std::string &text, const std::vector<RuleParser::CueMatch> &matches) {
    RuleShape shape;
    shape.language = matches.front().language;
    shape.kind = RuleKind::preference;
    for (const auto &match : matches) {
        shape.kind = priority(match.cue->kind) > priority(shape.kind) ? match.cue->kind : shape.kind;
        shape.negative = shape.negative || match.cue->negative;
    }
    std::size_t chain_end = matches.front().end;
    for (std::size_t next = 0; next < matches.size(); ++next) {
        const auto gap = std::string_view{text}.substr(chain_end, matches[next].position - std::min(chain_end, matches[next].position));
        const auto gap_words = split_words(gap);
        const bool only_fillers = std::all_of(gap_words.begin(), gap_words.end(), [&](const std::string &word) {
            return contains(shape.language->fillers, word);
        });
        if (next > 0 && !only_fillers) {
            break;
        }
        chain_end = matches[next].end;
        if (!matches[next].cue->verb.empty()) {
            shape.verb = matches[next].cue->verb;
        }
    }
    shape.before = text.substr(0, matches.front().position);
    shape.after = text.substr(chain_end);
    if (shape.verb.empty() && trim_phrase(shape.after).empty()) {
        // A cue that closes the sentence ("write tests first, always") qualifies what precedes it.
        std::swap(shape.before, shape.after);
    }
    return shape;
}

/// A clause the user asked to remember that has no cue: a fact when a copula joins a subject to
/// what it is ("the default branch is main"), else an instruction.
RuleShape shape_without_cue(const std::string &text, const Language &asked_in, const std::vector<Language> &languages) {
    for (const auto &language : languages) {
        for (const auto &copula : language.copulas) {
            const auto found = find_phrase(text, copula);
            if (found != std::string::npos && found > 0) {
                return {&language, text.substr(0, found), text.substr(found + copula.size()), "be"};
            }
        }
    }
    return {&asked_in, "", text, ""};
}

/// A clause of a script without spaces has no words to parse: what precedes the cue is the
/// subject and what follows the object (or the subject, when nothing precedes it).
std::variant<ParsedRule, NotARule> unspaced_rule(RuleShape shape, const std::string &text, ParsedRule rule) {
    shape.before = trim_phrase(shape.before);
    shape.after = trim_phrase(shape.after);
    if (contains(shape.language->pronouns, shape.before)) {
        shape.before.clear();
    }
    rule.triple.subject = shape.before.empty() ? shape.after : shape.before;
    rule.triple.predicate = std::string{shape.negative ? negation_prefix : ""} + (shape.verb == "be" ? "be" : "do");
    rule.triple.object = shape.before.empty() ? "" : shape.after;
    if (rule.triple.subject.empty()) {
        return NotARule::nothing_to_be_about;
    }
    rule.canonical = text;
    rule.tags = tags_of(rule.triple, *shape.language);
    return rule;
}

/// A clause of words: a stated subject, or the thing (or purpose) an instruction is about.
std::variant<ParsedRule, NotARule> worded_rule(RuleShape shape, const std::string &text, ParsedRule rule) {
    const Language &language = *shape.language;
    auto subject = key_words(shape.before, language);
    if (contains(language.pronouns, join_words(subject))) {
        subject.clear();
    }
    auto rest = key_words(shape.after, language);
    if (shape.verb.empty()) {
        if (rest.empty()) {
            return NotARule::nothing_to_be_about;
        }
        // German closes a clause with its infinitive: "… müssen auf Englisch sein", "immer UTF-8 verwenden".
        shape.verb = language.verb_last ? rest.back() : rest.front();
        rest.erase(language.verb_last ? rest.end() - 1 : rest.begin());
    }
    const std::string display_rest = join_words(rest);
    const std::string ending = display_rest.empty() ? "." : " " + display_rest + ".";
    std::string predicate = shape.verb;
    if (!subject.empty()) {
        rule.triple.subject = join_words(subject);
        rule.triple.object = display_rest;
        rule.canonical = capitalized(rule.triple.subject + " " + std::string{modal_of(rule.kind, shape.negative)} + " " +
                                     shape.verb + ending);
    } else {
        // Qualifiers right after the verb belong to it ("reply in"); the thing runs up to the next.
        std::size_t first = 0;
        while (first < rest.size() && contains(language.qualifiers, rest[first])) {
            predicate += " " + rest[first];
            ++first;
        }
        std::size_t thing_end = first;
        while (thing_end < rest.size() && !contains(language.qualifiers, rest[thing_end])) {
            ++thing_end;
        }
        const std::string thing = join_words(rest, first, thing_end);
        const bool purpose = thing_end + 1 < rest.size() && contains(language.purposes, rest[thing_end]);
        if (thing.empty()) {
            rule.triple.subject = shape.verb;
            predicate = "do";
        } else if (purpose) {
            rule.triple.subject = join_words(rest, thing_end + 1);
            rule.triple.object = thing;
        } else {
            rule.triple.subject = thing;
            rule.triple.object = join_words(rest, thing_end);
        }
        rule.canonical = capitalized(std::string{lead_of(rule.kind, shape.negative, shape.verb)} + shape.verb + ending);
    }
    rule.triple.predicate = std::string{shape.negative ? negation_prefix : ""} + predicate;
    if (contains(language.pronouns, rule.triple.subject)) {
        return NotARule::nothing_to_be_about; // "never commit it": what "it" is, another sentence said
    }
    if (!language.rewrite_canonical) {
        // The templates are English: another language's canonical sentence is the statement.
        rule.canonical = capitalized(text) + ".";
    }
    rule.tags = tags_of(rule.triple, language);
    return rule;
}

} // namespace

std::string RuleParser::cut_reason(std::string &text) const {
    std::size_t reason_at = std::string::npos;
    std::string reason;
    for (const auto &language : languages_) {
        for (const auto &marker : language.reasons) {
            const auto found = find_phrase(text, marker);
            if (found != std::string::npos && found > 0 && found < reason_at) {
                reason_at = found;
                reason = trim_phrase(std::string_view{text}.substr(found + marker.size()));
            }
        }
    }
    if (reason_at != std::string::npos) {
        text = trim_phrase(std::string_view{text}.substr(0, reason_at));
    }
    return reason;
}

std::variant<ParsedRule, NotARule> RuleParser::parse(std::string_view statement, const Language *asked_in) const {
    std::string text = trim_phrase(statement);
    ParsedRule rule;
    // The reason is why the rule holds, not what it says: it stays out of the triple.
    rule.reason = cut_reason(text);
    const auto matches = cue_matches(text);
    if (matches.empty() && asked_in == nullptr) {
        return NotARule::no_cue;
    }
    const RuleShape shape = matches.empty() ? shape_without_cue(text, *asked_in, languages_) : shape_with_cues(text, matches);
    rule.kind = shape.kind;
    if (has_unspaced_script(text) && shape.language->qualifiers.empty()) {
        return unspaced_rule(shape, text, std::move(rule));
    }
    return worded_rule(shape, text, std::move(rule));
}

} // namespace starling::policies::triples
