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

/// Whether the bytes at `offset` are an earlier redaction's marker: nothing to find again there.
[[nodiscard]] bool is_marker_at(std::string_view text, std::size_t offset) noexcept;

} // namespace starling::core::secrets
