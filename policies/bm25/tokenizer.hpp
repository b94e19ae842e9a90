// SPDX-License-Identifier: Apache-2.0
//
// The bm25 tokenizer: UTF-8 text in, normalised index terms out, without regular expressions or
// an allocation per token. Letters and digits of space-separated scripts form words, which are
// case-folded, filtered against the stop words and optionally stemmed (English, Porter2); an English
// clitic after an apostrophe goes with it ("Caroline's" → "caroline", "didn't" → "did").
// Han, Hiragana, Katakana and Hangul have no spaces between words, so a run of them becomes its
// overlapping character bigrams ("東京都" → "東京", "京都"); a run of one character is a unigram.
#pragma once

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

class Tokenizer {
public:
    explicit Tokenizer(TokenizerOptions options);

    /// Appends the tokens of `text` to `out`. Invalid UTF-8 bytes separate tokens and are dropped.
    void tokenize(std::string_view text, TokenList &out,
                  StopWordHandling stop_words = StopWordHandling::remove);

    [[nodiscard]] bool is_stop_word(std::string_view folded_word) const;

private:
    struct TransparentHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept {
            return std::hash<std::string_view>{}(text);
        }
    };

    void finish_word(TokenList &out, StopWordHandling stop_words);
    /// At an apostrophe that ends a word: when an English clitic follows ("Caroline's", "I'm",
    /// "didn't"), rewrites a negated verb in the word ("didn't" → "did", "won't" → "will") and
    /// returns the clitic's length, so that the caller skips it; otherwise 0.
    std::size_t drop_english_clitic(std::string_view text, std::size_t after_apostrophe);
    void push_cjk(TokenList &out, char32_t first, char32_t second);

    TokenizerOptions options_;
    std::bitset<token_bucket_count> stop_word_buckets_;
    std::unordered_set<std::string, TransparentHash, std::equal_to<>> stop_words_;
    std::string word_; // scratch for the word being read; reused so tokens cost no allocation
};

/// The revision of what tokenize() makes of a text. Bump it with any change that may give some
/// text other tokens (folding, classes, stemming, bigrams), so that tokens derived before and
/// kept in a cache are no longer trusted.
inline constexpr std::uint32_t tokenizer_revision = 4;

/// Identifies the tokens tokenize() gives under `options` and this revision: texts tokenised under
/// equal fingerprints have equal tokens. Options that only differ in the order or repetition of
/// their stop words may get different fingerprints, which costs a cache rebuild, never a wrong token.
[[nodiscard]] std::uint64_t fingerprint(const TokenizerOptions &options);

/// Case-folds `text` code point by code point, as the tokenizer folds words.
[[nodiscard]] std::string fold_case(std::string_view text);

} // namespace starling::bm25
