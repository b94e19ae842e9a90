// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/memory_merge.hpp>
#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/store/frontmatter.hpp>

#include <algorithm>
#include <tuple>
#include <vector>

namespace starling::app::sharing {
namespace {

/// The three-way choice: the side that changed, or nothing when both changed differently.
template <typename Value>
std::optional<Value> three_way(const std::optional<Value> &base, const Value &first, const Value &second) {
    if (first == second) {
        return first;
    }
    if (base && first == *base) {
        return second;
    }
    if (base && second == *base) {
        return first;
    }
    return std::nullopt;
}

/// Both sides' additions, either side's removals, in the order the first side lists them.
std::vector<std::string> merged_items(const std::optional<std::vector<std::string>> &base,
                                      const std::vector<std::string> &first, const std::vector<std::string> &second) {
    const auto holds = [](const std::vector<std::string> &items, const std::string &item) {
        return std::find(items.begin(), items.end(), item) != items.end();
    };
    std::vector<std::string> merged;
    for (const auto *side : {&first, &second}) {
        for (const auto &item : *side) {
            const bool removed_by_one = base && holds(*base, item) && !(holds(first, item) && holds(second, item));
            if (!removed_by_one && !holds(merged, item)) {
                merged.push_back(item);
            }
        }
    }
    return merged;
}

std::optional<std::string> encoded_extra(const core::Memory &memory, std::string_view key) {
    const auto *entry = memory.extra_field(key);
    return entry == nullptr ? std::nullopt : std::optional<std::string>{entry->value};
}

bool is_list_value(std::string_view encoded) { return encoded.starts_with('['); }

/// The fields neither typed nor machine-local, in the order the first side lists them, then the second's.
std::vector<std::string> extra_keys(const core::Memory &first, const core::Memory &second) {
    std::vector<std::string> keys;
    for (const auto *memory : {&first, &second}) {
        for (const auto &entry : memory->frontmatter) {
            if (entry.is_field() && !core::is_typed_memory_field(entry.key) && !is_machine_local_field(entry.key) &&
                std::find(keys.begin(), keys.end(), entry.key) == keys.end()) {
                keys.push_back(entry.key);
            }
        }
    }
    return keys;
}

void merge_extra_field(core::Memory &merged, const std::optional<core::Memory> &base, const core::Memory &first,
                       const core::Memory &second, const std::string &key, std::string_view path) {
    const auto base_value = base ? encoded_extra(*base, key) : std::nullopt;
    const auto first_value = encoded_extra(first, key);
    const auto second_value = encoded_extra(second, key);
    auto chosen = three_way<std::optional<std::string>>(
        base ? std::optional<std::optional<std::string>>{base_value} : std::nullopt, first_value, second_value);
    if (!chosen) {
        if (first_value && second_value && is_list_value(*first_value) && is_list_value(*second_value)) {
            const auto list_of = [&](const core::Memory &memory) {
                return core::decode_list(*memory.extra_field(key), path);
            };
            std::optional<std::vector<std::string>> base_items;
            if (base_value && is_list_value(*base_value)) {
                base_items = list_of(*base);
            }
            merged.set_extra_list(key, merged_items(base_items, list_of(first), list_of(second)));
            return;
        }
        // Changed on one side, removed on the other: the change is kept.
        chosen = !first_value ? second_value : !second_value ? first_value : std::max(first_value, second_value);
    }
    const auto kept = std::find_if(merged.frontmatter.begin(), merged.frontmatter.end(),
                                   [&](const core::FrontmatterEntry &entry) { return entry.key == key; });
    if (!*chosen) {
        merged.erase_extra_field(key);
    } else if (kept != merged.frontmatter.end()) {
        kept->value = **chosen;
    } else {
        core::FrontmatterEntry entry;
        entry.key = key;
        entry.value = **chosen;
        merged.frontmatter.push_back(std::move(entry));
    }
}

std::string with_final_line_break(std::string text) {
    if (!text.empty() && text.back() != '\n') {
        text.push_back('\n');
    }
    return text;
}

} // namespace

std::string merge_wire_texts(const std::optional<std::string> &base_text, const std::string &ours,
                             const std::string &theirs, std::string_view path) {
    if (ours == theirs) {
        return ours;
    }
    std::optional<WireMemory> base;
    if (base_text) {
        base = from_wire_text(*base_text, path);
    }
    WireMemory first = from_wire_text(ours, path);
    WireMemory second = from_wire_text(theirs, path);
    // Sides ordered by what they say, so that the merge is the same whichever machine runs it.
    if (std::tie(second.memory.summary, second.memory.body, theirs) <
        std::tie(first.memory.summary, first.memory.body, ours)) {
        std::swap(first, second);
    }
    const auto base_of = [&](auto member) {
        using Value = std::decay_t<decltype(first.memory.*member)>;
        return base ? std::optional<Value>{base->memory.*member} : std::nullopt;
    };
    const core::Memory &a = first.memory;
    const core::Memory &b = second.memory;

    // The first side's layout: the merge of two canonical wire texts is canonical too.
    core::Memory merged = a;
    merged.type = three_way(base_of(&core::Memory::type), a.type, b.type).value_or(std::max(a.type, b.type));
    merged.created = three_way(base_of(&core::Memory::created), a.created, b.created).value_or(std::min(a.created, b.created));
    merged.last_accessed = merged.created;
    merged.id = three_way(base_of(&core::Memory::id), a.id, b.id).value_or(std::min(a.id, b.id));
    merged.pinned = three_way(base_of(&core::Memory::pinned), a.pinned, b.pinned).value_or(true);
    merged.review = three_way(base_of(&core::Memory::review), a.review, b.review).value_or(false);
    merged.tags = merged_items(base_of(&core::Memory::tags), a.tags, b.tags);
    const auto tier = three_way(base ? std::optional<core::Tier>{base->tier} : std::nullopt, first.tier, second.tier)
                          .value_or(core::Tier::long_term);

    const auto summary = three_way(base_of(&core::Memory::summary), a.summary, b.summary);
    const auto body = three_way(base_of(&core::Memory::body), a.body, b.body);
    merged.summary = summary.value_or(a.summary);
    merged.body = body.value_or(a.body);
    if (!summary || !body) {
        std::string other;
        if (!summary) {
            other += b.summary + "\n";
        }
        if (!body) {
            other += (other.empty() ? "" : "\n") + b.body;
        }
        merged.body = with_final_line_break(merged.body) + "\n" + std::string{concurrent_edit_marker} + "\n" +
                      with_final_line_break(other);
    }
    for (const auto &key : extra_keys(a, b)) {
        merge_extra_field(merged, base ? std::optional<core::Memory>{base->memory} : std::nullopt, a, b, key, path);
    }
    return to_wire_text(merged, tier);
}

} // namespace starling::app::sharing
