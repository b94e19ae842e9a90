// SPDX-License-Identifier: Apache-2.0
//
// The redactor: every prompt, message and memory passes through it, so it reads whatever a user or
// an agent writes. Spans must come back sorted, disjoint and inside the text; what is redacted must
// redact to itself (a second pass finds nothing); no span may cut a redaction's marker.
#include <starling/core/redaction/redaction.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text{reinterpret_cast<const char *>(data), size};
    const auto spans = starling::core::find_builtin_secrets(text);
    std::size_t previous_end = 0;
    for (const auto &span : spans) {
        if (span.begin < previous_end || span.end <= span.begin || span.end > text.size() || span.kind.empty()) {
            std::abort();
        }
        previous_end = span.end;
    }
    const auto once = starling::core::replace_spans(text, spans);
    const auto twice = starling::core::redact_secrets(once.text);
    if (twice.text != once.text) {
        std::abort(); // redacting redacted text changes nothing (docs/secrets.md)
    }
    return 0;
}
