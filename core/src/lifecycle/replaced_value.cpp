// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/replaced_value.hpp>

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/clauses.hpp>
#include <starling/sdk/text/non_letters.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>
#include <starling/sdk/text/words.hpp>

#include <algorithm>
#include <array>
#include <vector>

namespace starling::core {
namespace {

constexpr std::size_t kMaxValueWords = 3;
/// The new value and the words said with it ("now", "inzwischen"), wherever they are.
constexpr std::size_t kMaxNewWords = 4;
constexpr auto kUtf8Rules = sdk::text::Utf8Rules::permissive;

bool is_separator(char32_t code_point) noexcept {
    using namespace sdk::text;
    return is_latin1_non_letter(code_point) || is_general_punctuation_or_symbol(code_point) ||
           is_cjk_punctuation(code_point) || is_halfwidth_or_fullwidth_non_letter(code_point) ||
           is_emoji_or_pictograph(code_point);
}

/// Han characters are words of their own; the other unspaced scripts stay inside words.
constexpr sdk::text::CharacterClassRules kWordCharacters{&sdk::text::is_bmp_han, &is_separator};

/// One character between two runs of word characters that joins them into one name.
bool joins_a_name(std::string_view gap) { return gap == "-" || gap == "." || gap == "_"; }

std::string folded(std::string_view run) {
    std::string word;
    sdk::text::for_each_code_point(run, kUtf8Rules, [&](sdk::text::DecodedCodePoint decoded, std::string_view) {
        sdk::text::append_utf8(word, sdk::text::to_lower_latin1(decoded.code_point));
    });
    return word;
}

bool has_digit(std::string_view word) {
    return std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string without_digits(std::string_view word) {
    std::string shape;
    std::copy_if(word.begin(), word.end(), std::back_inserter(shape), [](char c) { return c < '0' || c > '9'; });
    return shape;
}

/// The letters of a word that has digits, without the digits and the joints they leave at its end
/// ("ranker-v2" → "ranker-v", "db-staging-1" → "db-staging"), when they are enough to name
/// something on their own; empty when not ("8080", "v2", "3.10").
std::string name_around(std::string_view numbered) {
    constexpr std::size_t kMinNameLetters = 3;
    std::string name = without_digits(numbered);
    while (!name.empty() && joins_a_name(std::string_view{name}.substr(name.size() - 1))) {
        name.pop_back();
    }
    const auto letters = std::count_if(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
    });
    return static_cast<std::size_t>(letters) >= kMinNameLetters ? name : std::string{};
}

/// The words alone, without where they are written.
std::vector<std::string> words_of(std::vector<WrittenWord> written) {
    std::vector<std::string> words;
    words.reserve(written.size());
    for (auto &word : written) {
        words.push_back(std::move(word.word));
    }
    return words;
}

} // namespace

std::vector<WrittenWord> written_words(std::string_view text) {
    std::vector<WrittenWord> words;
    std::size_t previous_end = std::string_view::npos; // where the last word run ended, to join names
    sdk::text::for_each_run(text, kUtf8Rules, kWordCharacters, [&](sdk::text::CharacterClass kind, std::string_view run) {
        const auto run_start = static_cast<std::size_t>(run.data() - text.data());
        if (kind == sdk::text::CharacterClass::unspaced) {
            sdk::text::for_each_code_point(run, kUtf8Rules, [&](sdk::text::DecodedCodePoint, std::string_view character) {
                const auto at = static_cast<std::size_t>(character.data() - text.data());
                words.push_back({std::string{character}, at, at + character.size()});
            });
            previous_end = std::string_view::npos;
            return;
        }
        const auto gap = previous_end == std::string_view::npos ? std::string_view{}
                                                                  : text.substr(previous_end, run_start - previous_end);
        if (joins_a_name(gap)) {
            words.back().word.append(gap).append(folded(run));
            words.back().end = run_start + run.size();
        } else {
            words.push_back({folded(run), run_start, run_start + run.size()});
        }
        previous_end = run_start + run.size();
    });
    return words;
}

std::vector<std::string> statement_words(std::string_view text) { return words_of(written_words(text)); }

std::optional<ReplacedValue> replaced_value(std::string_view older, std::string_view newer) {
    return replaced_value(statement_words(older), statement_words(newer));
}

namespace {

/// Where a newer statement puts other words in one place of an older one (replaced_value's rules).
struct OnePlaceChange {
    std::vector<std::size_t> old_only; ///< the older's own words: one run, at most kMaxValueWords
    std::vector<std::size_t> new_only; ///< the newer's own words, anywhere, at most kMaxNewWords
    /// Of new_only, those written where the older's run is, between the same two common words.
    std::vector<std::size_t> in_its_place;
    std::size_t frame = 0; ///< the words both say, in order
};

std::optional<OnePlaceChange> one_place_change(const std::vector<std::string> &old_words,
                                               const std::vector<std::string> &new_words) {
    if (old_words.empty() || new_words.empty() || old_words == new_words) {
        return std::nullopt;
    }
    // The words both say, in order (a longest common subsequence), and which of each are their own.
    const std::size_t rows = old_words.size();
    const std::size_t columns = new_words.size();
    std::vector<std::size_t> common((rows + 1) * (columns + 1), 0);
    const auto at = [&](std::size_t row, std::size_t column) -> std::size_t & {
        return common[row * (columns + 1) + column];
    };
    for (std::size_t row = rows; row-- > 0;) {
        for (std::size_t column = columns; column-- > 0;) {
            at(row, column) = old_words[row] == new_words[column] ? at(row + 1, column + 1) + 1
                                                                  : std::max(at(row + 1, column), at(row, column + 1));
        }
    }
    OnePlaceChange change;
    // How many common words come before each word of each side's own: words between the same two
    // common words stand in one place.
    std::vector<std::size_t> old_after;
    std::vector<std::size_t> new_after;
    std::size_t matched = 0;
    for (std::size_t row = 0, column = 0; row < rows || column < columns;) {
        if (row < rows && column < columns && old_words[row] == new_words[column]) {
            ++row;
            ++column;
            ++matched;
        } else if (column == columns || (row < rows && at(row + 1, column) >= at(row, column + 1))) {
            change.old_only.push_back(row++);
            old_after.push_back(matched);
        } else {
            change.new_only.push_back(column++);
            new_after.push_back(matched);
        }
    }
    change.frame = at(0, 0);
    const auto &old_only = change.old_only;
    const auto &new_only = change.new_only;
    // One place of the older statement changed ("8080" → "9090 now", "auf Port 3000" → "inzwischen
    // auf Port 4000"), framed by at least half of the longer one: two changed places are another
    // subject with another value ("Redis … 6379" → "Postgres … 5432").
    const bool one_place = !old_only.empty() && old_only.back() - old_only.front() + 1 == old_only.size();
    if (!one_place || old_only.size() > kMaxValueWords || new_only.empty() || new_only.size() > kMaxNewWords ||
        2 * change.frame < std::max(rows, columns)) {
        return std::nullopt;
    }
    for (const auto old_index : old_only) {
        for (const auto new_index : new_only) {
            if (old_words[old_index] == new_words[new_index]) {
                return std::nullopt; // "never tabs" for "tabs": the same value, said otherwise
            }
        }
    }
    for (std::size_t index = 0; index < new_only.size(); ++index) {
        if (new_after[index] == old_after.front()) {
            change.in_its_place.push_back(new_only[index]);
        }
    }
    return change;
}

} // namespace

std::optional<ReplacedValue> replaced_value(const std::vector<std::string> &old_words,
                                            const std::vector<std::string> &new_words) {
    const auto change = one_place_change(old_words, new_words);
    if (!change) {
        return std::nullopt;
    }
    const auto &old_only = change->old_only;
    const auto &new_only = change->new_only;
    ReplacedValue replaced;
    for (const auto index : old_only) {
        replaced.older += (replaced.older.empty() ? "" : " ") + old_words[index];
    }
    for (const auto index : new_only) {
        replaced.newer += (replaced.newer.empty() ? "" : " ") + new_words[index];
    }
    replaced.frame_words = change->frame;
    const auto numbered = [](std::size_t index, const std::vector<std::string> &words) {
        return has_digit(words[index]);
    };
    const auto numbered_old = std::count_if(old_only.begin(), old_only.end(),
                                            [&](std::size_t index) { return numbered(index, old_words); });
    if (numbered_old == 1) {
        const auto old_number = *std::find_if(old_only.begin(), old_only.end(),
                                              [&](std::size_t index) { return numbered(index, old_words); });
        const auto shape = without_digits(old_words[old_number]);
        replaced.differ_in_digits = std::any_of(new_only.begin(), new_only.end(), [&](std::size_t index) {
            return numbered(index, new_words) && without_digits(new_words[index]) == shape;
        });
    }
    return replaced;
}

std::optional<std::string> renumbered_name(std::string_view older, std::string_view newer) {
    return renumbered_name(statement_words(older), statement_words(newer));
}

std::optional<std::string> renumbered_name(const std::vector<std::string> &old_words,
                                           const std::vector<std::string> &new_words) {
    const auto numbers = own_numbers(old_words, new_words);
    if (numbers.older.size() != 1 || numbers.newer.size() != 1 ||
        without_digits(numbers.older.front()) != without_digits(numbers.newer.front())) {
        return std::nullopt;
    }
    // A number inside a name ("ranker-v2" → "ranker-v3", "db-staging-1" → "db-staging-2") is that
    // name renumbered; a bare number ("8080", "v2") needs the word before it.
    if (const auto name = name_around(numbers.older.front()); !name.empty()) {
        return name;
    }
    // The words right before each number: a name both give it.
    const auto names_before = [](const std::vector<std::string> &words, const std::string &number) {
        std::vector<std::string> names;
        for (std::size_t index = 1; index < words.size(); ++index) {
            if (words[index] == number && !has_digit(words[index - 1])) {
                names.push_back(words[index - 1]);
            }
        }
        return names;
    };
    const auto old_names = names_before(old_words, numbers.older.front());
    const auto new_names = names_before(new_words, numbers.newer.front());
    for (const auto &name : old_names) {
        if (std::find(new_names.begin(), new_names.end(), name) != new_names.end()) {
            return name;
        }
    }
    return std::nullopt;
}

OwnNumbers own_numbers(std::string_view older, std::string_view newer) {
    return own_numbers(statement_words(older), statement_words(newer));
}

OwnNumbers own_numbers(const std::vector<std::string> &old_words, const std::vector<std::string> &new_words) {
    const auto numbers_only_in = [](const std::vector<std::string> &words, const std::vector<std::string> &other) {
        std::vector<std::string> numbers;
        for (const auto &word : words) {
            if (has_digit(word) && std::find(other.begin(), other.end(), word) == other.end() &&
                std::find(numbers.begin(), numbers.end(), word) == numbers.end()) {
                numbers.push_back(word);
            }
        }
        return numbers;
    };
    return OwnNumbers{numbers_only_in(old_words, new_words), numbers_only_in(new_words, old_words)};
}

bool says_much_more(const std::vector<std::string> &older, const std::vector<std::string> &newer) {
    constexpr std::size_t kMinOwnWords = 6;
    constexpr std::size_t kMinLatinLetters = 3;
    const auto counts = [](const std::string &word) {
        return static_cast<unsigned char>(word.front()) >= 0x80 || word.size() >= kMinLatinLetters;
    };
    std::vector<std::string> distinct;
    for (const auto &word : older) {
        if (!word.empty() && counts(word) && std::find(distinct.begin(), distinct.end(), word) == distinct.end()) {
            distinct.push_back(word);
        }
    }
    const auto shared = std::count_if(distinct.begin(), distinct.end(), [&](const std::string &word) {
        return std::find(newer.begin(), newer.end(), word) != newer.end();
    });
    const auto own = distinct.size() - static_cast<std::size_t>(shared);
    return own >= kMinOwnWords && 3 * static_cast<std::size_t>(shared) <= distinct.size();
}

namespace {

/// The words that join two clauses where no punctuation does ("runs on Python 3.10 and uses Celery"),
/// with the blanks around them; Chinese writes them without.
constexpr std::array<std::string_view, 4> kClauseJoints{" and ", " und ", "并且", "而且"};

/// `clause` cut at each word that joins two clauses, those words left out.
std::vector<std::string_view> joined_parts(std::string_view clause) {
    const std::string lowered = sdk::text::lower_ascii(clause); // byte for byte, so places carry over
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t at = 0; at < lowered.size(); ++at) {
        for (const std::string_view joint : kClauseJoints) {
            if (std::string_view{lowered}.substr(at, joint.size()) == joint) {
                parts.push_back(clause.substr(start, at - start));
                start = at + joint.size();
                at = start - 1;
                break;
            }
        }
    }
    parts.push_back(clause.substr(start));
    return parts;
}

/// The words of each clause of `text` that has any, where `text` writes them: clauses as
/// sdk::text::clauses_of ends them, and cut where a joining word joins two.
std::vector<std::vector<WrittenWord>> words_by_clause(std::string_view text) {
    std::vector<std::string_view> parts;
    for (const std::string_view clause : sdk::text::clauses_of(text)) {
        const auto joined = joined_parts(clause);
        parts.insert(parts.end(), joined.begin(), joined.end());
    }
    std::vector<std::vector<WrittenWord>> clauses;
    for (const std::string_view clause : parts) {
        auto words = written_words(clause);
        const auto offset = static_cast<std::size_t>(clause.data() - text.data());
        for (auto &word : words) {
            word.begin += offset;
            word.end += offset;
        }
        if (!words.empty()) {
            clauses.push_back(std::move(words));
        }
    }
    return clauses;
}

/// Where `words` hold `run`, word by word in a row.
std::vector<std::size_t> places_of(const std::vector<std::string> &words, const std::vector<std::string> &run) {
    std::vector<std::size_t> places;
    for (std::size_t at = 0; !run.empty() && at + run.size() <= words.size(); ++at) {
        if (std::equal(run.begin(), run.end(), words.begin() + static_cast<std::ptrdiff_t>(at))) {
            places.push_back(at);
        }
    }
    return places;
}

/// The words [first, last] of a statement, indices into its words.
struct WordRun {
    std::size_t first = 0;
    std::size_t last = 0;
};

struct ValueInClause {
    WordRun older; ///< in the clause
    WordRun newer; ///< in the newer statement
};

/// Words a statement of a changed value says besides its subject and the value: function words
/// and those that say that something changed or was said wrong ("now", "moved", "misspoke",
/// "jetzt", "inzwischen"), English and German.
constexpr std::array<std::string_view, 92> kWordsOfAChange{
    "a", "actually", "am", "an", "angehoben", "are", "as", "at", "auf", "bumped", "by", "changed", "correction",
    "days", "decreased", "dem", "den", "der", "des", "die", "das", "doch", "downgraded", "earlier", "eigentlich",
    "ein", "eine", "einem", "einen", "einer", "erhöht", "for", "from", "geändert", "gesenkt", "gewechselt", "hat",
    "here", "i", "in", "increased", "instead", "inzwischen", "is", "ist", "it", "its", "jetzt", "just",
    "korrektur", "lowered", "misspoke", "mittlerweile", "moved", "now", "nun", "of", "on", "our", "raised",
    "re", "reduced", "s", "set", "sind", "so", "sorry", "switched", "that", "the", "these", "this", "to",
    "umgestellt", "umgezogen", "unser", "unsere", "updated", "upgraded", "verschoben", "ve", "war", "was", "we",
    "were", "wir", "wird", "wrong", "wurde", "zu", "zum", "zur"};

/// The Han characters of the same: "现在", "改到", "改成", "已经", "其实", "我们", "了" …
constexpr std::array<std::string_view, 26> kHanOfAChange{"为", "了", "其", "到", "前", "升", "在", "实", "已", "我", "成", "换", "改",
                                  "新", "是", "更", "现", "的", "经", "说", "调", "错", "们", "之", "从", "整"};

bool tells_only_of_a_change(const std::string &word) {
    return std::find(kHanOfAChange.begin(), kHanOfAChange.end(), word) != kHanOfAChange.end() ||
           std::find(kWordsOfAChange.begin(), kWordsOfAChange.end(), word) != kWordsOfAChange.end();
}

/// A Latin word without the one English or German ending it has, if what is left has three
/// letters or more ("pinned" → "pinn", "flags" → "flag", "Minuten" → "minut").
std::string_view without_ending(std::string_view word) {
    constexpr std::size_t kMinStem = 3;
    for (const std::string_view ending : {"ing", "ed", "es", "en", "er", "s", "e", "n"}) {
        if (word.size() >= kMinStem + ending.size() && word.ends_with(ending)) {
            return word.substr(0, word.size() - ending.size());
        }
    }
    return word;
}

/// Whether two words are one word inflected: the same, or, without their endings, one the other
/// with at most one letter more ("pins" and "pinned", "flag" and "flags"; not "mail" and "main").
bool inflected_alike(std::string_view left, std::string_view right) {
    if (left == right) {
        return true;
    }
    left = without_ending(left);
    right = without_ending(right);
    if (left.size() > right.size()) {
        std::swap(left, right);
    }
    return left.size() >= 3 && right.size() - left.size() <= 1 && right.starts_with(left);
}

/// Whether `newer` says nothing but what `clause` says, numbers, and words of a change: then it is
/// about the clause's subject and nothing else ("Actuator moved to port 9091." of "the actuator
/// endpoints are on port 8081"), not about another one with a number of its own ("The mail
/// service runs on port 8025." of "the auth service runs on port 8081").
bool says_nothing_else(const std::vector<std::string> &clause, const std::vector<std::string> &newer) {
    return std::all_of(newer.begin(), newer.end(), [&](const std::string &word) {
        return has_digit(word) || tells_only_of_a_change(word) ||
               std::any_of(clause.begin(), clause.end(),
                           [&](const std::string &said) { return inflected_alike(said, word); });
    });
}

/// Whether the one number each of `older` and `newer` says alone is of one shape and counts one
/// unit, the word right after it in both ("bei 20 Minuten", "auf 45 Minuten"; "30 秒", "60 秒").
bool counts_one_unit(const std::vector<std::string> &older, const std::vector<std::string> &newer) {
    const auto numbers = own_numbers(older, newer);
    if (numbers.older.size() != 1 || numbers.newer.size() != 1 ||
        without_digits(numbers.older.front()) != without_digits(numbers.newer.front())) {
        return false;
    }
    const auto unit_after = [](const std::vector<std::string> &words, const std::string &number) {
        const auto at = std::find(words.begin(), words.end(), number);
        return at + 1 < words.end() && !has_digit(*(at + 1)) ? *(at + 1) : std::string{};
    };
    const auto unit = unit_after(older, numbers.older.front());
    return !unit.empty() && unit == unit_after(newer, numbers.newer.front());
}

/// The value `newer` gives where `clause` gives another: the one place the two say differently
/// around the same words (replaced_value's rules), narrowed to the number when that place renumbers
/// a name ("is stg-eu-2 now" for "is stg-eu-1"). A name with its number inside names what it is on
/// its own, said in any words around it ("Der Host ist pg-stage-3." for "…, die Datenbank liegt auf
/// dem Host pg-stage-1"); a bare number needs the same words around it, or a `newer` that says
/// nothing the clause does not ("We bumped the pinned toolchain to 1.78." for "we pin the toolchain
/// to 1.74 in rust-toolchain.toml"), the number given to one name or counting one unit.
std::optional<ValueInClause> value_in_clause(const std::vector<std::string> &clause,
                                             const std::vector<std::string> &newer, ClauseSubject subject) {
    if (subject == ClauseSubject::said_alone && !says_nothing_else(clause, newer)) {
        return std::nullopt;
    }
    const auto change = one_place_change(clause, newer);
    const auto numbers = own_numbers(clause, newer);
    const bool renumbered = renumbered_name(clause, newer).has_value() || counts_one_unit(clause, newer);
    if (!change && !(renumbered && (!name_around(numbers.older.front()).empty() || says_nothing_else(clause, newer)))) {
        return std::nullopt;
    }
    if (renumbered) {
        const auto index_of = [](const std::vector<std::string> &words, const std::string &word) {
            return static_cast<std::size_t>(std::find(words.begin(), words.end(), word) - words.begin());
        };
        const auto older_at = index_of(clause, numbers.older.front());
        const auto newer_at = index_of(newer, numbers.newer.front());
        return ValueInClause{{older_at, older_at}, {newer_at, newer_at}};
    }
    const auto &in_its_place = change->in_its_place;
    if (in_its_place.empty() || in_its_place.back() - in_its_place.front() + 1 != in_its_place.size()) {
        return std::nullopt;
    }
    return ValueInClause{{change->old_only.front(), change->old_only.back()},
                         {in_its_place.front(), in_its_place.back()}};
}

std::string_view written(std::string_view text, const std::vector<WrittenWord> &words, WordRun run) {
    return text.substr(words[run.first].begin, words[run.last].end - words[run.first].begin);
}

/// A word that says something of its own: not a number, not a short function word ("is", "in",
/// "an"); each Han character is one.
bool says_something(const std::string &word) {
    constexpr std::size_t kMinBytes = 3;
    return word.size() >= kMinBytes && !has_digit(word);
}

} // namespace

