// SPDX-License-Identifier: Apache-2.0
#include "relevance_score.hpp"

#include "cue_phrases.hpp"

#include <algorithm>
#include <array>

namespace starling::sensory_filter {
namespace {

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\"'()");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\"'()");
    return std::string{text.substr(first, last - first + 1)};
}

/// An item without the words that only introduce it: "both react" is react.
std::string bare_item(std::string item) {
    for (bool stripped = true; stripped;) {
        stripped = false;
        for (const std::string_view lead : {"the ", "both ", "all ", "and ", "or ", "of "}) {
            if (item.starts_with(lead)) {
                item = trimmed(std::string_view{item}.substr(lead.size()));
                stripped = true;
            }
        }
    }
    return item;
}

/// Where the sentence that starts at `from` ends: a '.' only when a blank or the end follows it, so
/// that "node.js" stays one item.
std::size_t sentence_end(std::string_view text, std::size_t from) {
    for (std::size_t index = from; index < text.size(); ++index) {
        const char character = text[index];
        if (character == ';' || character == '!' || character == '?' || character == '\n') {
            return index;
        }
        if (character == '.' && (index + 1 == text.size() || text[index + 1] == ' ')) {
            return index;
        }
    }
    return text.size();
}

std::string signed_points(int points) { return (points >= 0 ? "+" : "") + std::to_string(points); }

} // namespace

std::vector<std::string> listed_items(std::string_view folded_text, std::size_t after_cue) {
    std::size_t start = after_cue;
    while (start < folded_text.size() && (folded_text[start] == ' ' || folded_text[start] == ':')) {
        ++start;
    }
    std::string list{folded_text.substr(start, sentence_end(folded_text, start) - start)};
    for (const std::string_view joiner : {" and ", " or ", " & ", "/", "&"}) {
        for (auto found = list.find(joiner); found != std::string::npos; found = list.find(joiner, found + 1)) {
            list.replace(found, joiner.size(), ",");
        }
    }
    std::vector<std::string> items;
    std::size_t position = 0;
    while (position <= list.size()) {
        const auto comma = std::min(list.find(',', position), list.size());
        auto item = bare_item(trimmed(std::string_view{list}.substr(position, comma - position)));
        if (!item.empty() && std::find(items.begin(), items.end(), item) == items.end()) {
            items.push_back(std::move(item));
        }
        position = comma + 1;
    }
    return items;
}

Learning assess(std::string_view text, double closest_similarity, const FilterSettings &settings) {
    const std::string message = folded(text);
    const SignalCues &cues = settings.cues;
    const SignalScores &scores = settings.scores;
    Learning learning;
    const auto add = [&](int points, std::string reason) {
        learning.score += points;
        learning.reasons.push_back(std::move(reason) + " (" + signed_points(points) + ")");
    };

    // Novelty: a memory that says much the same costs the learning points. (A restatement closer
    // than the skill's 0.85 is the host's to fold into that memory: remember.duplicate_similarity.)
    if (closest_similarity > settings.novelty_similarity) {
        add(scores.novelty_penalty, "Similar memory exists");
    }

    // Generality: the items listed after "applies to", "works with", ...
    for (const auto &cue : cues.applies_to) {
        if (const auto found = find_phrase(message, cue); found != std::string::npos) {
            learning.applies_to = listed_items(message, found + cue.size());
            break;
        }
    }
    if (learning.applies_to.size() > 2) {
        add(scores.applies_to_many, "Broadly applicable");
    } else if (learning.applies_to.size() == 2) {
        add(scores.applies_to_two, "Applies to multiple contexts");
    }

    // Severity: the strongest level any of whose cues the message holds.
    const std::array<std::pair<const char *, std::pair<const std::vector<std::string> *, int>>, 4> levels{{
        {"critical", {&cues.critical, scores.critical}},
        {"high", {&cues.high, scores.high}},
        {"medium", {&cues.medium, scores.medium}},
        {"low", {&cues.low, scores.low}},
    }};
    for (const auto &[level, cue_points] : levels) {
        if (!first_cue(message, *cue_points.first).empty()) {
            learning.severity = level;
            add(cue_points.second, std::string{"Severity: "} + level);
            break;
        }
    }

    // Source: one per learning, as in the skill; the user saying so outweighs a failure.
    if (!first_cue(message, cues.explicit_feedback).empty()) {
        learning.source = "explicit_user_feedback";
        add(scores.explicit_feedback, "User explicitly shared");
    } else if (!first_cue(message, cues.mistake).empty()) {
        learning.source = "mistake";
        add(scores.mistake, "Learned from failure");
    } else {
        learning.source = "implementation";
    }

    learning.core_topic = first_cue(message, settings.core_topics);
    if (!learning.core_topic.empty()) {
        add(scores.alignment, "Aligns with existing patterns (" + learning.core_topic + ")");
    }

    learning.common = !first_cue(message, cues.common).empty();
    if (learning.common) {
        add(scores.common, "Common scenario");
    }
    learning.about_this_project = !first_cue(message, cues.project).empty();
    return learning;
}

} // namespace starling::sensory_filter
