// SPDX-License-Identifier: Apache-2.0
// Tokens whose vendor gave them a recognisable shape: a fixed prefix, then a tail of known length
// and alphabet. The shapes are the vendors' documented ones; where a prefix could start ordinary
// words (`sk-`, `key-`), the tail must also look random (digits, mixed case).
#include "redaction/secret_characters.hpp"
#include "redaction/secret_scanning.hpp"

#include <algorithm>
#include <array>

namespace starling::core::secrets {
namespace {

enum class Alphabet { token, alnum, alpha, lower_hex, hex, upper_digit };

struct TokenShape {
    std::string_view prefix;
    std::size_t min_tail; ///< bytes after the prefix
    std::size_t max_tail; ///< 0: no upper bound
    Alphabet alphabet;
    std::string_view kind;
    bool needs_digit = false; ///< prose made of the prefix and words has none
    bool needs_mixed_case = false;
};

constexpr std::size_t kAny = 0;

/// Longest prefixes first where they overlap (`sk-ant-` before `sk-`).
constexpr std::array<TokenShape, 44> kShapes{{
    {"AKIA", 16, 16, Alphabet::upper_digit, "aws-access-key"},
    {"ASIA", 16, 16, Alphabet::upper_digit, "aws-access-key"},
    {"github_pat_", 40, kAny, Alphabet::token, "github-token", true},
    {"ghp_", 30, kAny, Alphabet::alnum, "github-token", true},
    {"gho_", 30, kAny, Alphabet::alnum, "github-token", true},
    {"ghu_", 30, kAny, Alphabet::alnum, "github-token", true},
    {"ghs_", 30, kAny, Alphabet::alnum, "github-token", true},
    {"ghr_", 30, kAny, Alphabet::alnum, "github-token", true},
    {"glpat-", 20, kAny, Alphabet::token, "gitlab-token"}, // about 3 % of real ones have no digit
    {"sk-ant-", 20, kAny, Alphabet::token, "anthropic-key", true, true},
    {"sk-", 20, kAny, Alphabet::token, "openai-key", true, true},
    {"xoxb-", 10, kAny, Alphabet::token, "slack-token", true},
    {"xoxp-", 10, kAny, Alphabet::token, "slack-token", true},
    {"xoxa-", 10, kAny, Alphabet::token, "slack-token", true},
    {"xoxr-", 10, kAny, Alphabet::token, "slack-token", true},
    {"xoxe-", 10, kAny, Alphabet::token, "slack-token", true},
    {"xapp-", 10, kAny, Alphabet::token, "slack-token", true},
    {"AIza", 30, kAny, Alphabet::token, "google-api-key", true},
    {"sk_live_", 16, kAny, Alphabet::alnum, "stripe-key", true},
    {"rk_live_", 16, kAny, Alphabet::alnum, "stripe-key", true},
    {"sk_test_", 16, kAny, Alphabet::alnum, "stripe-key", true},
    {"rk_test_", 16, kAny, Alphabet::alnum, "stripe-key", true},
    {"whsec_", 24, kAny, Alphabet::alnum, "stripe-webhook-secret", true},
    {"npm_", 30, kAny, Alphabet::alnum, "npm-token", true},
    // A PyPI token is a macaroon whose base64 starts with the encoded issuer.
    {"pypi-AgEIcHlwaS5vcmc", 50, kAny, Alphabet::token, "pypi-token"},
    {"pypi-AgENdGVzdC5weXBpLm9yZw", 50, kAny, Alphabet::token, "pypi-token"},
    {"SG.", 60, kAny, Alphabet::token, "sendgrid-key"},
    {"dop_v1_", 64, 64, Alphabet::lower_hex, "digitalocean-token"},
    {"doo_v1_", 64, 64, Alphabet::lower_hex, "digitalocean-token"},
    {"dor_v1_", 64, 64, Alphabet::lower_hex, "digitalocean-token"},
    {"hf_", 30, 40, Alphabet::alnum, "huggingface-token", false, true},
    {"key-", 32, 32, Alphabet::alnum, "mailgun-key", true},
    {"SK", 32, 32, Alphabet::lower_hex, "twilio-api-key", true},
    {"HRKU-", 30, kAny, Alphabet::token, "heroku-api-key", true},
    {"shpat_", 32, 32, Alphabet::hex, "shopify-token"},
    {"shpss_", 32, 32, Alphabet::hex, "shopify-token"},
    {"shpca_", 32, 32, Alphabet::hex, "shopify-token"},
    {"glsa_", 32, kAny, Alphabet::token, "grafana-token", true},
    {"dapi", 32, 32, Alphabet::lower_hex, "databricks-token", true},
    {"PMAK-", 50, kAny, Alphabet::token, "postman-key", true},
    {"lin_api_", 40, kAny, Alphabet::alnum, "linear-key", true},
    {"AGE-SECRET-KEY-1", 50, kAny, Alphabet::upper_digit, "age-secret-key"},
    {"ATATT3", 50, kAny, Alphabet::token, "atlassian-token", true},
    {"dp.pt.", 40, kAny, Alphabet::alnum, "doppler-token"},
}};

/// The shortest token any shape accepts: shorter runs (most words of a text) need no shape test.
constexpr std::size_t kShortestShape = [] {
    std::size_t shortest = std::string_view::npos;
    for (const auto &shape : kShapes) {
        shortest = std::min(shortest, shape.prefix.size() + shape.min_tail);
    }
    return shortest;
}();

/// 10 bytes, `.`, 10 more, `.`, 10 more: the shortest token is_jwt accepts.
constexpr std::size_t kShortestJwt = 10 + 1 + 10 + 1 + 10;

bool in_alphabet(std::string_view tail, Alphabet alphabet) noexcept {
    switch (alphabet) {
    case Alphabet::token: return true; // whatever a token run holds
    case Alphabet::alnum: return all_of(tail, is_alnum);
    case Alphabet::alpha: return all_of(tail, is_alpha);
    case Alphabet::lower_hex: return all_of(tail, is_lower_hex);
    case Alphabet::hex: return all_of(tail, is_hex);
    case Alphabet::upper_digit: return all_of(tail, [](char c) { return is_upper(c) || is_digit(c); });
    }
    return false;
}

bool has_shape(std::string_view token, const TokenShape &shape) noexcept {
    if (token.size() < shape.prefix.size() + shape.min_tail || token.substr(0, shape.prefix.size()) != shape.prefix) {
        return false;
    }
    const auto tail = token.substr(shape.prefix.size());
    if (shape.max_tail != kAny && tail.size() > shape.max_tail) {
        return false;
    }
    if (!in_alphabet(tail, shape.alphabet)) {
        return false;
    }
    if (shape.needs_digit && !any_of(tail, is_digit)) {
        return false;
    }
    return !shape.needs_mixed_case || (any_of(tail, is_upper) && any_of(tail, is_lower));
}

/// header.payload.signature, each part base64url; the header of every JWT starts `{"` = `eyJ`.
bool is_jwt(std::string_view token) noexcept {
    if (token.substr(0, 3) != "eyJ") {
        return false;
    }
    const auto first_dot = token.find('.');
    const auto second_dot = first_dot == std::string_view::npos ? first_dot : token.find('.', first_dot + 1);
    return second_dot != std::string_view::npos && first_dot >= 10 && second_dot - first_dot > 10 &&
           token.size() - second_dot > 10;
}

/// 8-4-4-4-12 hex digits.
bool is_uuid(std::string_view token) noexcept {
    constexpr std::array<std::size_t, 5> kGroups{8, 4, 4, 4, 12};
    if (token.size() != 8 + 4 + 4 + 4 + 12 + 4) {
        return false;
    }
    std::size_t offset = 0;
    for (std::size_t group = 0; group < kGroups.size(); ++group) {
        if (group > 0) {
            if (offset >= token.size() || token[offset] != '-') {
                return false;
            }
            ++offset;
        }
        if (token.size() < offset + kGroups[group] || !all_of(token.substr(offset, kGroups[group]), is_hex)) {
            return false;
        }
        offset += kGroups[group];
    }
    return offset == token.size();
}

/// Heroku's older API keys are plain UUIDs: one counts only when its line names Heroku before it.
bool heroku_named_before(std::string_view text, std::size_t token_start) noexcept {
    constexpr std::size_t kWindow = 80;
    const std::size_t from = token_start > kWindow ? token_start - kWindow : 0;
    auto before = text.substr(from, token_start - from);
    if (const auto line_start = before.rfind('\n'); line_start != std::string_view::npos) {
        before.remove_prefix(line_start + 1);
    }
    for (std::size_t offset = 0; offset + 6 <= before.size(); ++offset) {
        if (starts_with_ci(before.substr(offset), "heroku")) {
            return true;
        }
    }
    return false;
}

std::string_view shaped_kind(std::string_view token) noexcept {
    if (token.size() < std::min(kShortestShape, kShortestJwt)) {
        return {};
    }
    if (is_jwt(token)) {
        return "jwt";
    }
    for (const auto &shape : kShapes) {
        if (has_shape(token, shape)) {
            return shape.kind;
        }
    }
    return {};
}

constexpr bool is_token_byte(char c) noexcept { return is_word(c) || c == '.' || c == '/' || c == '+'; }

} // namespace

/// Whole runs of [A-Za-z0-9_./+-] (`=` and `:` end a run, so `key=token` is seen as two), each
/// judged by its shape, or by the two runs before it (`Bearer`, `Authorization: Basic`).
void find_shaped_tokens(std::string_view text, Spans &found) {
    std::string_view before_previous;
    std::string_view previous;
    std::size_t previous_end = 0;
    std::size_t scan = 0;
    while (scan < text.size()) {
        if (!is_token_byte(text[scan])) {
            ++scan;
            continue;
        }
        const std::size_t start = scan;
        const std::size_t end = run_end(text, start, is_token_byte);
        auto token = text.substr(start, end - start);
        while (!token.empty() && token.back() == '.') {
            token.remove_suffix(1); // a sentence's full stop is not part of the token
        }
        std::string_view kind = shaped_kind(token);
        // A credential follows its scheme after blanks only: `bearer, defaultendpoints…` in a list of
        // words is no header, and an earlier redaction's marker is no token.
        const bool follows_scheme =
            previous_end < start && all_of(text.substr(previous_end, start - previous_end), [](char c) {
                return c == ' ' || c == '\t';
            });
        if (kind.empty() && follows_scheme && equals_ci(previous, "bearer") && token.size() >= 16) {
            kind = "bearer-token";
        }
        if (kind.empty() && follows_scheme && equals_ci(previous, "basic") && token.size() >= 8 &&
            (equals_ci(before_previous, "authorization") || equals_ci(before_previous, "proxy-authorization"))) {
            kind = "basic-auth";
            token = text.substr(start, run_end(text, start + token.size(), [](char c) { return c == '='; }) - start);
        }
        if (kind.empty() && is_uuid(token) && heroku_named_before(text, start)) {
            kind = "heroku-api-key";
        }
        if (!kind.empty()) {
            found.push_back({start, start + token.size(), std::string{kind}});
        }
        before_previous = previous;
        previous = token;
        previous_end = start + token.size();
        scan = end;
    }
}

} // namespace starling::core::secrets