std::optional<CorrectedValue> corrected_value(std::string_view older, std::string_view newer, ClauseSubject subject) {
    const auto clauses = words_by_clause(older);
    if (clauses.size() < 2) {
        return std::nullopt;
    }
    const auto new_written = written_words(newer);
    const auto new_words = words_of(new_written);
    std::optional<CorrectedValue> corrected;
    for (const auto &clause : clauses) {
        const auto value = value_in_clause(words_of(clause), new_words, subject);
        if (!value) {
            continue;
        }
        if (corrected) {
            return std::nullopt; // two clauses it could correct: which one, it does not say
        }
        corrected = CorrectedValue{std::string{written(older, clause, value->older)},
                                   std::string{written(newer, new_written, value->newer)}};
    }
    if (!corrected) {
        return std::nullopt;
    }
    const auto older_words = statement_words(older);
    // A value the memory says already, elsewhere, is no new one: "We format with Ruff" does not
    // make "We lint with ruff, and format with Black." lint nothing but format twice. Written
    // twice, the older value may stay right in the other place.
    if (!places_of(older_words, statement_words(corrected->newer)).empty() ||
        places_of(older_words, statement_words(corrected->older)).size() != 1) {
        return std::nullopt;
    }
    return corrected;
}

std::optional<CorrectedValue> corrected_number(std::string_view older, std::string_view newer) {
    if (words_by_clause(older).size() != 1) {
        return std::nullopt;
    }
    const auto old_written = written_words(older);
    const auto old_words = words_of(old_written);
    const auto new_written = written_words(newer);
    const auto new_words = words_of(new_written);
    const auto numbers = own_numbers(old_words, new_words);
    if (numbers.newer.size() != 1 || numbers.older.size() < 2) {
        return std::nullopt;
    }
    const std::string &given = numbers.newer.front();
    const auto index_of = [](const std::vector<std::string> &words, const std::string &word) {
        return static_cast<std::size_t>(std::find(words.begin(), words.end(), word) - words.begin());
    };
    const std::size_t given_at = index_of(new_words, given);
    const auto word_before = [](const std::vector<std::string> &words, std::size_t at) {
        return at > 0 && !has_digit(words[at - 1]) ? words[at - 1] : std::string{};
    };
    std::optional<std::size_t> changed_at;
    for (const auto &number : numbers.older) {
        if (without_digits(number) != without_digits(given)) {
            continue;
        }
        const std::size_t at = index_of(old_words, number);
        const auto name = name_around(number);
        const bool same_name = !name.empty() ? name == name_around(given)
                                             : !word_before(old_words, at).empty() &&
                                                   word_before(old_words, at) == word_before(new_words, given_at);
        if (!same_name) {
            continue;
        }
        if (changed_at) {
            return std::nullopt; // two numbers it could change: which one, it does not say
        }
        changed_at = at;
    }
    if (!changed_at || places_of(old_words, {old_words[*changed_at]}).size() != 1) {
        return std::nullopt;
    }
    return CorrectedValue{std::string{written(older, old_written, {*changed_at, *changed_at})},
                          std::string{written(newer, new_written, {given_at, given_at})}};
}

