// SPDX-License-Identifier: Apache-2.0
#include "tokenizer.hpp"

#include "english_stemmer.hpp"
#include "term_characters.hpp"
#include "cache-files/text_hash.hpp"

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/utf8.hpp>
#include <starling/sdk/text/words.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace starling::bm25 {

namespace {

using sdk::text::CharacterClass;

constexpr char fold_ascii(unsigned char byte) noexcept { return static_cast<char>(sdk::text::to_lower_ascii(byte)); }

constexpr char32_t right_single_quotation_mark = 0x2019; // the apostrophe of typeset text: ’

/// Whether a word goes on at text[position]: a letter or digit, of any script but CJK.
bool word_continues(std::string_view text, std::size_t position) noexcept {
    if (position >= text.size()) {
        return false;
    }
    return classify(sdk::text::decode_utf8(text, position, term_utf8_rules)) == CharacterClass::word;
}

/// The length of the English clitic that follows an apostrophe at `position` ("s", "t", "m", "d",
/// "re", "ve", "ll", in any case) when a word ends right after it; otherwise 0.
std::size_t english_clitic_length(std::string_view text, std::size_t position) noexcept {
    std::array<char, 2> folded{};
    std::size_t length = 0;
    while (position + length < text.size()) {
        const auto byte = static_cast<unsigned char>(text[position + length]);
        if (!sdk::text::is_ascii_alphanumeric(byte)) {
            break;
        }
        if (length == folded.size()) {
            return 0; // no clitic is longer
        }
        folded[length] = fold_ascii(byte);
        ++length;
    }
    if (word_continues(text, position + length)) {
        return 0;
    }
    const std::string_view clitic{folded.data(), length};
    static constexpr std::string_view clitics[] = {"s", "t", "m", "d", "re", "ve", "ll"};
    return std::find(std::begin(clitics), std::end(clitics), clitic) != std::end(clitics) ? length : 0;
}

} // namespace

void TokenList::push_back(std::string_view token) {
    spans_.emplace_back(text_.size(), token.size());
    text_.append(token);
}

Tokenizer::Tokenizer(TokenizerOptions options) : options_(std::move(options)) {
    std::vector<std::string> kept;
    kept.reserve(options_.kept_words.size());
    for (const auto &word : options_.kept_words) {
        kept.push_back(fold_case(word));
    }
    stop_words_.reserve(options_.stop_words.size()); // one table, instead of rehashing as it fills
    for (const auto &word : options_.stop_words) {
        auto folded = fold_case(word);
        if (!folded.empty() && std::find(kept.begin(), kept.end(), folded) == kept.end()) {
            stop_word_buckets_.set(token_bucket(folded));
            stop_words_.insert(std::move(folded));
        }
    }
}

bool Tokenizer::is_stop_word(std::string_view folded_word) const {
    return !folded_word.empty() && stop_word_buckets_.test(token_bucket(folded_word)) &&
           stop_words_.find(folded_word) != stop_words_.end();
}

void Tokenizer::push_term(std::string &term, TokenList &out, StopWordHandling stop_words) {
    if (stop_words == StopWordHandling::keep || !is_stop_word(term)) {
        if (options_.stem_english) {
            stem_english(term);
        }
        out.push_back(term);
    }
}

void Tokenizer::note_part_start(unsigned char byte) noexcept {
    const bool upper = byte >= 'A' && byte <= 'Z';
    const bool lower = byte >= 'a' && byte <= 'z';
    std::size_t start = 0;
    if (upper && last_case_ == LastCase::lower_or_digit) {
        start = word_.size();
    } else if (lower && capitals_in_a_row_ >= 2) {
        start = word_.size() - 1;
        capitals_part_start_ = start;
    }
    if (start > 0 && start <= 0xFF && part_count_ < max_part_starts) {
        part_starts_[part_count_++] = static_cast<std::uint8_t>(start);
    }
    capitals_in_a_row_ = upper ? capitals_in_a_row_ + 1 : 0;
    last_case_ = upper ? LastCase::upper : LastCase::lower_or_digit;
}

