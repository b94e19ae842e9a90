// SPDX-License-Identifier: Apache-2.0
// The scanners behind find_builtin_secrets, one family per translation unit. Each appends the spans
// it recognises; they may overlap one another, find_builtin_secrets sorts and merges them.
#pragma once

#include <starling/core/redaction/redaction.hpp>

#include <string_view>
#include <vector>

namespace starling::core::secrets {

using Spans = std::vector<SecretSpan>;

/// Vendor tokens recognised by their shape alone (prefix, length, alphabet), JWTs, and the value
/// after `Bearer`, `Authorization: Basic`, and a UUID named a Heroku key.
void find_shaped_tokens(std::string_view text, Spans &found);

/// Values of credential names: `password=…`, `"apiKey": "…"`, `AccountKey=…;` in connection
/// strings, Docker's `"auth": "…"`, and `<credential word> is <value>` in prose.
void find_assignments(std::string_view text, Spans &found);

/// Secrets recognised by where they sit: private key blocks, the password of a URL, .pgpass
/// lines, webhook URLs, Telegram bot tokens, a Twilio auth token after its account id, and the
/// password of `curl -u user:password`.
void find_positioned_secrets(std::string_view text, Spans &found);

/// Secrets recognised by their context (docs/secrets.md, "By context"): a value that looks
/// generated after a word naming a secret in English, German or Chinese; the value of a command's
/// password option (`--password …`, `mysql -p…`, `docker login -p …`); a JSON Web Key's private
/// members.
void find_contextual_secrets(std::string_view text, Spans &found);

/// Whether the name around `offset` is a reference to a secret held elsewhere: `${DB_PASSWORD}`,
/// `$API_TOKEN`, `%API_KEY%`, `${{ secrets.NPM_TOKEN }}`, `{{ .Values.token }}`.
[[nodiscard]] bool names_reference(std::string_view text, std::size_t offset) noexcept;

/// Whether a credential's value is a stand-in rather than a secret: a reference (`$TOKEN`,
/// `${{ secrets.NPM_TOKEN }}`, `%API_KEY%`, `<your-token>`), a mask (`********`), or words that
/// say so (`changeme`, `YOUR_API_KEY`, `test-password`, `null`).
[[nodiscard]] bool is_placeholder(std::string_view value) noexcept;

/// Whether a value names something in code rather than holding a secret: a qualified name
/// (`cryptography.x509.Certificate`), or a name whose last part, or a part before a capital, is a
/// secret word (`Ed25519PrivateKey`, `consumer.secret`, `_pep_440_key`, `RefreshTokenGrant`).
/// `MyPassword123` is no such name.
[[nodiscard]] bool is_name_of_code(std::string_view value) noexcept;

/// The length of the earlier redaction's marker (`[REDACTED:<kind>]`, kind of [a-z0-9-]) at
/// `offset`, or 0: nothing to find again there. Only a whole marker counts, so that text that merely
/// starts like one (`[REDACTED:~.;`) hides nothing after it.
[[nodiscard]] std::size_t marker_length_at(std::string_view text, std::size_t offset) noexcept;

/// Whether `text` holds the opening of an earlier redaction's marker anywhere: what holds one was
/// judged before, and judging it again without its secret could tell a different story.
[[nodiscard]] bool holds_marker(std::string_view text) noexcept;

/// Whether an earlier redaction's marker starts at `offset` (marker_length_at is not 0).
[[nodiscard]] bool is_marker_at(std::string_view text, std::size_t offset) noexcept;

} // namespace starling::core::secrets
