// SPDX-License-Identifier: Apache-2.0
// Secrets recognised by where they sit rather than by a vendor's shape, in the manner of gitleaks'
// generic rule: a value that looks generated next to a word that names a secret (English, German,
// Chinese), a login command's password option, and the private members of a JSON Web Key.
#include "redaction/secret_characters.hpp"
#include "redaction/secret_scanning.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>

namespace starling::core::secrets {
namespace {

// ---------------------------------------------------------------------------------------------
// What a value that looks generated is

/// The bytes a generated value is made of: printable ASCII but blanks, quotes, brackets, the
/// punctuation that ends a value in prose or code (`,` `;` `:`), `=` of an assignment and `|` of a
/// pipe or a list (`registry|token is|…`).
constexpr bool is_value_byte(char c) noexcept {
    if (c <= ' ' || c > '~') {
        return false;
    }
    switch (c) {
    case '"': case '\'': case '`': case '\\': case ',': case ';': case ':': case '=': case '|':
    case '(': case ')': case '[': case ']': case '{': case '}': case '<': case '>':
        return false;
    default: return true;
    }
}

/// What an introduced value (`password: …`, "the passphrase is …") is made of: up to a blank or a
/// quote, `=` and `:` inside included (`D=-3Lfqhnj1AqPqn*@b%iJ`).
constexpr bool is_introduced_value_byte(char c) noexcept {
    return is_value_byte(c) || c == '=' || c == ':';
}

/// Shannon entropy in bits per byte: random base62 of 16 bytes has about 3.8, an English word of
/// the same length about 3.2, a repeated placeholder (`xxxxxxxx`) 0.
double entropy(std::string_view value) noexcept {
    std::array<unsigned, 128> counts{};
    for (const char c : value) {
        ++counts[static_cast<unsigned char>(c) & 0x7F];
    }
    double bits = 0.0;
    const auto size = static_cast<double>(value.size());
    for (const unsigned count : counts) {
        if (count != 0) {
            const double share = count / size;
            bits -= share * std::log2(share);
        }
    }
    return bits;
}

bool is_uuid_shaped(std::string_view value) noexcept {
    if (value.size() != 36) {
        return false;
    }
    for (std::size_t index = 0; index < value.size(); ++index) {
        const bool dash = index == 8 || index == 13 || index == 18 || index == 23;
        if (dash ? value[index] != '-' : !is_hex(value[index])) {
            return false;
        }
    }
    return true;
}

/// Git's abbreviated and full SHA-1 and SHA-256 object names, OpenPGP key ids (16) and
/// fingerprints (40, often in capitals).
bool is_hash_shaped(std::string_view value) noexcept {
    const std::size_t size = value.size();
    return ((size >= 7 && size <= 12) || size == 16 || size == 40 || size == 64) &&
           (all_of(value, is_lower_hex) || all_of(value, [](char c) { return is_digit(c) || (c >= 'A' && c <= 'F'); }));
}

/// Random letters have few vowels (about one in five); words and identifiers built of words have
/// more than one in three (`HttpServerConfigurationManager`).
bool letters_look_random(std::string_view value) noexcept {
    std::size_t letters = 0;
    std::size_t vowels = 0;
    for (const char c : value) {
        if (is_alpha(c)) {
            ++letters;
            switch (lower(c)) {
            case 'a': case 'e': case 'i': case 'o': case 'u': case 'y': ++vowels; break;
            default: break;
            }
        }
    }
    return letters >= 20 && vowels * 10 < letters * 3;
}

enum class Introduction {
    direct,     ///< only `:`, `=`, quotes or `is` stand between the word and the value
    introduced, ///< words stand between them, but `:`, `=` or `is` comes right before the value
    adjacent,   ///< only a blank stands between them: "Passwort 53hCbz_lwVt*p0Q9", "auth token 4373…"
    near,       ///< a few words stand between them and nothing introduces the value, or the name goes
                ///< on (`SECRET_KEY_BASE`, `NL80211_KEY_MAX`)
};

/// Whether `value` looks generated enough to be the secret its context names. A value that is
/// introduced (`password: hunter22`, "the password for the admin is hunter22") needs less than one
/// a few words later, which must look random (16 bytes or more, high entropy). References
/// (`$TOKEN`, `${{ secrets.X }}`, `%API_KEY%`), paths, URLs, UUIDs and hashes are never secrets
/// here, but for a full hash that is introduced (`token: <40 hex>`, as old GitHub tokens were;
/// "the signing secret is <64 hex>").
bool looks_generated(std::string_view value, Introduction introduction) noexcept {
    const std::size_t least = introduction == Introduction::near ? 16 : 8;
    if (value.size() < least || value.size() > 4096) {
        return false;
    }
    const char first = value.front();
    if (first == '$' || first == '%' || first == '/' || first == '~' || first == '.' || first == '*' || first == '&' ||
        first == '#' || first == '@' || find_from(value, "://", 0) != std::string_view::npos || value.starts_with("arn:") ||
        value.starts_with("ssh-") || value.starts_with("ecdsa-")) {
        return false;
    }
    if (is_uuid_shaped(value) || (is_hash_shaped(value) && (introduction == Introduction::near || value.size() <= 12))) {
        return false;
    }
    if (const auto slash = value.find('/'); slash != std::string_view::npos && slash > 0 &&
        (all_of(value.substr(0, slash), is_lower) || all_of(value.substr(0, slash), is_digit))) {
        return false; // a path (`prod/db/password-AbCdEf`) or a port and path (`5432/app`)
    }
    if (value.starts_with("0x")) {
        return false; // a number: `GnuPG key: 0x7EC2DBB6F4DBF434`
    }
    const bool letter = any_of(value, is_alpha);
    const bool digit = any_of(value, is_digit);
    if (introduction == Introduction::adjacent) {
        // A password's look (letters, digits and a symbol or both cases), or 32 hex digits and more.
        const bool password = value.size() >= 12 && letter && digit &&
                              ((any_of(value, is_upper) && any_of(value, is_lower)) ||
                               any_of(value, [](char c) { return !is_alnum(c) && c != '-' && c != '.' && c != '_'; }));
        const bool long_hex = value.size() >= 32 && all_of(value, is_lower_hex) && !is_hash_shaped(value);
        return (password || long_hex) && !is_uuid_shaped(value) && entropy(value) >= 3.0;
    }
    if (introduction == Introduction::near) {
        // Nothing introduces it: only a value that cannot be a word or a name of code counts — 20
        // bytes or more of upper and lower case and digits, not parts joined like an identifier
        // (`TLS_CIPHER_AES_GCM_256_KEY_SIZE`, `pbeWithSHA1And2-KeyTripleDES-CBC`).
        // Or 32 hex digits and more that no hash is as long as (`SECRET_KEY_BASE=96e2…`).
        const auto joints = std::count_if(value.begin(), value.end(), [](char c) { return c == '_' || c == '-' || c == '.'; });
        const bool random = value.size() >= 20 && digit && any_of(value, is_upper) && any_of(value, is_lower) &&
                            joints < 2 && entropy(value) >= 3.5;
        const bool long_hex = value.size() >= 32 && all_of(value, is_lower_hex) && !is_hash_shaped(value);
        return random || long_hex;
    }
    const bool symbol = any_of(value, [](char c) { return !is_alnum(c) && c != '-' && c != '_' && c != '.' && c != '/'; });
    const bool mixed_case = any_of(value, is_upper) && any_of(value, is_lower);
    const bool composed = (letter && digit) || (letter && symbol && (digit || mixed_case)) ||
                          (introduction == Introduction::direct && mixed_case && letters_look_random(value));
    if (!composed) {
        return false;
    }
    const double least_entropy = value.size() >= 16 ? 3.0 : 2.5;
    return entropy(value) >= least_entropy;
}

} // namespace

bool names_reference(std::string_view text, std::size_t offset) noexcept {
    std::size_t start = offset;
    while (start > 0 && (is_word(text[start - 1]) || text[start - 1] == '.')) {
        --start;
    }
    if (start > 0 && (text[start - 1] == '$' || text[start - 1] == '{' || text[start - 1] == '%')) {
        return true;
    }
    while (start > 0 && text[start - 1] == ' ') {
        --start;
    }
    return start >= 2 && text.substr(start - 2, 2) == "{{";
}

bool is_placeholder(std::string_view value) noexcept {
    if (value.empty()) {
        return true;
    }
    const char first = value.front();
    if (first == '$' || first == '<' || first == '{' || first == '%' || first == '[' || first == '#' || first == ':' ||
        value.find("...") != std::string_view::npos || value.find("\xE2\x80\xA6") != std::string_view::npos ||
        value.find("xxx") != std::string_view::npos || value.find("XXX") != std::string_view::npos ||
        (value.find('<') != std::string_view::npos && value.find('>') != std::string_view::npos) ||
        all_of(value, [](char c) { return c == '*' || c == 'x' || c == 'X' || c == '.' || c == '-' || c == '_'; })) {
        // A reference (`$TOKEN`, `${{ secrets.X }}`, `%API_KEY%`, `glpat-<your-token>`), a colour
        // (`Token: '#ABB2BF'`), a role of Sphinx (`:py:data:`), or masked.
        return true;
    }
    // Digits only as a last part of lower-case words (`test-password-123`), where they number a
    // stand-in: `Test1234!` is a password.
    std::size_t words_end = value.size();
    while (words_end > 0 && is_digit(value[words_end - 1])) {
        --words_end;
    }
    if (words_end < value.size() &&
        (words_end == 0 || (value[words_end - 1] != '-' && value[words_end - 1] != '_') ||
         !all_of(value.substr(0, words_end), [](char c) { return is_lower(c) || c == '-' || c == '_'; }))) {
        return false;
    }
    if (!all_of(value.substr(0, words_end), [](char c) { return is_alpha(c) || c == '-' || c == '_'; })) {
        return false; // `5a-!l-jjxi07sEAE8&useSSL=true` holds more than words
    }
    // A placeholder when one of its words says so (`changeme`, `your_password_here`,
    // `YOUR_API_KEY`, `test-password`, `not-a-real-secret`), or a word code puts there (`null`).
    constexpr std::array<std::string_view, 37> kWords{{
        "changeme", "change", "your", "here", "example", "placeholder", "dummy", "fake", "sample", "test", "todo",
        "redacted", "null", "none", "nil", "undefined", "true", "false", "str", "string", "bytes", "optional",
        "required", "real", "read", "write", "wrong", "invalid", "replace",
        "credentials", // names where secrets are kept: `existingSecret=auth-credentials`
        "password", "passwd", "username", "user", "pass", // `https://user:password@host`
        "bearer", "basic", // a scheme: `default_token='Bearer'`
    }};
    std::size_t start = 0;
    for (std::size_t index = 0; index <= value.size(); ++index) {
        if (index < value.size() && is_alpha(value[index])) {
            continue;
        }
        const auto word = value.substr(start, index - start);
        for (const auto placeholder : kWords) {
            if (equals_ci(word, placeholder)) {
                return true;
            }
        }
        start = index + 1;
    }
    return false;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Words that name a secret

struct SecretWord {
    std::string_view word;   ///< lower case
    bool needs_word_end;     ///< a prefix of common words (`key` of `keyboard`, `pass` of `passenger`):
                             ///< no letter may follow (`apiKeyId` names no key)
};

/// Matched case-insensitively where a word starts (after a non-letter, or where camelCase starts a
/// new word: `apiKey`, `dbPassword`). Longer words before their prefixes.
constexpr std::array<SecretWord, 20> kAsciiWords{{
    {"passwort", false},     {"password", false},   {"passwd", false},     {"passphrase", false},
    {"pwd", true},         {"secret", false},     {"token", false},
    {"credential", false},   {"creds", true},       {"bearer", false},     {"apikey", false},
    {"authorization", true}, {"auth", true},        {"key", true},         {"pat", true},
    {"kennwort", false},     {"zugangsdaten", false}, {"zugangstoken", false}, {"geheimnis", false},
    {"schluessel", false},
}};

/// German and Chinese words in UTF-8 (`Schlüssel`; 密码 password, 密钥/秘钥 key, 令牌 token, 口令
/// passphrase, 凭据/凭证 credential, 私钥 private key).
constexpr std::array<std::string_view, 10> kUtf8Words{{
    "schl\xC3\xBCssel", "Schl\xC3\xBCssel", "\xE5\xAF\x86\xE7\xA0\x81", "\xE5\xAF\x86\xE9\x92\xA5",
    "\xE7\xA7\x98\xE9\x92\xA5", "\xE4\xBB\xA4\xE7\x89\x8C", "\xE5\x8F\xA3\xE4\xBB\xA4",
    "\xE5\x87\xAD\xE6\x8D\xAE", "\xE5\x87\xAD\xE8\xAF\x81", "\xE7\xA7\x81\xE9\x92\xA5",
}};

/// Words that name what is no secret: met between a secret word and a value (`key fingerprint is
/// SHA256:…`, `token refresh fixed in 3f9a2c1`), or as the rest of its name (`PASSWORD_HASH_ALGORITHM`,
/// `secret_arn`, `token_ttl`), they end the search.
constexpr std::array<std::string_view, 27> kNonSecretNouns{{
    "fingerprint", "hash", "digest", "checksum", "sha", "sha1", "sha256", "sha512", "md5", "commit", "integrity",
    "id", "uuid", "version", "kid", "arn", "name", "url", "uri", "path", "file", "length", "ttl", "type", "algorithm",
    "header", "identifier",
}};

bool is_non_secret_noun(std::string_view word) noexcept {
    for (const auto noun : kNonSecretNouns) {
        if (equals_ci(word, noun)) {
            return true;
        }
    }
    return false;
}

/// Whether a name's parts after the secret word (`_HASH_ALGORITHM` of `PASSWORD_HASH_ALGORITHM`)
/// hold a word that names no secret.
bool names_no_secret(std::string_view rest) noexcept {
    std::size_t index = 0;
    while (index < rest.size()) {
        if (!is_alnum(rest[index])) {
            ++index;
            continue;
        }
        std::size_t end = index + 1;
        while (end < rest.size() && is_alnum(rest[end]) && !(is_lower(rest[end - 1]) && is_upper(rest[end]))) {
            ++end;
        }
        if (is_non_secret_noun(rest.substr(index, end - index))) {
            return true;
        }
        index = end;
    }
    return false;
}

/// Words that introduce a value directly, as `=` does: `the token is …`, `das Passwort lautet …`,
/// `密码是 …`, `密码为 …`, `密码：…`.
constexpr std::array<std::string_view, 9> kIntroducers{{
    "is", "ist", "lautet", "are", "was", "equals", "\xE6\x98\xAF", "\xE4\xB8\xBA", "\xEF\xBC\x9A",
}};

/// Where a secret word may start: not inside a word, and not as a path's segment (`/v1/token/refresh`,
/// `github.com/acme/tokenkit`, `postgres://auth@…`), which names nothing.
bool starts_word_at(std::string_view text, std::size_t offset) noexcept {
    if (offset == 0) {
        return true;
    }
    const char before = text[offset - 1];
    if (before == '/') {
        return false;
    }
    return !is_alpha(before) || (is_lower(before) && is_upper(text[offset])) ||
           (static_cast<unsigned char>(before) >= 0x80 && static_cast<unsigned char>(before) < 0xC0 &&
            offset >= 3 && static_cast<unsigned char>(text[offset - 3]) >= 0xE0); // after a Chinese character
}

/// The end of a secret word that starts at `offset`, or 0.
/// The first letters of kAsciiWords, one bit per letter: most words of a text start with none.
constexpr std::uint32_t kFirstLetters = [] {
    std::uint32_t letters = 0;
    for (const auto &candidate : kAsciiWords) {
        letters |= 1U << (candidate.word[0] - 'a');
    }
    return letters;
}();

std::size_t ascii_word_end(std::string_view text, std::size_t offset) noexcept {
    if (!is_alpha(text[offset]) || (kFirstLetters & (1U << (lower(text[offset]) - 'a'))) == 0 ||
        !starts_word_at(text, offset)) {
        return 0;
    }
    for (const auto &candidate : kAsciiWords) {
        if (candidate.word[0] != lower(text[offset]) || !starts_with_ci(text.substr(offset), candidate.word)) {
            continue;
        }
        std::size_t end = offset + candidate.word.size();
        if (end < text.size() && !candidate.needs_word_end && text[end] == 's' &&
            (end + 1 == text.size() || !is_lower(text[end + 1]))) {
            ++end; // `secrets`, `tokens`, `credentials`
        }
        // The word ends here: `secretsmanager`, `tokenizer`, `passwordless` name no secret.
        if (end < text.size() && (candidate.needs_word_end ? is_alpha(text[end]) : is_lower(text[end]))) {
            continue;
        }
        return end;
    }
    return 0;
}

constexpr std::size_t kWindow = 64; ///< bytes after a secret word in which its value may follow
constexpr std::size_t kMostWordsBetween = 6;

/// Looks for the value that a secret word ending at `word_end` names, on the same line and within
/// kWindow bytes: the rest of the name it is part of is skipped (`SECRET_KEY_BASE`), then each
/// following run is judged; the end of a sentence or statement ends the search.
void find_value_after(std::string_view text, std::size_t word_end, Spans &found) {
    std::size_t scan = run_end(text, word_end, [](char c) { return is_word(c) || c == '.'; });
    if (names_no_secret(text.substr(word_end, scan - word_end))) {
        return;
    }
    // A longer name (`SECRET_KEY_BASE`) says less than one that ends in the word: its value must
    // look random wherever it stands.
    const bool name_goes_on = scan > word_end;
    const std::size_t limit = std::min(text.size(), scan + kWindow);
    bool words_seen = false;        // a word stood between the secret word and `scan`
    std::size_t words_unintroduced = 0; // words since the last introduction, at most kMostWordsBetween
    bool introduced = false; // what stands right before `scan` introduces a value: `=`, `:`, `is`, `lautet`, `是`
    bool pair_introduced = false;
    while (scan < limit) {
        const char c = text[scan];
        if ((static_cast<unsigned char>(c) < ' ' && c != '\t') || c == ';' || c == '{' || c == '}' || text.substr(scan, 3) == "\xE3\x80\x82") {
            return; // the line (or a binary file's record), statement, block or (Chinese) sentence ends
        }
        const bool quote = c == '"' || c == '\'' || c == '`';
        if (quote && scan > 0 && is_alnum(text[scan - 1])) {
            // A quote right after a word closes a string: `msg="invalid credentials" request_id=…`
            // ends there, `"password": "…"` goes on to its value.
            const std::size_t next = run_end(text, scan + 1, [](char b) { return b == ' ' || b == '\t'; });
            if (next >= text.size() || (text[next] != ':' && text[next] != '=')) {
                return;
            }
        }
        if (c == ' ' || c == '\t' || quote || c == '\\') {
            ++scan;
            continue;
        }
        if (c == '=' && words_seen) {
            return; // `request_id=…`: another name's value
        }
        if (c == ',') {
            return; // the next item of a list, or member of a JSON object
        }
        if (text.substr(scan, 2) == "{{" || text.substr(scan, 2) == "${") {
            return; // a template's or shell's reference: `${{ secrets.NPM_TOKEN }}`, `${DB_PASSWORD}`
        }
        if (c == ':' && text.substr(scan + 1, 2) == "//") {
            return; // a URL (`https://…`): its passwords are find_url_passwords' business
        }
        if (c == '=' || c == ':') {
            introduced = true;
            words_unintroduced = 0;
            ++scan;
            continue;
        }
        if (is_marker_at(text, scan)) {
            return; // already redacted
        }
        bool introducer = false;
        // Each introducer starts with one of these bytes: most words need no comparison.
        const bool may_introduce = c == 'i' || c == 'l' || c == 'a' || c == 'w' || c == 'e' ||
                                   static_cast<unsigned char>(c) >= 0x80;
        for (const auto word : may_introduce ? std::span{kIntroducers} : std::span<const std::string_view>{}) {
            const std::size_t end = scan + word.size();
            // An ASCII word ends at a blank (`is_authenticated` is no `is`); a Chinese one anywhere.
            if (text.substr(scan, word.size()) == word &&
                (end >= text.size() || is_space(text[end]) || static_cast<unsigned char>(word[0]) >= 0x80)) {
                scan = end;
                introducer = true;
                break;
            }
        }
        if (introducer) {
            introduced = true;
            words_unintroduced = 0;
            continue;
        }
        if (++words_unintroduced > kMostWordsBetween) {
            return;
        }
        if (static_cast<unsigned char>(c) >= 0x80 || !is_value_byte(c)) {
            // A word of another script, or a bracket: it stands between the secret word and its value.
            scan = run_end(text, scan + 1, [](char b) { return static_cast<unsigned char>(b) >= 0x80; });
            introduced = false;
            words_seen = true;
            continue;
        }
        std::size_t end = scan;
        while (end < text.size() && (introduced ? is_introduced_value_byte(text[end]) && !starts_query_parameter(text, end)
                                                : is_value_byte(text[end]))) {
            ++end;
        }
        std::size_t value_end = end;
        while (value_end > scan && (text[value_end - 1] == '.' || text[value_end - 1] == '!' || text[value_end - 1] == '?' ||
                                    text[value_end - 1] == ':')) {
            --value_end; // a sentence's punctuation, a label's colon
        }
        const auto value = text.substr(scan, value_end - scan);
        if ((end < text.size() && (text[end] == '(' || text[end] == '[')) ||
            (scan > 0 && (text[scan - 1] == '[' || text[scan - 1] == '('))) {
            return; // code: `key := argon2.IDKey(…)`, `key[TLS_CIPHER_KEY_SIZE]`, `key = FIELDS[name]`
        }
        if (is_non_secret_noun(value)) {
            return; // "the key fingerprint is …", "token refresh fixed in commit …"
        }
        const auto introduction = name_goes_on ? Introduction::near
                                  : introduced  ? (words_seen ? Introduction::introduced : Introduction::direct)
                                  : words_seen  ? Introduction::near
                                                : Introduction::adjacent;
        if (looks_generated(value, introduction) && !is_placeholder(value) && !is_name_of_code(value)) {
            found.push_back({scan, value_end, "credential"});
            return;
        }
        if (value_end < end) {
            return; // the sentence ended
        }
        // `credentials: deploy / <password>`: the second of a pair is introduced as the first was.
        pair_introduced = value == "/" ? pair_introduced : introduced;
        introduced = value == "/" && pair_introduced;
        words_seen = true;
        scan = end;
    }
}

/// Whether the secret word at `offset` is the key of a public key: `public_key`, `publicKey`, "public key".
bool follows_public(std::string_view text, std::size_t offset) noexcept {
    for (const std::size_t back : {std::size_t{6}, std::size_t{7}}) {
        if (offset >= back && starts_with_ci(text.substr(offset - back), "public")) {
            return true;
        }
    }
    return false;
}

void find_values_after_secret_words(std::string_view text, Spans &found) {
    for (std::size_t offset = 0; offset < text.size(); ++offset) {
        if (const std::size_t marker = text[offset] == '[' ? marker_length_at(text, offset) : 0; marker != 0) {
            offset += marker - 1; // `[REDACTED:url-password]` names no secret
            continue;
        }
        if (const std::size_t end = ascii_word_end(text, offset); end != 0) {
            if (!names_reference(text, offset) && !follows_public(text, offset)) {
                find_value_after(text, end, found);
            }
            offset = end - 1;
        } else if (is_alpha(text[offset])) {
            // No word starts inside a run of lower-case letters: on to its end, where one may.
            offset = run_end(text, offset + 1, is_lower) - 1;
        }
    }
    if (!any_of(text, [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
        return;
    }
    for (const auto word : kUtf8Words) {
        std::size_t position = 0;
        while ((position = find_from(text, word, position)) != std::string_view::npos) {
            position += word.size();
            find_value_after(text, position, found);
        }
    }
}

} // namespace

bool is_name_of_code(std::string_view value) noexcept {
    if (value.empty() || !(is_alpha(value.front()) || value.front() == '_') ||
        !all_of(value, [](char c) { return is_alnum(c) || c == '_' || c == '.'; })) {
        return false;
    }
    if (std::count(value.begin(), value.end(), '.') >= 2) {
        return true; // `cryptography.x509.Certificate`
    }
    for (std::size_t offset = 0; offset < value.size(); ++offset) {
        if (const std::size_t end = ascii_word_end(value, offset); end != 0) {
            if (end == value.size() || is_upper(value[end])) {
                return true; // `Ed25519PrivateKey`, `consumer.secret`, `_pep_440_key`, `RefreshTokenGrant`
            }
            offset = end - 1;
        }
    }
    return false;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Password options of command lines

/// Long options that take a secret, whatever the command: `--password VALUE`, `--token=VALUE`.
/// (`--secret` is not among them: `docker build --secret id=…,src=…` names where a secret is.)
constexpr std::array<std::string_view, 8> kSecretOptions{{
    "--password", "--passwd", "--pass", "--token", "--client-secret", "--api-key", "--access-token", "--auth-token",
}};

/// Short options that are a password only for some commands (elsewhere `-p` is a port or a path).
struct ShortPasswordOption {
    std::string_view option; ///< with the blank before it: ` -p`
    std::string_view command; ///< a word the line must hold
    bool attached;            ///< `-pVALUE` (MySQL's clients read `-p VALUE` as a database name)
};

constexpr std::array<ShortPasswordOption, 7> kShortPasswordOptions{{
    {" -p", "mysql", true},    {" -p", "mariadb", true}, {" -p", "mysqldump", true}, {" -p", "mysqladmin", true},
    {" -p", "sshpass", false}, {" -p", "login", false},  {" -a", "redis-cli", false},
}};

/// The option's value at `offset` (after `=` or blanks), quoted or not.
void add_option_value(std::string_view text, std::size_t offset, Spans &found) {
    const bool quoted = offset < text.size() && (text[offset] == '"' || text[offset] == '\'');
    const std::size_t begin = offset + (quoted ? 1 : 0);
    const std::size_t end = quoted ? std::min(text.find(text[offset], begin), text.find('\n', begin))
                                   : run_end(text, begin, [](char c) {
                                         return static_cast<unsigned char>(c) > ' ' && c != '"' && c != '\'';
                                     });
    const std::size_t value_end = std::min(end, text.size());
    const auto value = text.substr(begin, value_end - begin);
    // A word of prose is no value: "the --username and --password options".
    const std::size_t after = run_end(text, value_end, [](char c) { return c == ' '; });
    const bool prose = !quoted && all_of(value, is_alpha) && after > value_end && after < text.size() &&
                       (is_alpha(text[after]) || is_marker_at(text, after));
    if (value.size() >= 4 && value.front() != '-' && !prose && !is_placeholder(value) &&
        !holds_marker(value)) {
        found.push_back({begin, value_end, "credential"});
    }
}

void find_long_options(std::string_view text, Spans &found) {
    std::size_t position = 0;
    while ((position = find_from(text, "--", position)) != std::string_view::npos) {
        const std::size_t start = position;
        const std::size_t name_end = run_end(text, start + 2, is_word);
        position = name_end;
        if (start > 0 && !is_space(text[start - 1])) {
            continue;
        }
        const auto name = text.substr(start, name_end - start);
        bool secret = false;
        for (const auto option : kSecretOptions) {
            secret = secret || equals_ci(name, option);
        }
        if (!secret || name_end >= text.size() || (text[name_end] != '=' && text[name_end] != ' ')) {
            continue;
        }
        add_option_value(text, run_end(text, name_end + 1, [](char c) { return c == ' '; }), found);
    }
}

/// The line around `offset`.
std::string_view line_at(std::string_view text, std::size_t offset) noexcept {
    const std::size_t begin = offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1; // npos + 1 == 0
    const std::size_t end = std::min(text.find('\n', offset), text.size());
    return text.substr(begin, end - begin);
}

bool has_word(std::string_view line, std::string_view word) noexcept {
    std::size_t position = 0;
    while ((position = find_from(line, word, position)) != std::string_view::npos) {
        const std::size_t end = position + word.size();
        if ((position == 0 || !is_word(line[position - 1])) && (end == line.size() || !is_word(line[end]))) {
            return true;
        }
        position = end;
    }
    return false;
}

void find_short_password_options(std::string_view text, Spans &found) {
    std::size_t position = 0;
    while ((position = find_from(text, " -", position)) != std::string_view::npos) {
        const std::size_t after = position + 3;
        position += 2;
        if (after > text.size()) {
            break;
        }
        for (const auto &option : kShortPasswordOptions) {
            if (text[position] != option.option[2] || !has_word(line_at(text, position), option.command)) {
                continue;
            }
            if (after == text.size()) {
                break;
            }
            const bool value_follows = is_value_byte(text[after]) || text[after] == '\'' || text[after] == '"';
            if (option.attached && value_follows && text.substr(after, 3) != "ort") {
                add_option_value(text, after, found); // mysql -u root -pVALUE
                break;
            }
            if (!option.attached && text[after] == ' ') {
                add_option_value(text, run_end(text, after, [](char c) { return c == ' '; }), found);
                break;
            } // else another command of the line may still read this option as its password
        }
    }
}

// ---------------------------------------------------------------------------------------------
// JSON Web Keys

/// The members of a JWK that hold its private or symmetric key (RFC 7518, sections 6.2.2, 6.3.2, 6.4).
constexpr std::array<std::string_view, 7> kPrivateMembers{{"\"d\"", "\"p\"", "\"q\"", "\"dp\"", "\"dq\"", "\"qi\"", "\"k\""}};

/// Whether the JSON object around `offset` has a `"kty"` member: the object is a JWK. A JWK is
/// flat (its `oth` array aside), so the object is what lies between the nearest braces.
bool inside_jwk(std::string_view text, std::size_t offset) noexcept {
    const std::size_t open = text.rfind('{', offset);
    const std::size_t close = text.find('}', offset);
    if (open == std::string_view::npos) {
        return false;
    }
    // An earlier redaction between the brace and the member may have taken the object's real opening
    // brace with it: judged as unknown, as the first pass judged it (idempotence).
    if (holds_marker(text.substr(open, offset - open))) {
        return false;
    }
    const auto object = text.substr(open, close == std::string_view::npos ? close : close - open);
    return find_from(object, "\"kty\"", 0) != std::string_view::npos;
}

void find_jwk_private_members(std::string_view text, Spans &found) {
    if (find_from(text, "\"kty\"", 0) == std::string_view::npos) {
        return;
    }
    for (const auto member : kPrivateMembers) {
        std::size_t position = 0;
        while ((position = find_from(text, member, position)) != std::string_view::npos) {
            std::size_t offset = run_end(text, position + member.size(), is_space);
            position += member.size();
            if (offset >= text.size() || text[offset] != ':') {
                continue;
            }
            offset = run_end(text, offset + 1, is_space);
            if (offset >= text.size() || text[offset] != '"') {
                continue;
            }
            const std::size_t begin = offset + 1;
            const std::size_t end = run_end(text, begin, [](char c) { return is_alnum(c) || c == '-' || c == '_'; });
            if (end - begin >= 16 && end < text.size() && text[end] == '"' && inside_jwk(text, begin)) {
                found.push_back({begin, end, "jwk-private-key"});
            }
        }
    }
}

} // namespace

void find_contextual_secrets(std::string_view text, Spans &found) {
    find_jwk_private_members(text, found);
    find_long_options(text, found);
    find_short_password_options(text, found);
    find_values_after_secret_words(text, found);
}

} // namespace starling::core::secrets
