// SPDX-License-Identifier: Apache-2.0
#include "evidence.hpp"

#include "sentences.hpp"
#include "text_folding.hpp"

#include <algorithm>
#include <utility>

namespace starling::policies::collie_tree {

namespace {

/// Characters that join a name with what is next to it: "rust" in "rust-analyzer", "aws" in
/// "terraform-aws-modules", "fastify" in "@fastify/rate-limit" name something else.
bool joins_names(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '/' ||
           c == '@';
}

bool named_alone(const std::vector<std::string> &sentences, std::string_view name) {
    for (const auto &sentence : sentences) {
        for (auto at = sentence.find(name); at != std::string::npos; at = sentence.find(name, at + 1)) {
            const auto end = at + name.size();
            const bool free_before = at == 0 || !joins_names(sentence[at - 1]);
            // A full stop and a blank after a name end a sentence, they join no name.
            const bool free_after = end == sentence.size() || !joins_names(sentence[end]) ||
                                    (sentence[end] == '.' && (end + 1 == sentence.size() || sentence[end + 1] == ' '));
            if (free_before && free_after) {
                return true;
            }
        }
    }
    return false;
}

/// Keeps the tools named on their own, not as part of another name; a part of a setup may well be
/// one ("Modell" in "Churn-Modell"). Cues with markers match as the cue matcher says.
void drop_parts_of_other_names(const std::vector<std::string> &sentences, Evidence &evidence) {
    const auto is_plain_name = [](const std::string &cue) {
        return std::none_of(cue.begin(), cue.end(), [](char c) { return c == '*' || c == '^' || c == '$'; });
    };
    std::erase_if(evidence.cues[index_of(Rule::tool)],
                  [&](const std::string &cue) { return is_plain_name(cue) && !named_alone(sentences, cue); });
}

} // namespace

EvidenceCollector::EvidenceCollector(const Lexicon &lexicon, const LanguageDetector &detector,
                                     const LinkFinder &links, MatchOptions options)
    : lexicon_(&lexicon), detector_(&detector), links_(&links), options_(std::move(options)) {}

Evidence EvidenceCollector::collect(std::string_view message, bool asked_to_keep) const {
    const std::string folded = fold_for_matching(message);
    const auto sentences = split_sentences(folded);
    Evidence evidence;
    evidence.asked_to_keep = asked_to_keep;
    evidence.language = detector_->detect(folded);
    evidence.question_mark = has_question_mark(folded);
    evidence.links = links_->find(folded);

    const auto every_language = lexicon_->languages();
    std::vector<std::string> languages{std::string{kCommonLexicon}};
    if (evidence.language.sure) {
        languages.push_back(evidence.language.language);
    } else {
        languages = every_language;
    }
    const bool matched = match_lexicons(languages, sentences, evidence);
    // Mixed-language messages fool any guess; when the guessed language's cues say nothing, the
    // other languages get their say before the tree concludes there is nothing to remember.
    if (!matched && languages.size() < every_language.size()) {
        evidence.cues = {};
        languages = every_language;
        match_lexicons(languages, sentences, evidence);
    }
    drop_parts_of_other_names(sentences, evidence);
    drop_links_of_the_request(languages, sentences, evidence);
    evidence.languages_applied = languages;
    evidence.sentences = sentences;
    return evidence;
}

void EvidenceCollector::drop_links_of_the_request(const std::vector<std::string> &languages,
                                                  const std::vector<std::string> &sentences,
                                                  Evidence &evidence) const {
    if (evidence.asked_to_keep || sentences.empty() || evidence.links.empty() ||
        evidence.hits(Rule::operation_request) == 0) {
        return;
    }
    // The opening clause ends at a comma, a semicolon or a colon before a blank ("https:" goes on).
    const std::string &first = sentences.front();
    std::size_t end = std::min(first.find(','), first.find(';'));
    end = std::min(end, first.find(": "));
    const std::string opening = first.substr(0, end);
    const bool opens_with_request = std::any_of(languages.begin(), languages.end(), [&](const std::string &language) {
        const auto *cues = lexicon_->cues_of(language);
        return cues != nullptr && std::any_of((*cues)[index_of(Rule::operation_request)].begin(),
                                              (*cues)[index_of(Rule::operation_request)].end(),
                                              [&](const CuePattern &cue) { return cue.matches(opening, options_); });
    });
    if (!opens_with_request) {
        return;
    }
    for (const auto &link : links_->find(opening)) {
        const auto found = std::find(evidence.links.begin(), evidence.links.end(), link);
        if (found != evidence.links.end()) {
            evidence.links.erase(found);
        }
    }
}

bool EvidenceCollector::match_lexicons(const std::vector<std::string> &languages,
                                       const std::vector<std::string> &sentences, Evidence &evidence) const {
    bool language_cue_matched = false;
    for (const auto &language : languages) {
        const auto *cues = lexicon_->cues_of(language);
        if (cues == nullptr) {
            continue;
        }
        for (std::size_t rule = 0; rule < kRuleCount; ++rule) {
            auto &found = evidence.cues[rule];
            for (const auto &cue : (*cues)[rule]) {
                if (std::find(found.begin(), found.end(), cue.text()) != found.end()) {
                    continue;
                }
                const bool in_message =
                    std::any_of(sentences.begin(), sentences.end(),
                                [&](const std::string &sentence) { return cue.matches(sentence, options_); });
                if (in_message) {
                    found.push_back(cue.text());
                    language_cue_matched = language_cue_matched || language != kCommonLexicon;
                }
            }
        }
    }
    return language_cue_matched;
}

} // namespace starling::policies::collie_tree
