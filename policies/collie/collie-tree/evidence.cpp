// SPDX-License-Identifier: Apache-2.0
#include "evidence.hpp"

#include "sentences.hpp"
#include "text_folding.hpp"

#include <algorithm>
#include <utility>

namespace starling::policies::collie_tree {

EvidenceCollector::EvidenceCollector(const Lexicon &lexicon, const LanguageDetector &detector,
                                     const LinkFinder &links, MatchOptions options)
    : lexicon_(&lexicon), detector_(&detector), links_(&links), options_(std::move(options)) {}

Evidence EvidenceCollector::collect(std::string_view message) const {
    const std::string folded = fold_for_matching(message);
    const auto sentences = split_sentences(folded);
    Evidence evidence;
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
    evidence.languages_applied = languages;
    evidence.sentences = sentences;
    return evidence;
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
