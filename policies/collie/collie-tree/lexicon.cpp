// SPDX-License-Identifier: Apache-2.0
#include "lexicon.hpp"

#include <stdexcept>

namespace starling::policies::collie_tree {

Lexicon::Lexicon(const sdk::Settings &settings) {
    add_cues(settings, "cues");
    add_cues(settings, "extra_cues");
}

void Lexicon::add_cues(const sdk::Settings &settings, const std::string &root) {
    const auto languages = settings.get_child_optional(root);
    if (!languages) {
        return;
    }
    for (const auto &[language, rules] : *languages) {
        auto &cues = cues_by_language_[language];
        for (const auto &[rule_name, list] : rules) {
            const std::string setting = root + "." + language + "." + rule_name;
            const auto rule = rule_named(rule_name);
            if (!rule) {
                std::string known;
                for (const auto name : kRuleNames) {
                    known += (known.empty() ? "" : ", ") + std::string{name};
                }
                throw std::invalid_argument("setting '" + setting + "': unknown rule '" + rule_name +
                                            "' (known rules: " + known + ")");
            }
            for (const auto &entry : list) {
                try {
                    cues[index_of(*rule)].emplace_back(entry.second.get_value<std::string>());
                } catch (const std::invalid_argument &problem) {
                    throw std::invalid_argument("setting '" + setting + "': " + problem.what());
                }
            }
        }
    }
}

const Lexicon::RuleCues *Lexicon::cues_of(const std::string &language) const {
    const auto found = cues_by_language_.find(language);
    return found == cues_by_language_.end() ? nullptr : &found->second;
}

std::vector<std::string> Lexicon::languages() const {
    std::vector<std::string> names;
    for (const auto &[language, cues] : cues_by_language_) {
        names.push_back(language);
    }
    return names;
}

} // namespace starling::policies::collie_tree
