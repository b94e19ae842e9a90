// SPDX-License-Identifier: Apache-2.0
//
// Porter2, the English stemmer of the Snowball project (M. Porter, "The English (Porter2) stemming
// algorithm", snowballstem.org/algorithms/english/stemmer.html), as the project's current
// english.sbl has it, written over a std::string in place. Against Porter's first algorithm it
// removes suffixes only inside the regions R1 and R2 (what follows the first and second
// vowel-consonant pair), keeps eight prefixes whole ("gener", "univers", ...) and knows a few
// exceptional words, so that "news" is not "new", "generous" not "general", "universe" not
// "university". The current english.sbl also keeps "inning" and "evening", makes "dying" "die",
// does not undouble "added" and takes "-ogist" to "-og", and so does this.
//
// Irregular verb forms and plurals, which no suffix rule reaches, are first taken to their base
// form ("went" → "go", "children" → "child").
//
// Lower-case 'y' is a vowel; a 'y' that acts as a consonant (at the start of a word or after a
// vowel) is marked 'Y' while the word is stemmed and restored at the end.
#include "english_stemmer.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace starling::bm25 {

namespace {

/// Bit c is set for the letter 'a' + c; sets of letters are tested with one shift and one and.
constexpr std::uint32_t letter_bit(char letter) noexcept {
    return letter >= 'a' && letter <= 'z' ? 1U << static_cast<unsigned>(letter - 'a') : 0U;
}

constexpr std::uint32_t letters(std::string_view set) noexcept {
    std::uint32_t bits = 0;
    for (const char letter : set) {
        bits |= letter_bit(letter);
    }
    return bits;
}

/// Whether `letter` is one of `set`, made by letters().
constexpr bool is_one_of(char letter, std::uint32_t set) noexcept { return (letter_bit(letter) & set) != 0; }

/// Looked up rather than compared, as the regions test every letter of every word.
constexpr std::array<bool, 256> vowel_table = [] {
    std::array<bool, 256> table{};
    for (const char vowel : std::string_view{"aeiouy"}) { // 'Y', a y that acts as a consonant, is not
        table[static_cast<unsigned char>(vowel)] = true;
    }
    return table;
}();

constexpr bool is_vowel(char letter) noexcept { return vowel_table[static_cast<unsigned char>(letter)]; }

constexpr std::uint32_t valid_li_endings = letters("cdeghkmnrt");   // what "-li" may follow in step 2
constexpr std::uint32_t undoubled_consonants = letters("bdfgmnprt"); // "hopping" → "hop", not "fizzing"

/// Compared by hand: suffixes are a few letters, and this runs for every token of every memory.
bool ends_with(const std::string &word, std::string_view suffix) noexcept {
    if (word.size() < suffix.size()) {
        return false;
    }
    const auto offset = word.size() - suffix.size();
    for (std::size_t index = 0; index < suffix.size(); ++index) {
        if (word[offset + index] != suffix[index]) {
            return false;
        }
    }
    return true;
}

bool starts_with(const std::string &word, std::string_view prefix) noexcept {
    if (word.size() < prefix.size()) {
        return false;
    }
    for (std::size_t index = 0; index < prefix.size(); ++index) {
        if (word[index] != prefix[index]) {
            return false;
        }
    }
    return true;
}

bool has_vowel_before(const std::string &word, std::size_t end) noexcept {
    return std::any_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(end), is_vowel);
}

/// Porter2's short syllable ending at `end`: consonant, vowel, consonant other than w, x and Y
/// ("hop" in "hoping"), or vowel, consonant at the start of the word ("at"); and "past", so that
/// "pasted" is "paste".
bool ends_with_short_syllable(const std::string &word, std::size_t end) noexcept {
    if (end == 2) {
        return is_vowel(word[0]) && !is_vowel(word[1]);
    }
    if (end < 3) {
        return false;
    }
    if (end >= 4 && word[end - 4] == 'p' && word[end - 3] == 'a' && word[end - 2] == 's' && word[end - 1] == 't') {
        return true;
    }
    const char last = word[end - 1];
    return !is_vowel(word[end - 3]) && is_vowel(word[end - 2]) && !is_vowel(last) && last != 'w' &&
           last != 'x' && last != 'Y';
}

