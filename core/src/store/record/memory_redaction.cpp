// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory_redaction.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/store_error.hpp>

namespace starling::core {
namespace {

/// Redacts `text` in place, adding the kinds found to `kinds`.
void redact_into(std::string &text, const Redactor &redactor, std::vector<std::string> &kinds) {
    const auto spans = redactor.find(text);
    if (spans.empty()) {
        return; // nearly every text: no copy made
    }
    auto redacted = replace_spans(text, spans);
    kinds.insert(kinds.end(), redacted.kinds.begin(), redacted.kinds.end());
    text = std::move(redacted.text);
}

/// The values of fields other seed systems or people wrote. One that does not decode is left for
/// `starling scan` to report: rewriting what cannot be read could destroy it.
void redact_extra_fields(Memory &memory, const Redactor &redactor, std::vector<std::string> &kinds) {
    std::vector<std::pair<std::string, std::vector<std::string>>> lists;
    std::vector<std::pair<std::string, std::string>> scalars;
    for (const auto &entry : memory.frontmatter) {
        if (!entry.is_field() || is_typed_memory_field(entry.key) ||
            redactor.find(entry.value).empty()) {
            continue;
        }
        try {
            if (!entry.value.empty() && entry.value.front() == '[') {
                lists.emplace_back(entry.key, decode_list(entry, "frontmatter"));
            } else {
                scalars.emplace_back(entry.key, decode_scalar(entry, "frontmatter"));
            }
        } catch (const StoreError &) {
            continue;
        }
    }
    for (auto &[key, items] : lists) {
        for (auto &item : items) {
            redact_into(item, redactor, kinds);
        }
        memory.set_extra_list(key, items);
    }
    for (auto &[key, value] : scalars) {
        redact_into(value, redactor, kinds);
        memory.set_extra_field(key, value);
    }
}

} // namespace

std::vector<std::string> redact_memory(Memory &memory, const Redactor &redactor) {
    std::vector<std::string> kinds;
    redact_into(memory.summary, redactor, kinds);
    redact_into(memory.body, redactor, kinds);
    for (auto &tag : memory.tags) {
        redact_into(tag, redactor, kinds);
    }
    redact_extra_fields(memory, redactor, kinds);
    return kinds;
}

} // namespace starling::core
