// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/redaction.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace starling::core {

namespace {

bool is_alnum(char c) noexcept { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_upper_or_digit(char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_token_char(char c) noexcept { return is_alnum(c) || c == '_' || c == '-'; }
bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

char lower(char c) noexcept { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool starts_with_ci(std::string_view text, std::string_view prefix) noexcept {
    if (text.size() < prefix.size()) {
        return false;
    }
    for (std::size_t index = 0; index < prefix.size(); ++index) {
        if (lower(text[index]) != lower(prefix[index])) {
            return false;
        }
    }
    return true;
}

std::string marker(std::string_view kind) { return "[REDACTED:" + std::string{kind} + "]"; }

/// `-----BEGIN … PRIVATE KEY-----` up to the matching END line (or the end of the text).
std::string redact_private_keys(std::string_view text, std::vector<std::string> &kinds) {
    std::string out;
    std::size_t position = 0;
    while (true) {
        const auto begin = text.find("-----BEGIN ", position);
        if (begin == std::string_view::npos) {
            break;
        }
        const auto header_end = text.find("-----", begin + 11);
        if (header_end == std::string_view::npos) {
            break;
        }
        const auto header = text.substr(begin + 11, header_end - begin - 11);
        if (header.find("PRIVATE KEY") == std::string_view::npos) {
            out.append(text.substr(position, header_end - position));
            position = header_end;
            continue;
        }
        out.append(text.substr(position, begin - position));
        out += marker("private-key");
        kinds.emplace_back("private-key");
        const auto end_marker = text.find("-----END ", header_end + 5);
        if (end_marker == std::string_view::npos) {
            position = text.size();
            break;
        }
        const auto end_close = text.find("-----", end_marker + 9);
        position = end_close == std::string_view::npos ? text.size() : end_close + 5;
    }
    out.append(text.substr(position));
    return out;
}

/// `scheme://user:password@host` keeps the user and the host, drops the password.
std::string redact_url_passwords(std::string_view text, std::vector<std::string> &kinds) {
    std::string out;
    std::size_t position = 0;
    while (true) {
        const auto scheme_end = text.find("://", position);
        if (scheme_end == std::string_view::npos) {
            break;
        }
        const auto authority_start = scheme_end + 3;
        std::size_t offset = authority_start;
        std::size_t colon = std::string_view::npos;
        std::size_t at = std::string_view::npos;
        while (offset < text.size() && !is_space(text[offset]) && text[offset] != '/' && text[offset] != '"' &&
               text[offset] != '\'') {
            if (text[offset] == ':' && colon == std::string_view::npos) {
                colon = offset;
            }
            if (text[offset] == '@') {
                at = offset;
            }
            ++offset;
        }
        if (colon != std::string_view::npos && at != std::string_view::npos && colon < at && at > colon + 1) {
            out.append(text.substr(position, colon + 1 - position));
            out += marker("url-password");
            kinds.emplace_back("url-password");
            position = at;
        } else {
            out.append(text.substr(position, authority_start - position));
            position = authority_start;
        }
    }
    out.append(text.substr(position));
    return out;
}

/// Names whose value is a credential. Matched case-insensitively as the whole key or its suffix
/// after `_`/`-`/`.` (so `DB_PASSWORD` and `github.token` count, `tokenizer` does not).
constexpr std::array<std::string_view, 13> kCredentialNames{
    "password", "passwd", "pwd", "passphrase", "secret", "token", "api_key", "apikey", "api-key",
    "access_key", "secret_key", "client_secret", "private_key"};

bool is_credential_name(std::string_view name) {
    for (const auto candidate : kCredentialNames) {
        if (name.size() < candidate.size()) {
            continue;
        }
        const auto tail = name.substr(name.size() - candidate.size());
        if (!starts_with_ci(tail, candidate)) {
            continue;
        }
        if (name.size() == candidate.size()) {
            return true;
        }
        const char separator = name[name.size() - candidate.size() - 1];
        if (separator == '_' || separator == '-' || separator == '.') {
            return true;
        }
    }
    return false;
}

/// `name = value`, `name: value`, `name="value"`, `--name value` is left alone (ambiguous).
std::string redact_assignments(std::string_view text, std::vector<std::string> &kinds) {
    std::string out;
    std::size_t position = 0;
    std::size_t scan = 0;
    while (scan < text.size()) {
        if (!(is_alnum(text[scan]) || text[scan] == '_') || (scan > 0 && (is_token_char(text[scan - 1]) ||
                                                                            text[scan - 1] == '.'))) {
            ++scan;
            continue;
        }
        std::size_t name_end = scan;
        while (name_end < text.size() && (is_token_char(text[name_end]) || text[name_end] == '.')) {
            ++name_end;
        }
        const auto name = text.substr(scan, name_end - scan);
        std::size_t offset = name_end;
        if (offset < text.size() && (text[offset] == '"' || text[offset] == '\'')) {
            ++offset; // a quoted key, as in JSON: "password": "…"
        }
        while (offset < text.size() && (text[offset] == ' ' || text[offset] == '\t')) {
            ++offset;
        }
        if (!is_credential_name(name) || offset >= text.size() || (text[offset] != '=' && text[offset] != ':')) {
            scan = name_end;
            continue;
        }
        ++offset;
        while (offset < text.size() && (text[offset] == ' ' || text[offset] == '\t')) {
            ++offset;
        }
        std::size_t value_start = offset;
        std::size_t value_end = offset;
        if (offset < text.size() && (text[offset] == '"' || text[offset] == '\'')) {
            const char quote = text[offset];
            value_start = offset + 1;
            value_end = text.find(quote, value_start);
            if (value_end == std::string_view::npos) {
                value_end = text.size();
            }
        } else {
            while (value_end < text.size() && !is_space(text[value_end]) && text[value_end] != ',' &&
                   text[value_end] != ';' && text[value_end] != '}') {
                ++value_end;
            }
        }
        const auto value = text.substr(value_start, value_end - value_start);
        if (value.empty() || value.rfind("[REDACTED:", 0) == 0) {
            scan = value_end;
            continue;
        }
        out.append(text.substr(position, value_start - position));
        out += marker("credential");
        kinds.emplace_back("credential");
        position = value_end;
        scan = value_end;
    }
    out.append(text.substr(position));
    return out;
}

struct TokenShape {
    std::string_view prefix;
    std::size_t min_tail; ///< characters after the prefix
    std::string_view kind;
    bool tail_upper_digits_only = false;
};

/// The documented shapes of vendors' tokens, longest prefixes first where they overlap.
constexpr std::array<TokenShape, 19> kTokenShapes{{
    {"AKIA", 16, "aws-access-key", true},
    {"ASIA", 16, "aws-access-key", true},
    {"github_pat_", 40, "github-token"},
    {"ghp_", 30, "github-token"},
    {"gho_", 30, "github-token"},
    {"ghu_", 30, "github-token"},
    {"ghs_", 30, "github-token"},
    {"ghr_", 30, "github-token"},
    {"glpat-", 20, "gitlab-token"},
    {"sk-ant-", 20, "anthropic-key"},
    {"sk-", 20, "openai-key"},
    {"xoxb-", 10, "slack-token"},
    {"xoxp-", 10, "slack-token"},
    {"xoxa-", 10, "slack-token"},
    {"AIza", 30, "google-api-key"},
    {"sk_live_", 16, "stripe-key"},
    {"rk_live_", 16, "stripe-key"},
    {"sk_test_", 16, "stripe-key"},
    {"npm_", 30, "npm-token"},
}};

bool is_jwt(std::string_view token) {
    if (token.rfind("eyJ", 0) != 0) {
        return false;
    }
    const auto first_dot = token.find('.');
    const auto second_dot = first_dot == std::string_view::npos ? first_dot : token.find('.', first_dot + 1);
    return second_dot != std::string_view::npos && first_dot >= 10 && second_dot - first_dot > 10 &&
           token.size() - second_dot > 10;
}

std::string_view token_kind(std::string_view token) {
    if (is_jwt(token)) {
        return "jwt";
    }
    for (const auto &shape : kTokenShapes) {
        if (token.size() < shape.prefix.size() + shape.min_tail || token.rfind(shape.prefix, 0) != 0) {
            continue;
        }
        const auto tail = token.substr(shape.prefix.size());
        if (shape.tail_upper_digits_only) {
            if (tail.size() == shape.min_tail && std::all_of(tail.begin(), tail.end(), is_upper_or_digit)) {
                return shape.kind;
            }
            continue;
        }
        const bool has_digit = std::any_of(tail.begin(), tail.end(), [](char c) { return c >= '0' && c <= '9'; });
        // Prose like "sk-learn-based-classification-pipeline" has no digits; real tokens do.
        if (has_digit) {
            return shape.kind;
        }
    }
    return {};
}

/// Whole tokens (runs of [A-Za-z0-9_./+-]; `=` ends a run so `key=token` is seen as two) with a vendor's shape, and `Bearer <token>`.
std::string redact_tokens(std::string_view text, std::vector<std::string> &kinds) {
    std::string out;
    std::size_t position = 0;
    std::size_t scan = 0;
    bool after_bearer = false;
    while (scan < text.size()) {
        if (!(is_token_char(text[scan]) || text[scan] == '.')) {
            ++scan;
            continue;
        }
        std::size_t end = scan;
        while (end < text.size() &&
               (is_token_char(text[end]) || text[end] == '.' || text[end] == '/' || text[end] == '+')) {
            ++end;
        }
        auto token = text.substr(scan, end - scan);
        while (!token.empty() && token.back() == '.') {
            token.remove_suffix(1); // a sentence's full stop is not part of the token
        }
        std::string_view kind = token_kind(token);
        if (kind.empty() && after_bearer && token.size() >= 16) {
            kind = "bearer-token";
        }
        after_bearer = starts_with_ci(token, "bearer") && token.size() == 6;
        if (!kind.empty()) {
            out.append(text.substr(position, scan - position));
            out += marker(kind);
            kinds.emplace_back(kind);
            position = scan + token.size();
        }
        scan = end;
    }
    out.append(text.substr(position));
    return out;
}

} // namespace

RedactedText redact_secrets(std::string_view text) {
    RedactedText result;
    std::string current = redact_private_keys(text, result.kinds);
    current = redact_url_passwords(current, result.kinds);
    current = redact_tokens(current, result.kinds);
    current = redact_assignments(current, result.kinds);
    result.text = std::move(current);
    return result;
}

} // namespace starling::core