/// Where the region after the first vowel-consonant pair at or after `start` begins.
std::size_t region_after(const std::string &word, std::size_t start) noexcept {
    for (std::size_t index = start + 1; index < word.size(); ++index) {
        if (is_vowel(word[index - 1]) && !is_vowel(word[index])) {
            return index + 1;
        }
    }
    return word.size();
}

struct Regions {
    std::size_t r1 = 0;
    std::size_t r2 = 0;
};

Regions find_regions(const std::string &word) {
    // Whole prefixes whose usual R1 would let later steps join unrelated words: generous and
    // general, communism and community, arsenic and arsenal, paste and past, universe and
    // university, lateral and later, emerge and emergency, organ and organize. No two start alike.
    std::string_view prefix;
    switch (word.front()) {
    case 'a': prefix = "arsen"; break;
    case 'c': prefix = "commun"; break;
    case 'e': prefix = "emerg"; break;
    case 'g': prefix = "gener"; break;
    case 'l': prefix = "later"; break;
    case 'o': prefix = "organ"; break;
    case 'p': prefix = "past"; break;
    case 'u': prefix = "univers"; break;
    default: break;
    }
    Regions regions;
    const bool has_prefix = !prefix.empty() && starts_with(word, prefix);
    regions.r1 = has_prefix ? prefix.size() : region_after(word, 0);
    regions.r2 = region_after(word, regions.r1);
    return regions;
}

enum class Condition : std::uint8_t {
    none,
    in_r2,           ///< the suffix lies in R2, not only R1
    after_l,         ///< "ogi" → "og" only after l ("analogi")
    after_li_ending, ///< "li" goes only after c, d, e, g, h, k, m, n, r or t
    after_s_or_t,    ///< "ion" goes only after s or t
};

struct Rule {
    std::string_view suffix;
    std::string_view replacement;
    Condition condition = Condition::none;
};

/// The rules of one step, ordered by the last letter of their suffix so that a word only meets
/// the few that end as it does, and within a letter longer suffixes first: Porter2 applies, per
/// step, the rule of the longest suffix the word ends with, and nothing else when that rule's
/// conditions fail.
template <std::size_t size>
class SuffixRules {
public:
    constexpr explicit SuffixRules(const Rule (&rules)[size]) {
        std::copy(std::begin(rules), std::end(rules), rules_.begin());
        std::sort(rules_.begin(), rules_.end(), [](const Rule &left, const Rule &right) {
            if (left.suffix.back() != right.suffix.back()) {
                return left.suffix.back() < right.suffix.back();
            }
            return left.suffix.size() != right.suffix.size() ? left.suffix.size() > right.suffix.size()
                                                             : left.suffix < right.suffix;
        });
        std::size_t rule = 0;
        for (std::size_t letter = 0; letter <= 26; ++letter) {
            first_of_letter_[letter] = static_cast<std::uint8_t>(rule);
            while (rule < size && static_cast<std::size_t>(rules_[rule].suffix.back() - 'a') == letter) {
                ++rule;
            }
        }
    }

    [[nodiscard]] const Rule *longest_match(const std::string &word) const noexcept {
        const char last = word.back();
        if (last < 'a' || last > 'z') {
            return nullptr; // 'Y'
        }
        const auto letter = static_cast<std::size_t>(last - 'a');
        for (std::size_t rule = first_of_letter_[letter]; rule < first_of_letter_[letter + 1]; ++rule) {
            if (ends_with(word, rules_[rule].suffix)) {
                return &rules_[rule];
            }
        }
        return nullptr;
    }

private:
    std::array<Rule, size> rules_{};
    std::array<std::uint8_t, 27> first_of_letter_{}; // the rules ending in 'a' + c: [c], up to [c + 1]
};

