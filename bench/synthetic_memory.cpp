// SPDX-License-Identifier: Apache-2.0
#include "synthetic_memory.hpp"
#include "vocabulary.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>
#include <string_view>

namespace starling::bench {

namespace {

constexpr std::uint64_t day = 24 * 60 * 60;
constexpr std::uint64_t max_age = 120 * day;
// collie-tiers' defaults: short.max_idle_days, long.review_idle_days, + long.archive_after_review_days.
constexpr std::uint64_t short_idle_limit = 7 * day;
constexpr std::uint64_t review_idle_limit = 60 * day;
constexpr std::uint64_t archive_idle_limit = 90 * day;
constexpr std::uint64_t max_access_count = 12;
constexpr std::uint64_t max_sessions = 3;
constexpr std::uint64_t max_tags = 4;

/// Splits multi-word entries ("pull request") so that word counts are counts of words.
void append_words(std::vector<std::string> &words, std::string_view text) {
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto space = std::min(text.find(' ', start), text.size());
        words.emplace_back(text.substr(start, space - start));
        start = space + 1;
    }
}

std::string join(const std::vector<std::string> &words) {
    std::string text;
    for (const auto &word : words) {
        if (!text.empty()) {
            text += ' ';
        }
        text += word;
    }
    return text;
}

std::string capitalised(std::string text) {
    if (!text.empty()) {
        text.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(text.front())));
    }
    return text;
}

} // namespace

SyntheticMemoryGenerator::SyntheticMemoryGenerator(std::uint64_t seed, std::chrono::sys_seconds now)
    : random_(seed), now_(now) {}

std::uint64_t SyntheticMemoryGenerator::below(std::uint64_t bound) {
    // Reject the top partial block of the 64-bit range so every residue is equally likely.
    constexpr std::uint64_t largest = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t limit = largest - largest % bound;
    std::uint64_t value = random_();
    while (value >= limit) {
        value = random_();
    }
    return value % bound;
}

std::uint64_t SyntheticMemoryGenerator::between(std::uint64_t low, std::uint64_t high) {
    return low + below(high - low + 1);
}

void SyntheticMemoryGenerator::append_noun_phrase(std::vector<std::string> &words) {
    const std::size_t article_at = words.size();
    const bool with_article = !one_in(3);
    if (with_article) {
        append_words(words, vocabulary::articles[below(vocabulary::articles.size())]);
    }
    if (one_in(3)) {
        append_words(words, vocabulary::qualifiers[below(vocabulary::qualifiers.size())]);
    }
    if (one_in(3)) {
        append_words(words, vocabulary::tools[below(vocabulary::tools.size())]);
    } else {
        append_words(words, vocabulary::nouns[below(vocabulary::nouns.size())]);
    }
    if (with_article && words[article_at] == "a" &&
        std::string_view{"aeiou"}.find(words[article_at + 1].front()) != std::string_view::npos) {
        words[article_at] = "an";
    }
}

std::vector<std::string> SyntheticMemoryGenerator::clause(std::size_t target_words) {
    std::vector<std::string> words;
    append_words(words, vocabulary::verbs[below(vocabulary::verbs.size())]);
    append_noun_phrase(words);
    // Whole chunks only, so a clause ends on a noun rather than on "before the".
    for (int attempts = 0; words.size() < target_words && attempts < 8; ++attempts) {
        std::vector<std::string> chunk;
        append_words(chunk, vocabulary::connectors[below(vocabulary::connectors.size())]);
        append_noun_phrase(chunk);
        if (words.size() + chunk.size() <= target_words) {
            words.insert(words.end(), chunk.begin(), chunk.end());
        }
    }
    return words;
}

std::string SyntheticMemoryGenerator::summary() { return capitalised(join(clause(between(4, 12)))); }

std::string SyntheticMemoryGenerator::body() {
    std::string text;
    const auto sentences = between(1, 6);
    for (std::uint64_t sentence = 0; sentence < sentences; ++sentence) {
        if (!text.empty()) {
            text += ' ';
        }
        text += capitalised(join(clause(between(6, 18)))) + '.';
    }
    return text + '\n';
}

std::vector<std::string> SyntheticMemoryGenerator::tags() {
    std::vector<std::string> chosen;
    const auto count = below(max_tags + 1);
    while (chosen.size() < count) {
        std::string tag{one_in(2) ? vocabulary::tools[below(vocabulary::tools.size())]
                                  : vocabulary::nouns[below(vocabulary::nouns.size())]};
        std::replace(tag.begin(), tag.end(), ' ', '-');
        if (std::find(chosen.begin(), chosen.end(), tag) == chosen.end()) {
            chosen.push_back(std::move(tag));
        }
    }
    return chosen;
}

std::string SyntheticMemoryGenerator::session_id() {
    // Shaped like the UUIDs agents use, so ids have realistic length.
    std::ostringstream id;
    id << std::hex;
    for (const int digits : {8, 4, 4, 4, 12}) {
        if (id.tellp() > 0) {
            id << '-';
        }
        for (int digit = 0; digit < digits; ++digit) {
            id << below(16);
        }
    }
    return id.str();
}

SyntheticMemory SyntheticMemoryGenerator::next() {
    SyntheticMemory generated;
    generated.in_project = one_in(3);
    generated.tier = one_in(4) ? core::Tier::long_term : core::Tier::short_term;

    auto &memory = generated.memory;
    memory.type = std::string{vocabulary::types[below(vocabulary::types.size())]};
    memory.summary = summary();
    memory.body = body();
    memory.tags = tags();

    // The store as a consolidation leaves it, so that the first hook to consolidate does not archive
    // half of it and every later run measure a smaller store than the table says: short-term memories
    // used within short.max_idle_days and not yet due for promotion; long-term ones promoted (3+ uses
    // in 2+ sessions) and used within long.review_idle_days, or under review and not yet due.
    std::uint64_t idle_limit = short_idle_limit;
    std::uint64_t idle_floor = 0;
    if (generated.tier == core::Tier::long_term) {
        memory.review = one_in(10);
        idle_floor = memory.review ? review_idle_limit + 1 : 0;
        idle_limit = memory.review ? archive_idle_limit : review_idle_limit;
    }
    const auto age = between(idle_floor, max_age);
    const auto idle = between(idle_floor, std::min(age, idle_limit));
    memory.created = now_ - std::chrono::seconds{static_cast<std::int64_t>(age)};
    memory.last_accessed = now_ - std::chrono::seconds{static_cast<std::int64_t>(idle)};

    std::uint64_t sessions = 0;
    if (generated.tier == core::Tier::long_term) {
        memory.access_count = static_cast<std::uint32_t>(between(3, max_access_count));
        sessions = between(2, max_sessions);
    } else {
        memory.access_count = static_cast<std::uint32_t>(below(max_access_count + 1));
        // A session is recorded only by an access; 3+ uses in 2+ sessions would be promoted.
        sessions = std::min<std::uint64_t>(below(max_sessions + 1), memory.access_count);
        if (memory.access_count >= 3) {
            sessions = std::min<std::uint64_t>(sessions, 1);
        }
    }
    while (memory.sessions.size() < sessions) {
        memory.sessions.push_back(session_id());
    }
    return generated;
}

} // namespace starling::bench
