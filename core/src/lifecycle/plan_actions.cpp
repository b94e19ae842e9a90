// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/plan_actions.hpp>

#include <starling/core/redaction/redaction.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/record/memory_links.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/sdk/text/blanks.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>
#include <stdexcept>
#include <variant>

namespace starling::core {
namespace {

using sdk::LifecycleAction;

/// Fields Memory does not model as rows of memory_fields.def that only Starling sets; of the rows,
/// those whose `writer` is `host`.
constexpr std::array<std::string_view, 12> other_fields_kept_by_the_host = {
    "sessions",      "session_count", "pinned_by",     "links",         "applied_batch", "captured",
    "merged_from",   "injection_count", "last_injected", "imported_from", "dedupe_key", "pinned_before_superseded"};

bool is_field_name(std::string_view field) noexcept {
    return !field.empty() && std::all_of(field.begin(), field.end(), [](char character) {
        return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z') ||
               (character >= '0' && character <= '9') || character == '_' || character == '-' || character == '.';
    });
}

const std::string &scalar_of(std::string_view field, const sdk::FieldValue &value) {
    if (const auto *text = std::get_if<std::string>(&value)) {
        return *text;
    }
    throw std::invalid_argument("field '" + std::string(field) + "' takes one value, not a list or nothing");
}

/// A plan's value for a row of memory_fields.def, as its kind reads it; std::invalid_argument naming
/// the field for one that does not fit.
void set_typed_field(const FieldInfo &row, std::string &member, const sdk::FieldValue &value) {
    const std::string &text = scalar_of(row.key, value);
    if (text.empty() && row.check != FieldCheck::any && row.presence != FieldPresence::optional) {
        throw std::invalid_argument("field '" + std::string(row.key) + "' cannot be empty");
    }
    member = text;
}
void set_typed_field(const FieldInfo &row, std::vector<std::string> &member, const sdk::FieldValue &value) {
    if (const auto *items = std::get_if<std::vector<std::string>>(&value)) {
        member = *items;
    } else if (std::holds_alternative<std::monostate>(value)) {
        member.clear();
    } else {
        throw std::invalid_argument("field '" + std::string(row.key) + "' takes a list");
    }
}
void set_typed_field(const FieldInfo &row, std::chrono::sys_seconds &member, const sdk::FieldValue &value) {
    const std::string &text = scalar_of(row.key, value);
    const auto time = parse_timestamp(text);
    if (!time) {
        throw std::invalid_argument("field '" + std::string(row.key) + "' takes a timestamp, not '" + text + "'");
    }
    member = *time;
}
void set_typed_field(const FieldInfo &row, std::uint32_t &member, const sdk::FieldValue &value) {
    const std::string &text = scalar_of(row.key, value);
    std::uint32_t count = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
        throw std::invalid_argument("field '" + std::string(row.key) + "' takes a whole number, not '" + text + "'");
    }
    member = count;
}
void set_typed_field(const FieldInfo &row, bool &member, const sdk::FieldValue &value) {
    const std::string &text = scalar_of(row.key, value);
    if (text != "true" && text != "false") {
        throw std::invalid_argument("field '" + std::string(row.key) + "' takes true or false, not '" + text + "'");
    }
    member = text == "true";
}

std::string apply_link(MemoryStore &store, const LifecycleAction &action, bool add) {
    if (action.into == action.key) {
        throw std::invalid_argument("a memory cannot be linked to itself: " + action.key);
    }
    const std::string target_id = memory_id_of(store.read(action.into));
    const std::string relation = action.relation.empty() ? std::string(sdk::default_link_relation) : action.relation;
    bool changed = false;
    store.update(action.key, [&](Memory &memory) {
        if (add) {
            changed = add_link(memory, relation, target_id);
            return;
        }
        std::vector<std::string> links = link_items(memory);
        const Link unwanted{relation, target_id};
        changed = std::erase_if(links, [&](const std::string &item) { return parse_link(item) == unwanted; }) > 0;
        if (changed) {
            set_link_items(memory, links);
        }
    });
    const std::string item = relation + ":" + target_id;
    if (!changed) {
        return add ? "skipped: already linked " + item : "skipped: not linked " + item;
    }
    return (add ? "linked " : "unlinked ") + item;
}

/// The text with every run of blanks made one space, for telling whether a paragraph is there already
/// however it was wrapped.
std::string collapsed_blanks(std::string_view text) {
    std::string collapsed;
    bool blank = false;
    for (const char character : text) {
        if (sdk::text::is_blank(character)) {
            blank = !collapsed.empty();
            continue;
        }
        if (blank) {
            collapsed += ' ';
            blank = false;
        }
        collapsed += character;
    }
    return collapsed;
}

std::string apply_append(MemoryStore &store, const LifecycleAction &action) {
    // The text as the file will hold it: what is compared must be what would be written.
    const std::string text = store.redactor().redact(action.text).text;
    bool appended = false;
    store.update(action.key, [&](Memory &memory) {
        if (collapsed_blanks(memory.body).find(collapsed_blanks(text)) != std::string::npos) {
            return;
        }
        if (!memory.body.empty() && memory.body.back() != '\n') {
            memory.body += '\n';
        }
        memory.body += (memory.body.empty() ? "" : "\n") + text + (text.ends_with('\n') ? "" : "\n");
        appended = true;
    });
    return appended ? "appended" : "skipped: the text is there already";
}

std::string apply_pin(MemoryStore &store, const LifecycleAction &action, bool pin) {
    std::string result;
    const Memory written = store.update(action.key, [&](Memory &memory) {
        const FrontmatterEntry *by = memory.extra_field("pinned_by");
        const bool pinned_by_plan = by != nullptr && by->value == pinned_by_decay;
        if (pin) {
            if (memory.pinned) {
                result = "skipped: already pinned";
                return;
            }
            memory.pinned = true;
            memory.set_extra_field("pinned_by", pinned_by_decay);
            result = "pinned";
            return;
        }
        if (!memory.pinned) {
            result = "skipped: not pinned";
        } else if (!pinned_by_plan) {
            result = "skipped: pinned by the user";
        } else {
            memory.pinned = false;
            memory.erase_extra_field("pinned_by");
            result = "unpinned";
        }
    });
    if (result == "pinned" || result == "unpinned") {
        ProvenanceEvent event;
        event.time = store.clock().now();
        event.kind = pin ? ProvenanceKind::pinned : ProvenanceKind::unpinned;
        event.agent = pinned_by_decay;
        event.reason = action.reason;
        record_provenance(store.root(), store.redactor(), memory_id_of(written), std::move(event));
    }
    return result;
}

} // namespace

