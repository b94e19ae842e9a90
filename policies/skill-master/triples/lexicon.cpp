// SPDX-License-Identifier: Apache-2.0
#include "lexicon.hpp"

#include "folded_text.hpp"

#include <boost/property_tree/ptree.hpp>

#include <algorithm>
#include <stdexcept>

namespace starling::policies::triples {
namespace {

std::vector<std::string> read_list(const sdk::Settings &language, const std::string &path) {
    const auto node = language.get_child_optional(path.substr(path.rfind('.') + 1));
    if (!node) {
        return {};
    }
    if (!node->data().empty()) {
        throw std::invalid_argument("triples setting '" + path + "' must be a list of strings, not '" +
                                    node->data() + "'");
    }
    std::vector<std::string> items;
    for (const auto &[key, item] : *node) {
        if (!key.empty() || !item.empty()) {
            throw std::invalid_argument("triples setting '" + path + "' must be a list of strings");
        }
        auto folded = fold(item.data());
        if (folded.empty()) {
            throw std::invalid_argument("triples setting '" + path + "' holds an empty phrase");
        }
        items.push_back(std::move(folded));
    }
    return items;
}

void add_cues(Language &language, const sdk::Settings &settings, const std::string &root, const char *list,
              RuleKind kind, bool negative) {
    for (const auto &entry : read_list(settings, root + "." + list)) {
        const auto colon = entry.rfind(':');
        // "add to memory:" ends in a colon and names no verb; "use:use" names one.
        const bool names_verb = colon != std::string::npos && colon + 1 < entry.size();
        Cue cue{names_verb ? entry.substr(0, colon) : entry, kind, negative, names_verb ? entry.substr(colon + 1) : ""};
        if (cue.phrase.empty()) {
            throw std::invalid_argument("triples setting '" + root + "." + list + "' holds a cue without a phrase: '" +
                                        entry + "'");
        }
        language.cues.push_back(std::move(cue));
    }
}

bool read_flag(const sdk::Settings &settings, const std::string &root, const char *name) {
    const auto node = settings.get_child_optional(name);
    if (!node) {
        return false;
    }
    const auto value = node->get_value_optional<bool>();
    if (!value) {
        throw std::invalid_argument("triples setting '" + root + "." + name + "' must be true or false, not '" +
                                    node->data() + "'");
    }
    return *value;
}

} // namespace

std::vector<Language> read_languages(const sdk::Settings &settings) {
    std::vector<Language> languages;
    const auto all = settings.get_child_optional("languages");
    if (!all) {
        throw std::invalid_argument("triples setting 'languages' is missing");
    }
    for (const auto &[name, node] : *all) {
        const std::string root = "languages." + name;
        Language language;
        add_cues(language, node, root, "constraint", RuleKind::constraint, false);
        add_cues(language, node, root, "constraint_negative", RuleKind::constraint, true);
        add_cues(language, node, root, "rule", RuleKind::rule, false);
        add_cues(language, node, root, "rule_negative", RuleKind::rule, true);
        add_cues(language, node, root, "preference", RuleKind::preference, false);
        add_cues(language, node, root, "preference_negative", RuleKind::preference, true);
        std::stable_sort(language.cues.begin(), language.cues.end(),
                         [](const Cue &a, const Cue &b) { return a.phrase.size() > b.phrase.size(); });
        language.triggers = read_list(node, root + ".triggers");
        language.global_scope = read_list(node, root + ".global_scope");
        language.questions = read_list(node, root + ".questions");
        language.question_endings = read_list(node, root + ".question_endings");
        language.transient = read_list(node, root + ".transient");
        language.reasons = read_list(node, root + ".reasons");
        language.pronouns = read_list(node, root + ".pronouns");
        language.articles = read_list(node, root + ".articles");
        language.qualifiers = read_list(node, root + ".qualifiers");
        language.fillers = read_list(node, root + ".fillers");
        language.purposes = read_list(node, root + ".purposes");
        language.conjunctions = read_list(node, root + ".conjunctions");
        language.stopwords = read_list(node, root + ".stopwords");
        language.copulas = read_list(node, root + ".copulas");
        language.verb_last = read_flag(node, root, "verb_last");
        language.fold_plurals = read_flag(node, root, "fold_plurals");
        language.rewrite_canonical = read_flag(node, root, "rewrite_canonical");
        // Longest first everywhere a phrase is removed, so "add to memory that" goes whole.
        for (auto *phrases : {&language.triggers, &language.global_scope}) {
            std::stable_sort(phrases->begin(), phrases->end(),
                             [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
        }
        languages.push_back(std::move(language));
    }
    if (std::none_of(languages.begin(), languages.end(), [](const Language &language) { return !language.cues.empty(); })) {
        throw std::invalid_argument("triples setting 'languages' has no language with a cue");
    }
    return languages;
}

} // namespace starling::policies::triples