bool condition_holds(const std::string &word, std::size_t stem_end, const Regions &regions,
                     Condition condition) noexcept {
    const char before = stem_end > 0 ? word[stem_end - 1] : '\0';
    switch (condition) {
    case Condition::none: return true;
    case Condition::in_r2: return stem_end >= regions.r2;
    case Condition::after_l: return before == 'l';
    case Condition::after_li_ending: return is_one_of(before, valid_li_endings);
    case Condition::after_s_or_t: return before == 's' || before == 't';
    }
    return false;
}

/// Replaces the longest suffix of `rules` when it starts at or after `region`.
template <std::size_t size>
void apply_longest(std::string &word, const SuffixRules<size> &rules, std::size_t region, const Regions &regions) {
    constexpr std::size_t shortest_suffix = 2;
    if (word.size() < region + shortest_suffix) {
        return; // no suffix fits in the region: most words, which are short, stop here
    }
    const Rule *rule = rules.longest_match(word);
    if (rule == nullptr) {
        return;
    }
    const auto stem_end = word.size() - rule->suffix.size();
    if (stem_end >= region && condition_holds(word, stem_end, regions, rule->condition)) {
        word.resize(stem_end);
        word += rule->replacement;
    }
}

/// Plurals: "-sses" → "-ss", "-ies" → "-i" (or "-ie" in a word of four letters), a final s after
/// a part with a vowel before its last letter ("gaps", not "gas" or "this"); "-us" and "-ss" stay.
void step_1a(std::string &word) {
    if (ends_with(word, "sses")) {
        word.resize(word.size() - 2);
    } else if (ends_with(word, "ied") || ends_with(word, "ies")) {
        word.resize(word.size() - 3);
        word += word.size() > 1 ? "i" : "ie";
    } else if (word.back() == 's' && !ends_with(word, "us") && !ends_with(word, "ss") &&
               has_vowel_before(word, word.size() - 2)) {
        word.pop_back();
    }
}

/// "-eed(ly)" → "-ee" in R1 (but for proceed, exceed and succeed); "-ed(ly)" and "-ing(ly)" go
/// after a part with a vowel, which then gets its e back ("hoping" → "hope") or loses a doubled
/// consonant ("hopping" → "hop", but "added" → "add"). "dying" is "die"; "inning", "outing",
/// "canning", "herring", "earring" and "evening" stay as they are.
void step_1b(std::string &word, const Regions &regions) {
    static constexpr Rule rules[] = {
        {"eedly", "ee"}, {"ingly", ""}, {"edly", ""}, {"eed", "ee"}, {"ing", ""}, {"ed", ""},
    };
    static constexpr SuffixRules suffixes{rules};
    const Rule *rule = suffixes.longest_match(word);
    if (rule == nullptr) {
        return;
    }
    const auto stem_end = word.size() - rule->suffix.size();
    const std::string_view stem = std::string_view{word}.substr(0, stem_end);
    if (!rule->replacement.empty()) {
        if (stem != "proc" && stem != "exc" && stem != "succ" && stem_end >= regions.r1) {
            word.resize(stem_end);
            word += rule->replacement;
        }
        return;
    }
    if (rule->suffix == "ing") {
        if (stem.size() == 2 && stem[1] == 'y' && !is_vowel(stem[0])) {
            word.resize(1);
            word += "ie"; // dying, lying, tying, vying
            return;
        }
        static constexpr std::string_view kept[] = {"cann", "earr", "even", "herr", "inn", "out"};
        if (std::find(std::begin(kept), std::end(kept), stem) != std::end(kept)) {
            return;
        }
    }
    if (!has_vowel_before(word, stem_end)) {
        return;
    }
    word.resize(stem_end);
    const auto size = word.size();
    if (ends_with(word, "at") || ends_with(word, "bl") || ends_with(word, "iz")) {
        word += 'e';
    } else if (size >= 2 && word[size - 1] == word[size - 2] &&
               is_one_of(word.back(), undoubled_consonants)) {
        const bool vowel_and_double_only = size == 3 && (word[0] == 'a' || word[0] == 'e' || word[0] == 'o');
        if (!vowel_and_double_only) {
            word.pop_back();
        }
    } else if (size == regions.r1 && ends_with_short_syllable(word, size)) {
        word += 'e'; // a short word: "hop" + e
    }
}

