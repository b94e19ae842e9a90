// SPDX-License-Identifier: Apache-2.0
// Credentials recognised by the name they are given: `password=…`, `export API_TOKEN=…`,
// `"clientSecret": "…"`, `AccountKey=…;` in an Azure connection string, Docker's `"auth": "…"`, and
// in prose `my api token is …`.
#include "redaction/secret_characters.hpp"
#include "redaction/secret_scanning.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace starling::core::secrets {
namespace {

struct NamedCredential {
    std::string_view name; ///< lower case; `_`, `-` and `.` in a name are compared as `_`
    std::string_view kind;
    bool whole_name_only;  ///< false: also the last part of a longer name (`DB_PASSWORD`, `authToken`)
    bool quoted_key_only;  ///< a word too common in prose to count unless it is a quoted JSON key
};

/// Specific names before generic ones: the first entry that matches names the kind.
constexpr std::array<NamedCredential, 24> kNames{{
    {"accountkey", "azure-storage-key", true, false},
    {"sharedaccesskey", "azure-service-bus-key", true, false},
    {"sharedaccesssignature", "azure-sas-token", true, false},
    {"private_key_id", "gcp-private-key-id", false, false},
    {"auth", "docker-auth", true, true},
    {"identitytoken", "docker-auth", true, false},
    {"password", "credential", false, false},
    {"passwd", "credential", false, false},
    {"pwd", "credential", false, false},
    {"passphrase", "credential", false, false},
    {"secret", "credential", false, false},
    {"token", "credential", false, false},
    {"api_key", "credential", false, false},
    {"apikey", "credential", false, false},
    {"access_key", "credential", false, false},
    {"accesskey", "credential", false, false},
    {"secret_key", "credential", false, false},
    {"client_secret", "credential", false, false},
    {"private_key", "credential", false, false},
    {"auth_token", "credential", false, false},
    {"pass", "credential", false, false}, // `DB_PASS=`, `smtp_pass:`
    {"authtoken", "credential", false, false},
    {"sas_token", "credential", false, false},
    {"pgpassword", "credential", true, false}, // libpq's environment variable
}};

char folded(char c) noexcept { return c == '-' || c == '.' ? '_' : lower(c); }

bool folded_equals(std::string_view text, std::string_view name) noexcept {
    if (text.size() != name.size()) {
        return false;
    }
    for (std::size_t index = 0; index < text.size(); ++index) {
        if (folded(text[index]) != name[index]) {
            return false;
        }
    }
    return true;
}

/// Whether `name` ends in `candidate` at a word boundary: after `_`, `-`, `.`, or where camelCase
/// starts a new word (`authToken`, `dbPassword`); `tokenizer` and `passwords` do not.
bool ends_with_word(std::string_view name, std::string_view candidate) noexcept {
    if (name.size() <= candidate.size()) {
        return false;
    }
    const std::size_t start = name.size() - candidate.size();
    if (!folded_equals(name.substr(start), candidate)) {
        return false;
    }
    const char separator = name[start - 1];
    return separator == '_' || separator == '-' || separator == '.' || (is_lower(separator) && is_upper(name[start])) ||
           (is_digit(separator) && is_upper(name[start]));
}

/// Every name of kNames ends in one of these letters: most words of a text are ruled out by one test.
bool may_be_credential_name(std::string_view name) noexcept {
    const char last = lower(name.back());
    return last == 'd' || last == 'e' || last == 'h' || last == 'n' || last == 's' || last == 't' || last == 'y';
}

std::string_view credential_kind(std::string_view name, bool quoted_key) noexcept {
    if (name.empty() || !may_be_credential_name(name)) {
        return {};
    }
    for (const auto &candidate : kNames) {
        if (candidate.quoted_key_only && !quoted_key) {
            continue;
        }
        if (folded_equals(name, candidate.name) || (!candidate.whole_name_only && ends_with_word(name, candidate.name))) {
            return candidate.kind;
        }
    }
    return {};
}

constexpr bool is_name_byte(char c) noexcept { return is_word(c) || c == '.'; }

struct Value {
    std::size_t begin;
    std::size_t end;
};

/// The value that starts at `offset`: up to the closing quote when quoted, else up to whitespace,
/// `,`, `;`, `}`, or a quote that closes an enclosing string.
Value value_at(std::string_view text, std::size_t offset) noexcept {
    // A quoted value inside a quoted string (`"export TOKEN=\"…\""`, as a tag is written in a
    // memory's frontmatter) ends at the escaped quote that matches the one it starts with.
    if (offset + 1 < text.size() && text[offset] == '\\' && (text[offset + 1] == '"' || text[offset + 1] == '\'')) {
        const std::string_view closing = text.substr(offset, 2);
        const std::size_t end = text.find(closing, offset + 2);
        const std::size_t line_end = text.find('\n', offset + 2);
        return {offset + 2, std::min({end, line_end, text.size()})};
    }
    if (offset < text.size() && (text[offset] == '"' || text[offset] == '\'')) {
        const char quote = text[offset];
        std::size_t end = offset + 1;
        while (end < text.size() && text[end] != quote && text[end] != '\n') {
            end += text[end] == '\\' && end + 1 < text.size() ? 2U : 1U;
        }
        return {offset + 1, std::min(end, text.size())};
    }
    std::size_t end = offset;
    while (end < text.size() && static_cast<unsigned char>(text[end]) > ' ' && text[end] != ',' && text[end] != ';' &&
           text[end] != '}' &&
           text[end] != '"' && text[end] != '\'' && text[end] != '`' && !starts_query_parameter(text, end)) {
        ++end;
    }
    return {offset, end};
}

std::size_t skip_blanks(std::string_view text, std::size_t offset) noexcept {
    return run_end(text, offset, [](char c) { return c == ' ' || c == '\t'; });
}

/// Whether a value is code or prose rather than a secret. `operator_at` is its `=` or `:`.
///  - a comparison: `token == "-"`;
///  - a call, subscript or scope (`body.get(`, `first["refresh_token"]`, `token_type::end`), a keyword
///    (`await`), or a variable's name: `secret_key`, `settings.api_token`, `access` in
///    `f(access_token=access, …)`, `passwd` in `self.passwd = passwd`, `pwd` in `a = pwd = b`;
///  - prose after a colon: "password: The password for the account";
///  - a quote that closed a string: `"/reset?token=" in body`, `prompt='Password: ', stream=None`.
bool is_code(std::string_view text, std::size_t operator_at, Value value) noexcept {
    const char op = text[operator_at];
    if (op == '=' && ((operator_at + 1 < text.size() && text[operator_at + 1] == '=') ||
                      (operator_at > 0 && (text[operator_at - 1] == '!' || text[operator_at - 1] == '<' ||
                                           text[operator_at - 1] == '>' || text[operator_at - 1] == '=')))) {
        return true;
    }
    const auto content = text.substr(value.begin, value.end - value.begin);
    const bool quoted = value.begin > 0 && (text[value.begin - 1] == '"' || text[value.begin - 1] == '\'');
    if (quoted) {
        return !content.empty() && (content.front() == ' ' || content.front() == ',' || content.front() == ')');
    }
    if (content.find_first_of("()[]") != std::string_view::npos || content.find("::") != std::string_view::npos ||
        content.ends_with(':')) {
        return true; // `token_type::end`, a label (`Pass :meth:`)
    }
    constexpr std::array<std::string_view, 8> kKeywords{{"await", "new", "this", "self", "function", "lambda", "yield", "async"}};
    for (const auto keyword : kKeywords) {
        if (content == keyword) {
            return true; // `const token = await this.getAccessToken();`
        }
    }
    if (any_of(content, is_digit) || !all_of(content, [](char c) { return is_alpha(c) || c == '_' || c == '.'; })) {
        return false; // `correct-horse-battery-staple` is a passphrase
    }
    // Letters only from here: a name in code, or a word of prose ("password: The password for …").
    const std::size_t after = skip_blanks(text, value.end);
    const char next = after < text.size() ? text[after] : '\n';
    const bool spaced_assignment = op == '=' && operator_at > 0 && text[operator_at - 1] == ' ' &&
                                   operator_at + 1 < text.size() && text[operator_at + 1] == ' ';
    const bool argument = value.end < text.size() && (text[value.end] == ',' || text[value.end] == ')');
    const bool expression = after > value.end && (next == '=' || next == '+' || next == '|' || next == '&');
    // What an earlier redaction put after it stands for a word too: redacting again changes nothing.
    const bool prose = op == ':' && after > value.end && (is_alpha(next) || is_marker_at(text, after));
    return argument || expression || prose || spaced_assignment ||
           any_of(content, [](char c) { return c == '_' || c == '.'; });
}

/// What a value's introduction starts with: an assignment's `=` or `:`, or prose's `is`/`IS`.
constexpr bool may_start_value(char c) noexcept { return c == '=' || c == ':' || c == 'i' || c == 'I'; }


/// In prose, a value counts only if it looks generated: long, letters and digits mixed.
bool looks_generated(std::string_view value) noexcept {
    return value.size() >= 16 && all_of(value, is_base64) && any_of(value, is_digit) && any_of(value, is_alpha);
}

/// `<credential word> is <value>` / `<credential word>: <value>` without an assignment's syntax,
/// as people write it: "the twilio auth token is 9f86…". Only a generated-looking value counts.
std::optional<Value> prose_value(std::string_view text, std::size_t offset) noexcept {
    offset = skip_blanks(text, offset);
    if (text.substr(offset, 3) == "is " || text.substr(offset, 3) == "IS ") {
        offset = skip_blanks(text, offset + 3);
    } else {
        return std::nullopt;
    }
    const Value value = value_at(text, offset);
    if (!looks_generated(text.substr(value.begin, value.end - value.begin))) {
        return std::nullopt;
    }
    return value;
}

} // namespace