namespace {

/// A word's form: a run of letters is "a", a run of digits "9", each joint as written
/// ("us-east-1" → "a-a-9", "1.21" → "9.9", "pnpm" → "a"). Two values of one thing share it.
std::string form_of(std::string_view word) {
    std::string form;
    for (const char character : word) {
        if (joins_a_name(std::string_view{&character, 1})) {
            form.push_back(character);
            continue;
        }
        const char kind = character >= '0' && character <= '9' ? '9' : 'a';
        if (form.empty() || form.back() != kind) {
            form.push_back(kind);
        }
    }
    return form;
}

bool is_han_word(std::string_view word) {
    return !word.empty() &&
           sdk::text::is_bmp_han(sdk::text::decode_utf8(word, 0, kUtf8Rules).code_point);
}

bool opens_with_capital(std::string_view written) { return !written.empty() && written.front() >= 'A' && written.front() <= 'Z'; }

} // namespace

std::optional<CorrectedValue> corrected_named_value(std::string_view older, std::string_view newer,
                                                    const std::vector<std::string> &retired) {
    if (words_by_clause(older).size() < 2) {
        return std::nullopt;
    }
    const auto old_written = written_words(older);
    const auto old_words = words_of(old_written);
    // The one retired name the older writes once: the value no longer so.
    std::optional<std::size_t> old_at;
    std::vector<std::string> retired_words;
    for (const auto &term : retired) {
        const auto run = statement_words(term);
        if (run.size() != 1 || is_han_word(run.front())) {
            continue;
        }
        retired_words.push_back(run.front());
        const auto places = places_of(old_words, run);
        if (places.size() != 1) {
            continue;
        }
        if (old_at && old_words[*old_at] != run.front()) {
            return std::nullopt; // two values it names as no longer so: which one this replaces, it does not say
        }
        old_at = places.front();
    }
    if (!old_at) {
        return std::nullopt;
    }
    // In its place, the one word of the newer of the same form that the older does not say.
    const std::string form = form_of(old_words[*old_at]);
    const auto new_written = written_words(newer);
    const bool among_han = std::any_of(new_written.begin(), new_written.end(),
                                       [](const WrittenWord &word) { return is_han_word(word.word); });
    const WrittenWord *replacement = nullptr;
    for (std::size_t index = 0; index < new_written.size(); ++index) {
        const auto &word = new_written[index];
        const auto said_before = [&](const std::vector<std::string> &words) {
            return std::find(words.begin(), words.end(), word.word) != words.end();
        };
        if (is_han_word(word.word) || said_before(old_words) || said_before(retired_words) || form_of(word.word) != form) {
            continue;
        }
        const std::string_view spelled = newer.substr(word.begin, word.end - word.begin);
        if (form == "a" && !among_han && (index == 0 || !opens_with_capital(spelled))) {
            continue; // a word of letters alone names a value only when written as a name
        }
        if (replacement != nullptr && replacement->word != word.word) {
            return std::nullopt; // two words it could be
        }
        replacement = &word;
    }
    if (replacement == nullptr) {
        return std::nullopt;
    }
    const auto &replaced = old_written[*old_at];
    return CorrectedValue{std::string{older.substr(replaced.begin, replaced.end - replaced.begin)},
                          std::string{newer.substr(replacement->begin, replacement->end - replacement->begin)}};
}

