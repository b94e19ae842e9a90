// SPDX-License-Identifier: Apache-2.0
#include <starling/core/redaction/redaction.hpp>

#include "redaction/secret_scanning.hpp"

#include <algorithm>
#include <regex>

namespace starling::core {

namespace secrets {

namespace {

constexpr std::string_view kMarkerOpening = "[REDACTED:";

} // namespace

bool holds_marker(std::string_view text) noexcept { return text.find(kMarkerOpening) != std::string_view::npos; }

std::size_t marker_length_at(std::string_view text, std::size_t offset) noexcept {
    constexpr std::size_t kLongestKind = 40;
    if (text.substr(offset, kMarkerOpening.size()) != kMarkerOpening) {
        return 0;
    }
    std::size_t end = offset + kMarkerOpening.size();
    while (end < text.size() && end - offset - kMarkerOpening.size() < kLongestKind &&
           ((text[end] >= 'a' && text[end] <= 'z') || (text[end] >= '0' && text[end] <= '9') || text[end] == '-')) {
        ++end;
    }
    return end > offset + kMarkerOpening.size() && end < text.size() && text[end] == ']' ? end + 1 - offset : 0;
}

bool is_marker_at(std::string_view text, std::size_t offset) noexcept { return marker_length_at(text, offset) != 0; }

} // namespace secrets

namespace {

/// Sorted by start; overlapping spans become one, named after the one that starts first (the
/// longer one when two start together, the one found first when they also end together: the
/// scanners run from the most specific format to the most general).
std::vector<SecretSpan> sorted_disjoint(std::vector<SecretSpan> spans) {
    std::stable_sort(spans.begin(), spans.end(), [](const SecretSpan &left, const SecretSpan &right) {
        return left.begin != right.begin ? left.begin < right.begin : left.end > right.end;
    });
    std::vector<SecretSpan> merged;
    for (auto &span : spans) {
        if (!merged.empty() && span.begin < merged.back().end) {
            merged.back().end = std::max(merged.back().end, span.end);
            continue;
        }
        merged.push_back(std::move(span));
    }
    return merged;
}

} // namespace

std::vector<SecretSpan> find_builtin_secrets(std::string_view text) {
    secrets::Spans found;
    secrets::find_positioned_secrets(text, found);
    secrets::find_shaped_tokens(text, found);
    secrets::find_assignments(text, found);
    secrets::find_contextual_secrets(text, found);
    return sorted_disjoint(std::move(found));
}

RedactedText replace_spans(std::string_view text, const std::vector<SecretSpan> &spans) {
    RedactedText result;
    result.text.reserve(text.size());
    std::size_t position = 0;
    for (const auto &span : spans) {
        result.text.append(text.substr(position, span.begin - position));
        result.text.append(secrets::kMarkerOpening).append(span.kind).push_back(']');
        result.kinds.push_back(span.kind);
        position = span.end;
    }
    result.text.append(text.substr(position));
    return result;
}

struct Redactor::ExtraPatterns {
    std::vector<std::regex> patterns;
};

Redactor::Redactor(const std::vector<std::string> &extra_patterns) {
    if (extra_patterns.empty()) {
        return;
    }
    auto compiled = std::make_shared<ExtraPatterns>();
    for (const auto &pattern : extra_patterns) {
        compiled->patterns.emplace_back(pattern, std::regex::ECMAScript | std::regex::optimize);
    }
    extra_patterns_ = std::move(compiled);
}

std::vector<SecretSpan> Redactor::find(std::string_view text) const {
    auto spans = find_builtin_secrets(text);
    if (!extra_patterns_) {
        return spans;
    }
    for (const auto &pattern : extra_patterns_->patterns) {
        for (auto match = std::cregex_iterator(text.data(), text.data() + text.size(), pattern);
             match != std::cregex_iterator(); ++match) {
            const auto &secret = match->size() > 1 && (*match)[1].matched ? (*match)[1] : (*match)[0];
            const auto begin = static_cast<std::size_t>(secret.first - text.data());
            if (secret.length() > 0 && !secrets::is_marker_at(text, begin)) {
                spans.push_back({begin, begin + static_cast<std::size_t>(secret.length()), "extra-pattern"});
            }
        }
    }
    return sorted_disjoint(std::move(spans));
}

RedactedText Redactor::redact(std::string_view text) const { return replace_spans(text, find(text)); }

std::shared_ptr<const Redactor> builtin_redactor() {
    static const auto redactor = std::make_shared<const Redactor>();
    return redactor;
}

RedactedText redact_secrets(std::string_view text) { return builtin_redactor()->redact(text); }

} // namespace starling::core
