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
    auto &tools = evidence.cues[index_of(Rule::tool)];
    std::erase_if(tools, [&](const std::string &cue) { return is_plain_name(cue) && !named_alone(sentences, cue); });
    // One tool named in several words is one sign: "aws" in "aws cli", "loki" in "grafana loki".
    const auto is_word_of = [](const std::string &part, const std::string &whole) {
        if (part.size() >= whole.size()) {
            return false;
        }
        for (auto at = whole.find(part); at != std::string::npos; at = whole.find(part, at + 1)) {
            const auto end = at + part.size();
            if ((at == 0 || whole[at - 1] == ' ') && (end == whole.size() || whole[end] == ' ')) {
                return true;
            }
        }
        return false;
    };
    const auto matched = tools;
    std::erase_if(tools, [&](const std::string &cue) {
        return std::any_of(matched.begin(), matched.end(),
                           [&](const std::string &other) { return is_word_of(cue, other); });
    });
}

/// The clause a sentence opens with: up to a comma, a semicolon or a colon before a blank
/// ("https:" goes on).
std::string opening_clause(const std::string &sentence) {
    std::size_t end = std::min(sentence.find(','), sentence.find(';'));
    end = std::min(end, sentence.find(": "));
    return sentence.substr(0, end);
}

/// The sentences without the clause the first opens with, and without the mark that ended it.
std::vector<std::string> after_the_opening(const std::vector<std::string> &sentences) {
    std::string rest = sentences.front().substr(opening_clause(sentences.front()).size());
    rest.erase(0, rest.find_first_not_of(",;: "));
    std::vector<std::string> after{std::move(rest)};
    after.insert(after.end(), sentences.begin() + 1, sentences.end());
    return after;
}

} // namespace

EvidenceCollector::EvidenceCollector(const Lexicon &lexicon, const LanguageDetector &detector,
                                     const LinkFinder &links, MatchOptions options, std::vector<std::string> denials)
    : lexicon_(&lexicon), detector_(&detector), links_(&links), options_(std::move(options)),
      denials_(std::move(denials)) {}

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
    // "No, the host is pg-stage-3." is no "no": it corrects what was said, with the value that holds.
    // "No, make it 3 columns." is a request for now, not a correction.
    if (auto denial = denial_before_a_value(sentences, asked_to_keep);
        denial && !opens_with_request(languages, after_the_opening(sentences), evidence)) {
        evidence.cues[index_of(Rule::acknowledgement)].clear();
        auto &corrections = evidence.cues[index_of(Rule::fact_correction)];
        if (corrections.empty()) {
            corrections.push_back(std::move(*denial));
        }
    }
    evidence.opens_with_request = opens_with_request(languages, sentences, evidence);
    drop_links_of_the_request(sentences, evidence);
    evidence.languages_applied = languages;
    evidence.sentences = sentences;
    return evidence;
}

std::optional<std::string> EvidenceCollector::denial_before_a_value(const std::vector<std::string> &sentences,
                                                                    bool asked_to_keep) const {
    // Handed to `remember`, a denial before a statement corrects whatever the statement names
    // ("Nein, für Sicherheitsfragen ist jetzt Jonas zuständig."): three words or more are one.
    constexpr std::size_t kStatementWords = 3;
    if (sentences.empty()) {
        return std::nullopt;
    }
    const std::string opening = opening_clause(sentences.front());
    if (std::find(denials_.begin(), denials_.end(), opening) == denials_.end() ||
        opening.size() == sentences.front().size()) {
        return std::nullopt;
    }
    std::string first_word;
    std::size_t words = 0;
    for (const auto &sentence : after_the_opening(sentences)) {
        std::size_t start = 0;
        for (std::size_t at = 0; at <= sentence.size(); ++at) {
            if (at < sentence.size() && sentence[at] != ' ' && sentence[at] != ',') {
                continue;
            }
            const std::string_view word = std::string_view{sentence}.substr(start, at - start);
            start = at + 1;
            if (word.empty()) {
                continue;
            }
            if (std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                return opening + ", … " + std::string{word};
            }
            if (words++ == 0) {
                first_word = word;
            }
        }
    }
    if (asked_to_keep && words >= kStatementWords) {
        return opening + ", " + first_word + " …";
    }
    return std::nullopt;
}

bool EvidenceCollector::opens_with_request(const std::vector<std::string> &languages,
                                           const std::vector<std::string> &sentences, const Evidence &evidence) const {
    if (sentences.empty() || evidence.hits(Rule::operation_request) == 0) {
        return false;
    }
    const std::string opening = opening_clause(sentences.front());
    return std::any_of(languages.begin(), languages.end(), [&](const std::string &language) {
        const auto *cues = lexicon_->cues_of(language);
        return cues != nullptr && std::any_of((*cues)[index_of(Rule::operation_request)].begin(),
                                              (*cues)[index_of(Rule::operation_request)].end(),
                                              [&](const CuePattern &cue) { return cue.matches(opening, options_); });
    });
}

void EvidenceCollector::drop_links_of_the_request(const std::vector<std::string> &sentences,
                                                  Evidence &evidence) const {
    if (evidence.asked_to_keep || !evidence.opens_with_request || evidence.links.empty()) {
        return;
    }
    for (const auto &link : links_->find(opening_clause(sentences.front()))) {
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