std::size_t times_written(std::string_view text, std::string_view words) {
    return places_of(statement_words(text), statement_words(words)).size();
}

std::optional<std::string> with_value_corrected(std::string_view text, const CorrectedValue &value) {
    const auto words = written_words(text);
    const auto run = statement_words(value.older);
    const auto places = places_of(words_of(words), run);
    if (places.size() != 1) {
        return std::nullopt;
    }
    const auto begin = words[places.front()].begin;
    const auto end = words[places.front() + run.size() - 1].end;
    return std::string{text.substr(0, begin)} + value.newer + std::string{text.substr(end)};
}

bool leaves_a_clause_untouched(std::string_view older, std::string_view newer) {
    constexpr std::size_t kMinOwnWords = 2;
    const auto clauses = words_by_clause(older);
    if (clauses.size() < 2) {
        return false;
    }
    const auto new_words = statement_words(newer);
    return std::any_of(clauses.begin(), clauses.end(), [&](const std::vector<WrittenWord> &clause) {
        const auto own = std::count_if(clause.begin(), clause.end(), [&](const WrittenWord &word) {
            return says_something(word.word) && std::find(new_words.begin(), new_words.end(), word.word) == new_words.end();
        });
        return static_cast<std::size_t>(own) >= kMinOwnWords;
    });
}

std::string listed(const std::vector<std::string> &words) {
    std::string text;
    for (const auto &word : words) {
        text += (text.empty() ? "" : ", ") + word;
    }
    return text;
}

} // namespace starling::core
