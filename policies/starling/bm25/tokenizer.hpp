// SPDX-License-Identifier: Apache-2.0
//
// The bm25 tokenizer: UTF-8 text in, normalised index terms out, without regular expressions or
// an allocation per token. Letters and digits of space-separated scripts form words, which are
// case-folded, filtered against the stop words and optionally stemmed (English, Porter2); an English
// clitic after an apostrophe goes with it ("Caroline's" → "caroline", "didn't" → "did"). A word
// written in camel case is a term whole and is also split into its parts ("maxRetries" → "maxretri",
// "max", "retri"), so that a prompt saying "max retries" finds the identifier.
// Han, Hiragana, Katakana and Hangul have no spaces between words, so a run of them becomes its
// overlapping character bigrams ("東京都" → "東京", "京都"); a run of one character is a unigram.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace starling::bm25 {

/// One of 4096 buckets of a non-empty token, from its first and last byte and its length: cheap
/// enough to run on every token, so a bitset of the buckets of a small word set (stop words,
/// query terms) turns most other tokens away before any hash-map lookup.
inline constexpr std::size_t token_bucket_count = 4096;
[[nodiscard]] inline std::size_t token_bucket(std::string_view token) noexcept {
    const auto first = static_cast<unsigned char>(token.front());
    const auto last = static_cast<unsigned char>(token.back());
    return (first * 31U + last * 7U + token.size() * 131U) % token_bucket_count;
}

/// Tokens stored back to back in one buffer. clear() keeps the capacity, so a list reused
/// across texts stops allocating once it has grown to the longest text.
class TokenList {
public:
    void clear() noexcept {
        text_.clear();
        spans_.clear();
    }
    void push_back(std::string_view token);
    [[nodiscard]] std::size_t size() const noexcept { return spans_.size(); }
    [[nodiscard]] bool empty() const noexcept { return spans_.empty(); }
    [[nodiscard]] std::string_view operator[](std::size_t index) const noexcept {
        return std::string_view{text_}.substr(spans_[index].first, spans_[index].second);
    }

private:
    std::string text_;
    std::vector<std::pair<std::size_t, std::size_t>> spans_; // offset, length
};

struct TokenizerOptions {
    bool stem_english = true;
    /// Also index every CJK character alone, so that a one-character query finds longer runs.
    bool cjk_unigrams = false;
    /// Words dropped from queries and memories; folded here, so any case may be given.
    std::vector<std::string> stop_words;
    /// Words never dropped, even when a stop-word list has them (e.g. "it" for an IT team).
    std::vector<std::string> kept_words;
};

enum class StopWordHandling : std::uint8_t { remove, keep };

/// Whether a word written in camel case also yields its parts: an index and a query want them, so
/// that "max retries" finds "maxRetries"; a setting that names one word (a synonym) wants the word.
enum class CamelCaseParts : std::uint8_t { add, omit };

class Tokenizer {
public:
    explicit Tokenizer(TokenizerOptions options);

    /// Appends the tokens of `text` to `out`. Invalid UTF-8 bytes separate tokens and are dropped.
    void tokenize(std::string_view text, TokenList &out,
                  StopWordHandling stop_words = StopWordHandling::remove,
                  CamelCaseParts camel_case_parts = CamelCaseParts::add);
    /// Like tokenize() with stop words removed and camel-case parts added, and appends to
    /// `word_shares` (one entry per token of `out`, before as after) how many of the text's words
    /// each token stands for. A word of a spaced script is one, and so is each of its camel-case
    /// parts. A CJK run of n characters stands for about n/2 words (at least one), shared evenly by
    /// its tokens: its n - 1 overlapping bigrams say each character twice, and many straddle two
    /// words ("帮我装一下", help me install it, is 帮我, 我装, 装一, 一下 for the words 帮我, 装, 一下).
    void tokenize(std::string_view text, TokenList &out, std::vector<double> &word_shares);

    [[nodiscard]] bool is_stop_word(std::string_view folded_word) const;

private:
    struct TransparentHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept {
            return std::hash<std::string_view>{}(text);
        }
    };

    void finish_word(TokenList &out, StopWordHandling stop_words, CamelCaseParts camel_case_parts);
    /// Appends `term` to `out` unless it is a stop word (and stop words are removed), stemmed.
    void push_term(std::string &term, TokenList &out, StopWordHandling stop_words);
    /// Notes where a word written in camel case starts a new part, as its ASCII letters are read:
    /// before an upper-case letter after a lower-case one or a digit ("maxRetries"), and before the
    /// last of a run of capitals that a lower-case letter follows ("HTTPClient").
    void note_part_start(unsigned char byte) noexcept;
    /// Forgets the word being read and its parts.
    void reset_word() noexcept;
    /// Whether the '.' before text[after_dot] joins two numbers of one version or decimal, with
    /// the word so far all digits (and such dots).
    [[nodiscard]] bool continues_dotted_number(std::string_view text, std::size_t after_dot) const noexcept;
    /// At an apostrophe that ends a word: when an English clitic follows ("Caroline's", "I'm",
    /// "didn't"), rewrites a negated verb in the word ("didn't" → "did", "won't" → "will") and
    /// returns the clitic's length, so that the caller skips it; otherwise 0.
    std::size_t drop_english_clitic(std::string_view text, std::size_t after_apostrophe);
    void push_cjk(TokenList &out, char32_t first, char32_t second);
    /// tokenize(), with `word_shares` filled when not null.
    void tokenize_text(std::string_view text, TokenList &out, StopWordHandling stop_words,
                       CamelCaseParts camel_case_parts, std::vector<double> *word_shares);

    TokenizerOptions options_;
    std::bitset<token_bucket_count> stop_word_buckets_;
    std::unordered_set<std::string, TransparentHash, std::equal_to<>> stop_words_;
    std::string word_; // scratch for the word being read; reused so tokens cost no allocation
    // A word's camel-case parts: where each part after the first starts in word_, while the word is
    // all ASCII (a word with other letters is kept whole). Parts beyond the array are not split off.
    static constexpr std::size_t max_part_starts = 15;
    std::array<std::uint8_t, max_part_starts> part_starts_{};
    std::size_t part_count_ = 0;
    enum class LastCase : std::uint8_t { none, lower_or_digit, upper } last_case_ = LastCase::none;
    std::size_t capitals_in_a_row_ = 0;
    std::size_t capitals_part_start_ = 0; // the last part start the capitals rule made, 0 for none
    bool ascii_word_ = true;
    std::string whole_; // the word before stemming, while its parts are pushed
};

/// The revision of what tokenize() makes of a text. Bump it with any change that may give some
/// text other tokens (folding, classes, stemming, bigrams), so that tokens derived before and
/// kept in a cache are no longer trusted.
inline constexpr std::uint32_t tokenizer_revision = 6;

/// Identifies the tokens tokenize() gives under `options` and this revision: texts tokenised under
/// equal fingerprints have equal tokens. Options that only differ in the order or repetition of
/// their stop words may get different fingerprints, which costs a cache rebuild, never a wrong token.
[[nodiscard]] std::uint64_t fingerprint(const TokenizerOptions &options);

/// Case-folds `text` code point by code point, as the tokenizer folds words.
[[nodiscard]] std::string fold_case(std::string_view text);

} // namespace starling::bm25