void find_assignments(std::string_view text, Spans &found) {
    std::size_t scan = 0;
    while (scan < text.size()) {
        if (const std::size_t marker = text[scan] == '[' ? marker_length_at(text, scan) : 0; marker != 0) {
            scan += marker; // `[REDACTED:twilio-auth-token]` names nothing
            continue;
        }
        if (!is_alnum(text[scan]) && text[scan] != '_') {
            ++scan;
            continue;
        }
        if (scan > 0 && is_name_byte(text[scan - 1])) {
            scan = run_end(text, scan, is_name_byte);
            continue;
        }
        // A name right after a colon is a field of an identifier (`arn:aws:…:secret:prod/db`), no key.
        const bool in_identifier = scan > 0 && text[scan - 1] == ':';
        const std::size_t name_end = run_end(text, scan, is_name_byte);
        const auto name = text.substr(scan, name_end - scan);
        const bool quoted_key = scan > 0 && (text[scan - 1] == '"' || text[scan - 1] == '\'') && name_end < text.size() &&
                                text[name_end] == text[scan - 1];
        scan = name_end;
        const std::size_t offset = skip_blanks(text, quoted_key ? name_end + 1 : name_end);
        // Most words are followed by none of what starts a value (`=`, `:`, prose's `is `): they need
        // no look at the names.
        if (offset >= text.size() || !may_start_value(text[offset])) {
            continue;
        }
        const std::string_view kind =
            in_identifier || names_reference(text, scan) ? std::string_view{} : credential_kind(name, quoted_key);
        if (kind.empty()) {
            continue;
        }
        std::optional<Value> value;
        // A connection string's value is never quoted: a quote after `AccountKey=` ends an excerpt.
        const bool connection_string = kind.starts_with("azure-");
        if (offset < text.size() && (text[offset] == '=' || text[offset] == ':') && connection_string) {
            const std::size_t begin = offset + 1;
            value = Value{begin, run_end(text, begin, is_base64)};
        } else if (offset < text.size() && (text[offset] == '=' || text[offset] == ':')) {
            value = value_at(text, skip_blanks(text, offset + 1));
        } else if (kind == "credential") {
            value = prose_value(text, offset);
        }
        // Shorter values are examples (`password: 'bar'`, `API_KEY=123`) or fields (`'PW_PASSWD': 1`).
        constexpr std::size_t kShortestValue = 4;
        // A value that holds an earlier redaction's marker had its secret found already: judging it
        // again, without the secret, could only tell a different story.
        if (!value || value->end - value->begin < kShortestValue ||
            holds_marker(text.substr(value->begin, value->end - value->begin)) ||
            is_placeholder(text.substr(value->begin, value->end - value->begin)) ||
            is_name_of_code(text.substr(value->begin, value->end - value->begin)) ||
            (text[offset] != 'i' && text[offset] != 'I' && is_code(text, offset, *value))) {
            continue;
        }
        found.push_back({value->begin, value->end, std::string{kind}});
        scan = value->end;
    }
}

} // namespace starling::core::secrets