bool Tokenizer::continues_dotted_number(std::string_view text, std::size_t after_dot) const noexcept {
    // A version or a decimal (0.9.3, 3.12) is one term: split at its dots, its digits matched every
    // memory with an exit code or a list's numbering in it ("cut the 0.9.3 release" found "Exit
    // codes: 0 ok, 1 generic error").
    const auto is_digit = [](char byte) { return byte >= '0' && byte <= '9'; };
    return !word_.empty() && is_digit(word_.back()) && after_dot < text.size() && is_digit(text[after_dot]) &&
           std::all_of(word_.begin(), word_.end(), [&](char byte) { return byte == '.' || is_digit(byte); });
}

void Tokenizer::reset_word() noexcept {
    word_.clear();
    part_count_ = 0;
    last_case_ = LastCase::none;
    capitals_in_a_row_ = 0;
    capitals_part_start_ = 0;
    ascii_word_ = true;
}

void Tokenizer::finish_word(TokenList &out, StopWordHandling stop_words, CamelCaseParts camel_case_parts) {
    // The plural of an acronym is one word ("APIs", "IDs"), not the acronym and "is".
    if (part_count_ > 0 && part_starts_[part_count_ - 1] == capitals_part_start_ &&
        word_.size() == capitals_part_start_ + 2 && word_.back() == 's') {
        --part_count_;
    }
    if (!word_.empty()) {
        const bool has_parts = part_count_ > 0 && ascii_word_ && camel_case_parts == CamelCaseParts::add;
        if (has_parts) {
            whole_ = word_;
        }
        push_term(word_, out, stop_words);
        if (has_parts) {
            // A clitic may have shortened the word since its parts were noted ("DIDn't"); parts of
            // one letter ("getX", "iPhone") say nothing a query would look for.
            for (std::size_t part = 0; part <= part_count_; ++part) {
                const std::size_t begin = std::min<std::size_t>(part == 0 ? 0 : part_starts_[part - 1], whole_.size());
                const std::size_t end = std::min<std::size_t>(part == part_count_ ? whole_.size() : part_starts_[part],
                                                              whole_.size());
                if (end > begin && end - begin >= 2) {
                    word_.assign(whole_, begin, end - begin);
                    push_term(word_, out, stop_words);
                }
            }
        }
    }
    reset_word();
}

std::size_t Tokenizer::drop_english_clitic(std::string_view text, std::size_t after_apostrophe) {
    const auto length = english_clitic_length(text, after_apostrophe);
    if (length == 1 && (text[after_apostrophe] | 0x20) == 't') {
        // "n't": the word before it, without its n, is the verb ("didn't" → "did"), but for the
        // three whose stem is spelled otherwise; "won't" must not become "won", the past of "win".
        if (word_.empty() || word_.back() != 'n') {
            return 0; // an apostrophe before a lone t that negates nothing: a separator, as ever
        }
        if (word_ == "won") {
            word_ = "will";
        } else if (word_ == "shan") {
            word_ = "shall";
        } else if (word_ != "can") {
            word_.pop_back();
        }
    }
    return length;
}

void Tokenizer::push_cjk(TokenList &out, char32_t first, char32_t second) {
    word_.clear();
    sdk::text::append_utf8(word_, first);
    if (second != 0) {
        sdk::text::append_utf8(word_, second);
    }
    out.push_back(word_);
    word_.clear();
}

void Tokenizer::tokenize(std::string_view text, TokenList &out, StopWordHandling stop_words,
                         CamelCaseParts camel_case_parts) {
    tokenize_text(text, out, stop_words, camel_case_parts, nullptr);
}

void Tokenizer::tokenize(std::string_view text, TokenList &out, std::vector<double> &word_shares) {
    tokenize_text(text, out, StopWordHandling::remove, CamelCaseParts::add, &word_shares);
}

