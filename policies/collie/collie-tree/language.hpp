// SPDX-License-Identifier: Apache-2.0
//
// Deterministic language guess for one message. Text that is mostly Han characters is the `han`
// language (Chinese by default). Otherwise each language with `language.markers` scores one point
// per marker word and two per letter of `language.letters` (e.g. German umlauts); the best wins.
// A guess is unsure when nothing scored or the runner-up is closer than `min_margin`: the caller
// then applies every lexicon.
#pragma once

#include <starling/sdk/settings.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace starling::policies::collie_tree {

struct LanguageGuess {
    std::string language;
    bool sure = false;
};

class LanguageDetector {
public:
    explicit LanguageDetector(const sdk::Settings &settings);

    /// Guesses the language of text already passed through fold_for_matching().
    [[nodiscard]] LanguageGuess detect(std::string_view folded) const;

private:
    struct Markers {
        std::set<std::string, std::less<>> words;
        std::u32string letters;
    };

    std::string default_language_;
    std::string han_language_;
    int min_margin_;
    std::map<std::string, Markers> markers_;
};

} // namespace starling::policies::collie_tree
