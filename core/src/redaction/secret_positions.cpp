// SPDX-License-Identifier: Apache-2.0
// Secrets recognised by where they sit rather than by their own shape: inside a private key block,
// between `:` and `@` of a URL, in the last field of a .pgpass line, in the path of a webhook URL,
// after a Telegram bot's numeric id, after a Twilio account id or API key id, after `curl -u user:`,
// around the `Q~` of a Microsoft Entra client secret.
#include "redaction/secret_characters.hpp"
#include "redaction/secret_scanning.hpp"

#include <array>

namespace starling::core::secrets {
namespace {

/// `-----BEGIN … PRIVATE KEY-----` up to the matching END line, or the end of the text.
void find_private_keys(std::string_view text, Spans &found) {
    std::size_t position = 0;
    while (true) {
        const auto begin = find_from(text, "-----BEGIN ", position);
        if (begin == std::string_view::npos) {
            return;
        }
        const auto header_end = find_from(text, "-----", begin + 11);
        if (header_end == std::string_view::npos) {
            return;
        }
        if (text.substr(begin + 11, header_end - begin - 11).find("PRIVATE KEY") == std::string_view::npos) {
            position = header_end;
            continue;
        }
        const auto end_marker = find_from(text, "-----END ", header_end + 5);
        const auto end_close = end_marker == std::string_view::npos ? end_marker : find_from(text, "-----", end_marker + 9);
        const std::size_t end = end_close == std::string_view::npos ? text.size() : end_close + 5;
        found.push_back({begin, end, "private-key"});
        position = end;
    }
}

constexpr bool ends_url(char c) noexcept {
    return is_space(c) || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`';
}

/// `scheme://user:password@host`: the password, which may hold `/` (then the part before the first
/// `/` must not be a port: `https://host:8080/a@b` has none).
void find_url_passwords(std::string_view text, Spans &found) {
    std::size_t position = 0;
    while ((position = find_from(text, "://", position)) != std::string_view::npos) {
        const std::size_t user_start = position + 3;
        position = user_start;
        std::size_t colon = user_start;
        while (colon < text.size() && !ends_url(text[colon]) && text[colon] != ':' && text[colon] != '/' &&
               text[colon] != '@') {
            ++colon;
        }
        // The colon of an earlier redaction's marker (`client_secret=[REDACTED:…]`) parts no user from
        // a password.
        if (colon >= text.size() || text[colon] != ':' || (colon >= 9 && is_marker_at(text, colon - 9))) {
            continue;
        }
        std::size_t at = colon + 1;
        while (at < text.size() && !ends_url(text[at]) && text[at] != '@') {
            ++at;
        }
        if (at >= text.size() || text[at] != '@' || at == colon + 1) {
            continue;
        }
        const auto password = text.substr(colon + 1, at - colon - 1);
        const auto slash = password.find('/');
        if (slash != std::string_view::npos && all_of(password.substr(0, slash), is_digit)) {
            continue; // host:port/path@…
        }
        if (!is_marker_at(text, colon + 1) && !is_placeholder(password)) {
            found.push_back({colon + 1, at, "url-password"});
        }
        position = at;
    }
}

/// `hostname:port:database:username:password`, the port a number or `*`, on a line of its own or
/// as one whitespace-separated word. `\:` inside a field is an escaped colon.
void find_pgpass_lines(std::string_view text, Spans &found) {
    std::size_t scan = 0;
    std::size_t colon = 0;
    // Only a word with a colon can be one: from colon to colon, each such word once.
    while ((colon = text.find(':', scan)) != std::string_view::npos) {
        std::size_t start = colon;
        while (start > scan && !is_space(text[start - 1])) {
            --start;
        }
        const std::size_t end = run_end(text, colon, [](char c) { return !is_space(c); });
        scan = end;
        if (holds_marker(text.substr(start, end - start))) {
            continue; // a marker's colon is no field's end
        }
        std::array<std::size_t, 4> colons{};
        std::size_t count = 0;
        for (std::size_t offset = start; offset < end; ++offset) {
            if (text[offset] == '\\') {
                ++offset;
            } else if (text[offset] == ':') {
                if (count == colons.size()) {
                    count = colons.size() + 1;
                    break;
                }
                colons[count++] = offset;
            }
        }
        if (count != colons.size()) {
            continue;
        }
        const auto port = text.substr(colons[0] + 1, colons[1] - colons[0] - 1);
        // A host is a name, an address or `*`: `4:4:4->4:2:0` of a changelog is no .pgpass line.
        const auto host = text.substr(start, colons[0] - start);
        if (host != "*" && !any_of(host, is_alpha) && host.find('.') == std::string_view::npos) {
            continue;
        }
        const bool fields_filled = colons[0] > start && colons[2] > colons[1] + 1 && colons[3] > colons[2] + 1 &&
                                   end > colons[3] + 1;
        if (fields_filled && (port == "*" || (!port.empty() && port.size() <= 5 && all_of(port, is_digit))) &&
            !is_marker_at(text, colons[3] + 1)) {
            found.push_back({colons[3] + 1, end, "pgpass-password"});
        }
    }
}

struct Webhook {
    std::string_view host_and_path; ///< what precedes the secret part of the URL
    std::string_view kind;
};

constexpr std::array<Webhook, 4> kWebhooks{{
    {"hooks.slack.com/services/", "slack-webhook"},
    {"hooks.slack.com/workflows/", "slack-webhook"},
    {"discord.com/api/webhooks/", "discord-webhook"},
    {"discordapp.com/api/webhooks/", "discord-webhook"},
}};

/// The path after a webhook's fixed part: whoever has it can post as the integration.
void find_webhooks(std::string_view text, Spans &found) {
    if (find_from(text, "hooks", 0) == std::string_view::npos) {
        return; // in every host_and_path
    }
    for (const auto &webhook : kWebhooks) {
        std::size_t position = 0;
        while ((position = find_from(text, webhook.host_and_path, position)) != std::string_view::npos) {
            const std::size_t start = position + webhook.host_and_path.size();
            const std::size_t end = run_end(text, start, [](char c) { return is_word(c) || c == '/'; });
            if (end > start + 8) {
                found.push_back({start, end, std::string{webhook.kind}});
            }
            position = end;
        }
    }
}

/// `<bot id>:<35 characters>`, the bot id 8 to 10 digits: the secret is the whole token. Tokens of
/// 30 to 40 characters are taken too (34 are seen), when mixed case tells them from identifiers.
void find_telegram_tokens(std::string_view text, Spans &found) {
    std::size_t position = 0;
    while ((position = text.find(':', position)) != std::string_view::npos) {
        const std::size_t colon = position++;
        std::size_t digits_start = colon;
        while (digits_start > 0 && is_digit(text[digits_start - 1])) {
            --digits_start;
        }
        const std::size_t digits = colon - digits_start;
        // Inside a word only as the Bot API writes it: `https://api.telegram.org/bot<token>/getMe`.
        const bool after_bot = digits_start >= 3 && text.substr(digits_start - 3, 3) == "bot";
        if (digits < 8 || digits > 10 || (digits_start > 0 && is_word(text[digits_start - 1]) && !after_bot)) {
            continue;
        }
        const std::size_t end = run_end(text, colon + 1, is_word);
        const auto tail = text.substr(colon + 1, end - colon - 1);
        if (tail.size() >= 30 && tail.size() <= 40 && any_of(tail, is_upper) && any_of(tail, is_lower)) {
            found.push_back({digits_start, end, "telegram-bot-token"});
        }
    }
}

/// Microsoft Entra (Azure AD) client secrets: three characters, a digit, `Q~`, then 31 to 34 more
/// of [A-Za-z0-9_~.-] — the `Q~` at the fifth byte is what tells them, as people paste them bare.
void find_azure_ad_client_secrets(std::string_view text, Spans &found) {
    constexpr auto is_secret_byte = [](char c) { return is_word(c) || c == '~' || c == '.'; };
    std::size_t position = 0;
    while ((position = find_from(text, "Q~", position)) != std::string_view::npos) {
        const std::size_t marker = position;
        position += 2;
        if (marker < 4 || !is_digit(text[marker - 1])) {
            continue;
        }
        const std::size_t start = marker - 4;
        if (!all_of(text.substr(start, 3), [](char c) { return is_alnum(c) || c == '_' || c == '~' || c == '.'; }) ||
            (start > 0 && is_secret_byte(text[start - 1]))) {
            continue;
        }
        const std::size_t end = run_end(text, position, is_secret_byte);
        std::size_t secret_end = end;
        while (secret_end > position && text[secret_end - 1] == '.') {
            --secret_end; // a sentence's full stop
        }
        const std::size_t tail = secret_end - position;
        if (tail >= 31 && tail <= 34) {
            found.push_back({start, secret_end, "azure-ad-client-secret"});
        }
        position = end;
    }
}

/// A Twilio API key's secret, 32 letters and digits, written soon after the key's id (`SK` and 32
/// hex digits): "key SK… with secret …", `twilio("SK…", "…")`, `SK…:…`.
void find_twilio_key_secrets(std::string_view text, Spans &found) {
    constexpr std::size_t kWithin = 24; // bytes between the id and its secret
    std::size_t position = 0;
    while ((position = find_from(text, "SK", position)) != std::string_view::npos) {
        const std::size_t start = position;
        position += 2;
        if ((start > 0 && is_word(text[start - 1])) || text.size() < start + 34 ||
            !all_of(text.substr(start + 2, 32), is_lower_hex) || (start + 34 < text.size() && is_word(text[start + 34]))) {
            continue;
        }
        const std::size_t limit = std::min(text.size(), start + 34 + kWithin);
        for (std::size_t scan = start + 34; scan < limit && text[scan] != '\n';) {
            if (!is_alnum(text[scan])) {
                ++scan;
                continue;
            }
            const std::size_t end = run_end(text, scan, is_word);
            if (end - scan == 32 && all_of(text.substr(scan, 32), is_alnum) && any_of(text.substr(scan, 32), is_digit) &&
                any_of(text.substr(scan, 32), is_upper)) {
                found.push_back({scan, end, "twilio-api-key-secret"});
                break;
            }
            scan = end;
        }
    }
}

/// `AC<32 hex>:<32 hex>`, as in `curl -u AC…:…`: the part after the colon is the auth token.
void find_twilio_auth_tokens(std::string_view text, Spans &found) {
    std::size_t position = 0;
    while ((position = find_from(text, "AC", position)) != std::string_view::npos) {
        const std::size_t start = position;
        position += 2;
        if ((start > 0 && is_word(text[start - 1])) || text.size() < start + 2 + 32 + 1 + 32) {
            continue;
        }
        if (!all_of(text.substr(start + 2, 32), is_lower_hex) || text[start + 34] != ':') {
            continue;
        }
        const std::size_t token = start + 35;
        const std::size_t end = run_end(text, token, is_word);
        if (end - token == 32 && all_of(text.substr(token, 32), is_lower_hex)) {
            found.push_back({token, end, "twilio-auth-token"});
        }
    }
}

/// `curl -u user:password` / `--user user:password`: the password, which curl sends as Basic auth.
void find_curl_user_passwords(std::string_view text, Spans &found) {
    for (const std::string_view option : {std::string_view{" -u "}, std::string_view{" --user "}}) {
        std::size_t position = 0;
        while ((position = find_from(text, option, position)) != std::string_view::npos) {
            std::size_t start = position + option.size();
            position = start;
            const bool quoted = start < text.size() && (text[start] == '"' || text[start] == '\'');
            start += quoted ? 1 : 0;
            const std::size_t end = run_end(text, start, [&](char c) {
                return !is_space(c) && c != '"' && c != '\'';
            });
            const auto credentials = text.substr(start, end - start);
            // The colon between user and password, not one of an earlier redaction's marker
            // (`[REDACTED:…]:secret`, `user[REDACTED:credential]`).
            std::size_t colon = credentials.find(':');
            while (colon != std::string_view::npos && colon >= 9 && is_marker_at(text, start + colon - 9)) {
                colon = credentials.find(':', colon - 9 + marker_length_at(text, start + colon - 9));
            }
            if (colon == std::string_view::npos || colon == 0 || colon + 1 == credentials.size() ||
                is_marker_at(text, start + colon + 1)) {
                continue;
            }
            found.push_back({start + colon + 1, end, "basic-auth"});
        }
    }
}

} // namespace

void find_positioned_secrets(std::string_view text, Spans &found) {
    // All but four need a colon (`user:password`, `host:port:…`, `id:token`), which most texts lack.
    // The order stays that of the list: it names a span two scanners find alike.
    const bool has_colon = text.find(':') != std::string_view::npos;
    find_private_keys(text, found);
    if (has_colon) {
        find_url_passwords(text, found);
        find_pgpass_lines(text, found);
    }
    find_webhooks(text, found);
    find_azure_ad_client_secrets(text, found);
    find_twilio_key_secrets(text, found);
    if (has_colon) {
        find_telegram_tokens(text, found);
        find_twilio_auth_tokens(text, found);
        find_curl_user_passwords(text, found);
    }
}

} // namespace starling::core::secrets