void Tokenizer::tokenize_text(std::string_view text, TokenList &out, StopWordHandling stop_words,
                              CamelCaseParts camel_case_parts, std::vector<double> *word_shares) {
    reset_word();
    char32_t previous_cjk = 0;
    std::size_t cjk_run = 0;
    std::size_t run_first_token = 0;
    const auto end_cjk_run = [&] {
        if (cjk_run == 0) {
            return;
        }
        if (cjk_run == 1 && !options_.cjk_unigrams) {
            push_cjk(out, previous_cjk, 0);
        }
        if (word_shares != nullptr) {
            word_shares->resize(out.size(), 1.0);
            const double run_words = std::max(1.0, static_cast<double>(cjk_run) / 2.0);
            const auto run_tokens = static_cast<double>(out.size() - run_first_token);
            std::fill(word_shares->begin() + static_cast<std::ptrdiff_t>(run_first_token), word_shares->end(),
                      run_words / run_tokens);
        }
        cjk_run = 0;
    };

    std::size_t position = 0;
    while (position < text.size()) {
        // Most memories are mostly ASCII: handle it here, without decoding or classifying.
        const auto byte = static_cast<unsigned char>(text[position]);
        if (byte < 0x80) {
            ++position;
            if (sdk::text::is_ascii_alphanumeric(byte)) {
                end_cjk_run();
                note_part_start(byte);
                word_ += fold_ascii(byte);
            } else if (byte == '.' && continues_dotted_number(text, position)) {
                word_ += '.';
            } else {
                if (byte == '\'' && !word_.empty()) {
                    position += drop_english_clitic(text, position);
                }
                finish_word(out, stop_words, camel_case_parts);
                end_cjk_run();
            }
            continue;
        }
        const auto decoded = sdk::text::decode_utf8(text, position, term_utf8_rules);
        position += decoded.length;
        switch (classify(decoded)) {
        case CharacterClass::word:
            end_cjk_run();
            ascii_word_ = false;
            append_folded(decoded.code_point, word_);
            break;
        case CharacterClass::unspaced:
            finish_word(out, stop_words, camel_case_parts);
            if (cjk_run == 0) {
                run_first_token = out.size();
            }
            if (options_.cjk_unigrams) {
                push_cjk(out, decoded.code_point, 0);
            }
            if (cjk_run > 0) {
                push_cjk(out, previous_cjk, decoded.code_point);
            }
            previous_cjk = decoded.code_point;
            ++cjk_run;
            break;
        case CharacterClass::separator:
            if (decoded.code_point == right_single_quotation_mark && !word_.empty()) {
                position += drop_english_clitic(text, position);
            }
            finish_word(out, stop_words, camel_case_parts);
            end_cjk_run();
            break;
        }
    }
    finish_word(out, stop_words, camel_case_parts);
    end_cjk_run();
    if (word_shares != nullptr) {
        word_shares->resize(out.size(), 1.0);
    }
}

std::uint64_t fingerprint(const TokenizerOptions &options) {
    // An option left out here would let tokens cached under one value be used under another.
    // This stops compiling when TokenizerOptions grows, until the new option is described below.
    struct DescribedOptions {
        bool stem_english;
        bool cjk_unigrams;
        std::vector<std::string> stop_words;
        std::vector<std::string> kept_words;
    };
    static_assert(sizeof(TokenizerOptions) == sizeof(DescribedOptions), "fingerprint() must describe every option");

    std::string described = "bm25 tokenizer revision " + std::to_string(tokenizer_revision) +
                            "\nstem_english " + (options.stem_english ? "1" : "0") + "\ncjk_unigrams " +
                            (options.cjk_unigrams ? "1" : "0") + "\nstop words";
    // Length-prefixed, so that no two different lists describe alike, whatever their words contain.
    const auto describe = [&](const std::vector<std::string> &words) {
        for (const auto &word : words) {
            described += ' ';
            described += std::to_string(word.size());
            described += ':';
            described += word;
        }
    };
    described.reserve(described.size() + 16 * (options.stop_words.size() + options.kept_words.size()));
    describe(options.stop_words);
    described += "\nkept words";
    describe(options.kept_words);
    return cache_files::hash_text(described);
}

std::string fold_case(std::string_view text) {
    // Nearly every word is ASCII, where folding is lower-casing A-Z; building the policy folds its
    // ~460 stop words, and decoding each of them code point by code point was a fifth of that.
    if (std::all_of(text.begin(), text.end(), [](char byte) { return static_cast<unsigned char>(byte) < 0x80; })) {
        std::string folded(text);
        for (char &byte : folded) {
            if (byte >= 'A' && byte <= 'Z') {
                byte = static_cast<char>(byte - 'A' + 'a');
            }
        }
        return folded;
    }
    std::string folded;
    folded.reserve(text.size());
    sdk::text::for_each_code_point(text, term_utf8_rules, [&](sdk::text::DecodedCodePoint decoded, std::string_view) {
        if (decoded.valid) {
            append_folded(decoded.code_point, folded);
        }
    });
    return folded;
}

} // namespace starling::bm25
