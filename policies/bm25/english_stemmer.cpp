// SPDX-License-Identifier: Apache-2.0
//
// Porter, "An algorithm for suffix stripping" (1980), steps 1a, 1b and 1c, written over a
// std::string in place. The measure m of a stem counts its vowel-consonant sequences.
#include "english_stemmer.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace starling::bm25 {

namespace {

bool is_consonant(const std::string &word, std::size_t index) {
    switch (word[index]) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u': return false;
    case 'y': return index == 0 || !is_consonant(word, index - 1);
    default: return true;
    }
}

/// Porter's m over word[0, length).
int measure(const std::string &word, std::size_t length) {
    int sequences = 0;
    std::size_t index = 0;
    while (index < length && is_consonant(word, index)) {
        ++index;
    }
    while (index < length) {
        while (index < length && !is_consonant(word, index)) {
            ++index;
        }
        if (index == length) {
            break;
        }
        ++sequences;
        while (index < length && is_consonant(word, index)) {
            ++index;
        }
    }
    return sequences;
}

bool has_vowel(const std::string &word, std::size_t length) {
    for (std::size_t index = 0; index < length; ++index) {
        if (!is_consonant(word, index)) {
            return true;
        }
    }
    return false;
}

/// Compared by hand: suffixes are a few letters, and this runs for every token of every memory.
bool ends_with(const std::string &word, std::string_view suffix) {
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

bool ends_with_double_consonant(const std::string &word) {
    const auto size = word.size();
    return size >= 2 && word[size - 1] == word[size - 2] && is_consonant(word, size - 1);
}

/// *o: the stem ends consonant-vowel-consonant, the last not w, x or y ("hop", not "snow").
bool ends_cvc(const std::string &word) {
    const auto size = word.size();
    if (size < 3 || !is_consonant(word, size - 1) || is_consonant(word, size - 2) ||
        !is_consonant(word, size - 3)) {
        return false;
    }
    const char last = word[size - 1];
    return last != 'w' && last != 'x' && last != 'y';
}

/// Porter's step 1a, plus the -es plural after ch, sh and x that Porter leaves to later steps,
/// so that "researches" meets "research" without those more aggressive steps.
void step_1a(std::string &word) {
    if (ends_with(word, "sses") || ends_with(word, "ies") || ends_with(word, "ches") || ends_with(word, "shes") ||
        ends_with(word, "xes")) {
        word.resize(word.size() - 2);
    } else if (!ends_with(word, "ss") && ends_with(word, "s")) {
        word.pop_back();
    }
}

/// After removing -ed or -ing: restore the e or undouble the consonant ("hoping" → "hope").
void tidy_after_1b(std::string &word) {
    if (ends_with(word, "at") || ends_with(word, "bl") || ends_with(word, "iz")) {
        word += 'e';
    } else if (ends_with_double_consonant(word)) {
        const char last = word.back();
        if (last != 'l' && last != 's' && last != 'z') {
            word.pop_back();
        }
    } else if (measure(word, word.size()) == 1 && ends_cvc(word)) {
        word += 'e';
    }
}

void step_1b(std::string &word) {
    if (ends_with(word, "eed")) {
        if (measure(word, word.size() - 3) > 0) {
            word.pop_back();
        }
        return;
    }
    for (const std::string_view suffix : {std::string_view{"ed"}, std::string_view{"ing"}}) {
        if (ends_with(word, suffix) && has_vowel(word, word.size() - suffix.size())) {
            word.resize(word.size() - suffix.size());
            tidy_after_1b(word);
            return;
        }
    }
}

void step_1c(std::string &word) {
    if (ends_with(word, "y") && has_vowel(word, word.size() - 1)) {
        word.back() = 'i';
    }
}

struct IrregularForm {
    std::string_view form;
    std::string_view base;
};

/// Past tenses, participles and plurals that no suffix rule reaches, each to its base form:
/// questions ask "When did she go?" of a turn that says "I went". Forms that are as often another
/// word stay out ("left", "rose", "ground", "bound", "wound", "lay", "stuck", "tore", "lit", "bit"),
/// and so do the forms of be, do and have, which are stop words. Sorted by form.
constexpr IrregularForm irregular_forms[] = {
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
static_assert(std::is_sorted(std::begin(irregular_forms), std::end(irregular_forms),
                             [](const IrregularForm &left, const IrregularForm &right) {
                                 return left.form < right.form;
                             }),
              "irregular_forms must be sorted for the binary search");

/// The base form of an irregular `word` ("went" → "go"), or an empty view.
std::string_view base_of_irregular_form(std::string_view word) noexcept {
    const auto found = std::lower_bound(std::begin(irregular_forms), std::end(irregular_forms), word,
                                        [](const IrregularForm &entry, std::string_view wanted) {
                                            return entry.form < wanted;
                                        });
    return found != std::end(irregular_forms) && found->form == word ? found->base : std::string_view{};
}

} // namespace

void stem_english(std::string &word) {
    // Porter leaves words of one or two letters alone.
    if (word.size() <= 2 ||
        !std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
        return;
    }
    if (const auto base = base_of_irregular_form(word); !base.empty()) {
        word = base; // and on: "taken" → "take", which the rules below treat as they treat "taking"
    }
    // Every rule removes a suffix ending in s, d, g or y: most words end otherwise and skip them all.
    if (word.back() == 's') {
        step_1a(word);
    }
    if (word.back() == 'd' || word.back() == 'g') {
        step_1b(word);
    }
    if (word.back() == 'y') {
        step_1c(word);
    }
}

} // namespace starling::bm25
