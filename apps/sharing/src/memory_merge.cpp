// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/memory_merge.hpp>
#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/store/record/memory_fields.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <type_traits>
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

std::string without_final_line_breaks(std::string text) {
    while (!text.empty() && text.back() == '\n') {
        text.pop_back();
    }
    return text;
}

/// What a consolidation writes before the text of each memory it folds into another (the store's
/// merge): the line names the absorbed memory's file, whose name differs from machine to machine.
constexpr std::string_view merged_block_opening = "<!-- merged from ";

/// A body as consolidation leaves it: the memory's own text, then one block per memory folded
/// into it, each opening with its `<!-- merged from KEY -->` line, without its trailing blank lines.
struct BodyBlocks {
    std::string own;
    std::vector<std::string> merged;
};

BodyBlocks split_merged_blocks(const std::string &body) {
    std::vector<std::size_t> openings;
    for (auto at = body.find(merged_block_opening); at != std::string::npos;
         at = body.find(merged_block_opening, at + 1)) {
        if (at == 0 || body[at - 1] == '\n') {
            openings.push_back(at);
        }
    }
    BodyBlocks blocks;
    blocks.own = without_final_line_breaks(body.substr(0, openings.empty() ? body.size() : openings.front()));
    for (std::size_t index = 0; index < openings.size(); ++index) {
        const auto end = index + 1 < openings.size() ? openings[index + 1] : body.size();
        blocks.merged.push_back(without_final_line_breaks(body.substr(openings[index], end - openings[index])));
    }
    return blocks;
}

/// A folded block without the file name its opening line gives: two machines that folded the same
/// memory wrote the same block under different names.
std::string block_identity(const std::string &block) {
    const auto line_end = block.find('\n');
    return std::string{merged_block_opening} + block.substr(line_end == std::string::npos ? block.size() : line_end);
}

/// The identities of a body's folded blocks, and the text of each.
std::vector<std::string> block_identities(const BodyBlocks &blocks, std::map<std::string, std::string> &texts) {
    std::vector<std::string> identities;
    for (const auto &block : blocks.merged) {
        identities.push_back(block_identity(block));
        texts.emplace(identities.back(), block);
    }
    return identities;
}

/// Two bodies that both changed: the memory's own text three ways (both texts kept, the second
/// after concurrent_edit_marker, when both changed it), with `other_summary` — the second side's
/// summary when both changed that too — after the marker; then the blocks consolidation folded in
/// on either side, each once, as tags merge: both sides' additions, either side's removals. So two
/// machines that merged the same near-duplicates, or overlapping ones, at once keep each text once.
std::string merge_bodies(const std::optional<std::string> &base, const std::string &first, const std::string &second,
                         const std::optional<std::string> &other_summary) {
    const auto first_blocks = split_merged_blocks(first);
    const auto second_blocks = split_merged_blocks(second);
    std::optional<BodyBlocks> base_blocks;
    if (base) {
        base_blocks = split_merged_blocks(*base);
    }
    const auto own = three_way(base_blocks ? std::optional<std::string>{base_blocks->own} : std::nullopt,
                               first_blocks.own, second_blocks.own);
    std::string other = other_summary ? *other_summary : std::string{};
    if (!own) {
        other += (other.empty() ? "" : "\n\n") + second_blocks.own;
    }
    std::string body = own.value_or(first_blocks.own) + "\n";
    if (!without_final_line_breaks(other).empty()) {
        body += "\n" + std::string{concurrent_edit_marker} + "\n" + without_final_line_breaks(other) + "\n";
    }
    std::map<std::string, std::string> texts;
    std::optional<std::vector<std::string>> base_identities;
    if (base_blocks) {
        std::map<std::string, std::string> ignored;
        base_identities = block_identities(*base_blocks, ignored);
    }
    const auto first_identities = block_identities(first_blocks, texts);
    const auto second_identities = block_identities(second_blocks, texts);
    for (const auto &identity : merged_items(base_identities, first_identities, second_identities)) {
        body += "\n" + texts.at(identity) + "\n";
    }
    return body;
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
    // Every field of memory_fields.def three-way, a conflict going to the greater value, as for the
    // fields Memory does not model (so a type changed on both sides keeps the greater, a pin on
    // either side holds); the rules below override that where a field has its own.
    const core::Memory &base_memory = base ? base->memory : a;
    core::for_each_memory_field_of(
        [&](const core::FieldInfo &, auto &out, const auto &in_base, const auto &first_value, const auto &second_value) {
            using Value = std::decay_t<decltype(out)>;
            out = three_way(base ? std::optional<Value>{in_base} : std::nullopt, first_value, second_value)
                      .value_or(std::max(first_value, second_value));
        },
        merged, base_memory, a, b);
    merged.created = three_way(base_of(&core::Memory::created), a.created, b.created).value_or(std::min(a.created, b.created));
    merged.last_accessed = merged.created;
    merged.id = three_way(base_of(&core::Memory::id), a.id, b.id).value_or(std::min(a.id, b.id));
    merged.review = three_way(base_of(&core::Memory::review), a.review, b.review).value_or(false);
    merged.tags = merged_items(base_of(&core::Memory::tags), a.tags, b.tags);
    const auto tier = three_way(base ? std::optional<core::Tier>{base->tier} : std::nullopt, first.tier, second.tier)
                          .value_or(core::Tier::long_term);

    const auto summary = three_way(base_of(&core::Memory::summary), a.summary, b.summary);
    const auto body = three_way(base_of(&core::Memory::body), a.body, b.body);
    merged.summary = summary.value_or(a.summary);
    merged.body = body.value_or(a.body);
    if (!body) {
        merged.body = merge_bodies(base_of(&core::Memory::body), a.body, b.body,
                                   summary ? std::nullopt : std::optional<std::string>{b.summary});
    } else if (!summary) {
        merged.body = with_final_line_break(merged.body) + "\n" + std::string{concurrent_edit_marker} + "\n" +
                      with_final_line_break(b.summary);
    }
    for (const auto &key : extra_keys(a, b)) {
        merge_extra_field(merged, base ? std::optional<core::Memory>{base->memory} : std::nullopt, a, b, key, path);
    }
    return to_wire_text(merged, tier);
}

} // namespace starling::app::sharing