/// A final y after a consonant that is not the first letter becomes i ("cry" → "cri", not "by").
void step_1c(std::string &word) {
    const auto size = word.size();
    if (size > 2 && (word.back() == 'y' || word.back() == 'Y') && !is_vowel(word[size - 2])) {
        word.back() = 'i';
    }
}

/// Derivational suffixes in R1 to a shorter form: "-ization" → "-ize", "-fulness" → "-ful", ...
void step_2(std::string &word, const Regions &regions) {
    static constexpr Rule rules[] = {
        {"ational", "ate"}, {"fulness", "ful"}, {"iveness", "ive"}, {"ization", "ize"}, {"ousness", "ous"},
        {"biliti", "ble"},  {"lessli", "less"}, {"tional", "tion"}, {"alism", "al"},    {"aliti", "al"},
        {"ation", "ate"},   {"entli", "ent"},   {"fulli", "ful"},   {"iviti", "ive"},   {"ogist", "og"},
        {"ousli", "ous"},   {"abli", "able"},   {"alli", "al"},     {"anci", "ance"},   {"ator", "ate"},
        {"enci", "ence"},   {"izer", "ize"},    {"bli", "ble"},     {"ogi", "og", Condition::after_l},
        {"li", "", Condition::after_li_ending},
    };
    static constexpr SuffixRules suffixes{rules};
    apply_longest(word, suffixes, regions.r1, regions);
}

void step_3(std::string &word, const Regions &regions) {
    static constexpr Rule rules[] = {
        {"ational", "ate"}, {"tional", "tion"}, {"alize", "al"}, {"ative", "", Condition::in_r2},
        {"icate", "ic"},    {"iciti", "ic"},    {"ical", "ic"},  {"ness", ""},
        {"ful", ""},
    };
    static constexpr SuffixRules suffixes{rules};
    apply_longest(word, suffixes, regions.r1, regions);
}

/// The last derivational suffixes, only in R2: "-ment", "-ence", "-ive", "-ion" after s or t, ...
void step_4(std::string &word, const Regions &regions) {
    static constexpr Rule rules[] = {
        {"ement", ""}, {"ance", ""}, {"able", ""}, {"ence", ""}, {"ible", ""}, {"ment", ""}, {"ant", ""},
        {"ate", ""},   {"ent", ""},  {"ism", ""},  {"iti", ""},  {"ive", ""},  {"ize", ""},  {"ous", ""},
        {"ion", "", Condition::after_s_or_t},      {"al", ""},   {"er", ""},   {"ic", ""},
    };
    static constexpr SuffixRules suffixes{rules};
    apply_longest(word, suffixes, regions.r2, regions);
}

/// A final e in R2, or in R1 after anything but a short syllable ("dance" → "danc" like
/// "dancing", but "hope" stays); a final ll in R2 loses an l.
void step_5(std::string &word, const Regions &regions) {
    const auto stem_end = word.size() - 1;
    if (word.back() == 'e') {
        if (stem_end >= regions.r2 || (stem_end >= regions.r1 && !ends_with_short_syllable(word, stem_end))) {
            word.pop_back();
        }
    } else if (word.back() == 'l' && stem_end >= regions.r2 && word[stem_end - 1] == 'l') {
        word.pop_back();
    }
}

/// A word and what a table makes of it.
struct WordForm {
    std::string_view word;
    std::string_view form;
};

/// A filter for a table of lower-case words: bit n of `lengths[f][l]` is set when some word of the
/// table starts with the letter 'a' + f, ends with 'a' + l and has n letters. Nearly every other
/// word fails it, at less cost than the binary search it saves.
struct WordFilter {
    std::array<std::array<std::uint32_t, 26>, 26> lengths{};