bool policy_may_set_field(std::string_view field) noexcept {
    const bool kept_row = std::any_of(memory_fields.begin(), memory_fields.end(), [&](const FieldInfo &row) {
        return row.key == field && row.writer == FieldWriter::host;
    });
    return is_field_name(field) && !kept_row &&
           std::find(other_fields_kept_by_the_host.begin(), other_fields_kept_by_the_host.end(), field) ==
               other_fields_kept_by_the_host.end();
}

void set_memory_field(Memory &memory, std::string_view field, const sdk::FieldValue &value) {
    bool typed = false;
    for_each_memory_field(memory, [&](const FieldInfo &row, auto &member) {
        if (row.key == field) {
            typed = true;
            set_typed_field(row, member, value);
        }
    });
    if (typed) {
        return;
    }
    if (const auto *text = std::get_if<std::string>(&value)) {
        memory.set_extra_field(field, *text);
    } else if (const auto *items = std::get_if<std::vector<std::string>>(&value)) {
        memory.set_extra_list(field, *items);
    } else {
        memory.erase_extra_field(field);
    }
}

std::string apply_in_place_action(MemoryStore &store, const LifecycleAction &action) {
    switch (action.kind) {
    case LifecycleAction::Kind::set_field: {
        if (!policy_may_set_field(action.field)) {
            throw std::invalid_argument("a decay plan may not set field '" + action.field + "' of " + action.key);
        }
        store.update(action.key, [&](Memory &memory) { set_memory_field(memory, action.field, action.value); });
        return "set " + action.field;
    }
    case LifecycleAction::Kind::pin: return apply_pin(store, action, true);
    case LifecycleAction::Kind::unpin: return apply_pin(store, action, false);
    case LifecycleAction::Kind::link: return apply_link(store, action, true);
    case LifecycleAction::Kind::unlink: return apply_link(store, action, false);
    case LifecycleAction::Kind::append: return apply_append(store, action);
    default: break;
    }
    throw std::invalid_argument("not an in-place action: " + std::string(sdk::to_string(action.kind)));
}

} // namespace starling::core
