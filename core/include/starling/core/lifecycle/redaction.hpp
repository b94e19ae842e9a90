// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// Text with its secrets replaced by `[REDACTED:<kind>]`, and the kinds that were found.
struct RedactedText {
    std::string text;
    std::vector<std::string> kinds; ///< one entry per replacement, in order of the passes
};

/// Removes secrets before anything is written under STARLING_HOME: private key blocks, passwords in
/// URLs, credentials in assignments (`password=…`, `API_TOKEN: …`, `export GITHUB_TOKEN=…`), bearer
/// tokens, and tokens recognisable by their shape (AWS access keys, GitHub, GitLab, OpenAI, Anthropic,
/// Slack, Google, Stripe and npm tokens, JWTs). It prefers precision over recall, because a false
/// positive destroys knowledge the user meant to keep; the shapes are the vendors' documented ones.
/// Hand-written scanners, no regex: it runs on every prompt.
[[nodiscard]] RedactedText redact_secrets(std::string_view text);

} // namespace starling::core