    [[nodiscard]] constexpr bool may_hold(std::string_view word) const noexcept {
        const auto length_bit = word.size() < 32 ? 1U << word.size() : 0U;
        return (lengths[static_cast<std::size_t>(word.front() - 'a')][static_cast<std::size_t>(word.back() - 'a')] &
                length_bit) != 0;
    }
};

template <std::size_t size>
constexpr WordFilter filter_of(const WordForm (&table)[size]) {
    WordFilter filter;
    for (const auto &entry : table) {
        filter.lengths[static_cast<std::size_t>(entry.word.front() - 'a')]
                      [static_cast<std::size_t>(entry.word.back() - 'a')] |= 1U << entry.word.size();
    }
    return filter;
}

template <std::size_t size>
constexpr bool is_sorted_by_word(const WordForm (&table)[size]) {
    return std::is_sorted(std::begin(table), std::end(table),
                          [](const WordForm &left, const WordForm &right) { return left.word < right.word; });
}

/// The form `table` (sorted by word) gives `word`, or an empty view.
template <std::size_t size>
std::string_view form_in(const WordForm (&table)[size], const WordFilter &filter, std::string_view word) noexcept {
    if (!filter.may_hold(word)) {
        return {};
    }
    const auto found = std::lower_bound(std::begin(table), std::end(table), word,
                                        [](const WordForm &entry, std::string_view wanted) {
                                            return entry.word < wanted;
                                        });
    return found != std::end(table) && found->word == word ? found->form : std::string_view{};
}

/// Words Porter2 stems by hand, or leaves alone, before any rule. Sorted by word.
constexpr WordForm exceptional_words[] = {
    {"andes", "andes"}, {"atlas", "atlas"}, {"bias", "bias"},     {"cosmos", "cosmos"}, {"early", "earli"},
    {"gently", "gentl"}, {"howe", "howe"},  {"idly", "idl"},      {"news", "news"},     {"only", "onli"},
    {"singly", "singl"}, {"skies", "sky"},  {"skis", "ski"},      {"sky", "sky"},       {"ugly", "ugli"},
};
static_assert(is_sorted_by_word(exceptional_words));
constexpr WordFilter exceptional_word_filter = filter_of(exceptional_words);

