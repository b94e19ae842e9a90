// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// Where a secret sits in a text: the bytes [begin, end) and the format it was recognised as
/// (`github-token`, `pgpass-password`, ...). The secret's bytes themselves are never copied.
struct SecretSpan {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string kind;
};

/// Text with its secrets replaced by `[REDACTED:<kind>]`, and the kinds that were found.
struct RedactedText {
    std::string text;
    std::vector<std::string> kinds; ///< one entry per replacement, in text order
};

/// The secrets of the built-in formats in `text`, sorted and not overlapping (see docs/secrets.md
/// for the list): private key blocks, passwords in URLs and .pgpass lines, credentials in
/// assignments, headers and connection strings, and tokens recognisable by their vendor's shape.
/// Precision comes before recall, because a false positive destroys knowledge the user meant to
/// keep: hashes, UUIDs, paths and prose are left alone. Hand-written scanners, no regex: a prompt
/// hook runs this on every prompt, and a kilobyte costs microseconds.
[[nodiscard]] std::vector<SecretSpan> find_builtin_secrets(std::string_view text);

/// `text` with every span replaced by `[REDACTED:<kind>]`. `spans` must be sorted and disjoint.
[[nodiscard]] RedactedText replace_spans(std::string_view text, const std::vector<SecretSpan> &spans);

/// The built-in formats plus the user's own patterns (`[redaction] extra_patterns`).
class Redactor {
public:
    /// Built-in formats only.
    Redactor() = default;
    /// Built-in formats and `extra_patterns`, ECMAScript regular expressions: a match is redacted
    /// as `extra-pattern`, only its first capture group when it has one. Throws std::regex_error
    /// for a pattern that does not compile (configuration validates them first, naming the key).
    explicit Redactor(const std::vector<std::string> &extra_patterns);

    /// Every secret in `text`, sorted and not overlapping.
    [[nodiscard]] std::vector<SecretSpan> find(std::string_view text) const;
    /// `text` with every secret replaced. Redacting redacted text changes nothing.
    [[nodiscard]] RedactedText redact(std::string_view text) const;

private:
    struct ExtraPatterns; // std::regex stays out of this header: most includers never compile one
    std::shared_ptr<const ExtraPatterns> extra_patterns_;
};

/// A redactor of the built-in formats, shared by whoever has no configuration at hand.
[[nodiscard]] std::shared_ptr<const Redactor> builtin_redactor();

/// Removes secrets of the built-in formats (builtin_redactor()->redact(text)).
[[nodiscard]] RedactedText redact_secrets(std::string_view text);

} // namespace starling::core
