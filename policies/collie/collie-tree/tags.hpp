// SPDX-License-Identifier: Apache-2.0
//
// A few tags for a message: its content words in order of appearance, lower case, without
// duplicates or stop words (`tags.stopwords.<lang>`, all languages at once since messages mix them).
// Chinese has no spaces, so Han text is segmented with what is known: the Han cues that matched the
// message separate words, and those naming things ("生产环境", "迁移", "飞书") are tags themselves;
// the Han stop words ("因为", "改成") and function characters (`tags.cjk_stop_characters`) separate
// words too; the remaining pieces are kept whole when two to six characters long, or as character
// bigrams when longer.
#pragma once

#include <starling/sdk/settings.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

class TagExtractor {
public:
    explicit TagExtractor(const sdk::Settings &settings);

    /// A matched cue, as written, and whether it names a thing (a project fact or an external system).
    struct MatchedCue {
        std::string text;
        bool names_a_thing = false;
    };

    [[nodiscard]] std::vector<std::string> extract(std::string_view message,
                                                   const std::vector<MatchedCue> &matched_cues) const;

private:
    struct KnownWord {
        std::u32string text;
        bool is_tag = false;
    };

    void add_latin_word(std::string word, std::vector<std::string> &tags) const;
    void add_han_run(const std::u32string &run, const std::vector<KnownWord> &known_words,
                     std::vector<std::string> &tags) const;
    void add_han_piece(const std::u32string &piece, std::vector<std::string> &tags) const;
    void add(std::string tag, std::vector<std::string> &tags) const;

    std::size_t max_tags_;
    std::size_t min_length_;
    std::set<std::string, std::less<>> stopwords_;
    std::vector<std::u32string> han_stopwords_; ///< longest first
    std::u32string cjk_stop_characters_;
};

} // namespace starling::policies::collie_tree