/// Past tenses, participles and plurals that no suffix rule reaches, each to its base form:
/// questions ask "When did she go?" of a turn that says "I went". Forms that are as often another
/// word stay out ("left", "rose", "ground", "bound", "wound", "lay", "stuck", "tore", "lit", "bit"),
/// and so do the forms of be, do and have, which are stop words. Sorted by word.
constexpr WordForm irregular_forms[] = {
    {"arisen", "arise"}, {"arose", "arise"}, {"ate", "eat"}, {"awoke", "awake"}, {"awoken", "awake"},
    {"beaten", "beat"}, {"became", "become"}, {"began", "begin"}, {"begun", "begin"}, {"bent", "bend"},
    {"bitten", "bite"}, {"bled", "bleed"}, {"blew", "blow"}, {"blown", "blow"}, {"bought", "buy"},
    {"bred", "breed"}, {"broke", "break"}, {"broken", "break"}, {"brought", "bring"}, {"built", "build"},
    {"burnt", "burn"}, {"came", "come"}, {"caught", "catch"}, {"children", "child"}, {"chose", "choose"},
    {"chosen", "choose"}, {"crept", "creep"}, {"dealt", "deal"}, {"drank", "drink"}, {"drawn", "draw"},
    {"dreamt", "dream"}, {"drew", "draw"}, {"driven", "drive"}, {"drove", "drive"}, {"drunk", "drink"},
    {"dug", "dig"}, {"eaten", "eat"}, {"fallen", "fall"}, {"fed", "feed"}, {"feet", "foot"}, {"fell", "fall"},
    {"felt", "feel"}, {"fled", "flee"}, {"flew", "fly"}, {"flown", "fly"}, {"forbade", "forbid"},
    {"forbidden", "forbid"}, {"forgave", "forgive"}, {"forgiven", "forgive"}, {"forgot", "forget"},
    {"forgotten", "forget"}, {"fought", "fight"}, {"found", "find"}, {"froze", "freeze"}, {"frozen", "freeze"},
    {"gave", "give"}, {"geese", "goose"}, {"given", "give"}, {"goes", "go"}, {"gone", "go"}, {"got", "get"},
    {"gotten", "get"}, {"grew", "grow"}, {"grown", "grow"}, {"heard", "hear"}, {"held", "hold"},
    {"hid", "hide"}, {"hidden", "hide"}, {"hung", "hang"}, {"kept", "keep"}, {"knelt", "kneel"},
    {"knew", "know"}, {"known", "know"}, {"laid", "lay"}, {"leapt", "leap"}, {"learnt", "learn"},
    {"led", "lead"}, {"lent", "lend"}, {"lost", "lose"}, {"made", "make"}, {"meant", "mean"}, {"men", "man"},
    {"met", "meet"}, {"mice", "mouse"}, {"paid", "pay"}, {"ran", "run"}, {"rang", "ring"}, {"ridden", "ride"},
    {"risen", "rise"}, {"rode", "ride"}, {"said", "say"}, {"sang", "sing"}, {"sank", "sink"}, {"sat", "sit"},
    {"saw", "see"}, {"seen", "see"}, {"sent", "send"}, {"shaken", "shake"}, {"shone", "shine"},
    {"shook", "shake"}, {"shot", "shoot"}, {"shown", "show"}, {"slept", "sleep"}, {"slid", "slide"},
    {"sold", "sell"}, {"sought", "seek"}, {"spent", "spend"}, {"spoke", "speak"}, {"spoken", "speak"},
    {"sprang", "spring"}, {"sprung", "spring"}, {"spun", "spin"}, {"stole", "steal"}, {"stolen", "steal"},
    {"stood", "stand"}, {"struck", "strike"}, {"stung", "sting"}, {"sung", "sing"}, {"sunk", "sink"},
    {"swam", "swim"}, {"swept", "sweep"}, {"swore", "swear"}, {"sworn", "swear"}, {"swum", "swim"},
    {"swung", "swing"}, {"taken", "take"}, {"taught", "teach"}, {"teeth", "tooth"}, {"thought", "think"},
    {"threw", "throw"}, {"thrown", "throw"}, {"told", "tell"}, {"took", "take"}, {"understood", "understand"},
    {"went", "go"}, {"wept", "weep"}, {"woke", "wake"}, {"woken", "wake"}, {"women", "woman"}, {"won", "win"},
    {"wore", "wear"}, {"worn", "wear"}, {"written", "write"}, {"wrote", "write"},
};
static_assert(is_sorted_by_word(irregular_forms));
constexpr WordFilter irregular_form_filter = filter_of(irregular_forms);

} // namespace

void stem_english(std::string &word) {
    // Porter2 leaves words of one or two letters alone.
    if (word.size() <= 2 ||
        !std::all_of(word.begin(), word.end(), [](char letter) { return letter >= 'a' && letter <= 'z'; })) {
        return;
    }
    if (const auto base = form_in(irregular_forms, irregular_form_filter, word); !base.empty()) {
        word = base; // and on: "taken" → "take", which the rules below treat as they treat "taking"
        if (word.size() <= 2) {
            return; // "went" → "go"
        }
    } else if (const auto stem = form_in(exceptional_words, exceptional_word_filter, word); !stem.empty()) {
        word = stem;
        return;
    }
    bool marked_y = false;
    for (std::size_t index = 0; index < word.size(); ++index) {
        if (word[index] == 'y' && (index == 0 || is_vowel(word[index - 1]))) {
            word[index] = 'Y';
            marked_y = true;
        }
    }
    // The regions are found once, on the whole word, as Porter2 defines them.
    const Regions regions = find_regions(word);
    step_1a(word);
    step_1b(word, regions);
    step_1c(word);
    step_2(word, regions);
    step_3(word, regions);
    step_4(word, regions);
    step_5(word, regions);
    if (marked_y) {
        std::replace(word.begin(), word.end(), 'Y', 'y');
    }
}

} // namespace starling::bm25
