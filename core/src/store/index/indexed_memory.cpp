// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/index/indexed_memory.hpp>

#include <starling/core/store/record/memory.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <utility>

namespace starling::core {

std::string superseded_by_in_fields(std::string_view fields_json) {
    // Most memories have no other fields, and few of those that do were superseded: parse only then.
    if (fields_json.find(superseded_by_field) == std::string_view::npos) {
        return {};
    }
    const auto fields = nlohmann::json::parse(fields_json, nullptr, false);
    const auto value = fields.is_object() ? fields.find(superseded_by_field) : fields.end();
    return value != fields.end() && value->is_string() ? value->get<std::string>() : std::string{};
}

IndexEntry to_index_entry(const IndexedMemory &memory) {
    IndexEntry entry;
    entry.key = memory.key;
    entry.scope_kind = memory.scope_kind;
    entry.project_id = memory.project_id;
    entry.tier = memory.tier;
    entry.type = memory.type;
    entry.summary = memory.summary;
    std::string_view tags = memory.tags;
    while (!tags.empty()) {
        const auto separator = tags.find('\n');
        entry.tags.emplace_back(tags.substr(0, separator));
        if (separator == std::string_view::npos) {
            break;
        }
        tags.remove_prefix(separator + 1);
    }
    entry.created = memory.created;
    entry.last_accessed = memory.last_accessed;
    entry.access_count = memory.access_count;
    entry.session_count = memory.session_count;
    entry.review = memory.review;
    entry.file = memory.file;
    entry.pinned = memory.pinned;
    entry.id = memory.id;
    entry.fields = memory.fields;
    entry.body_excerpt = memory.body_excerpt;
    return entry;
}

std::string join_tags(const std::vector<std::string> &tags) {
    std::string joined;
    for (std::size_t index = 0; index < tags.size(); ++index) {
        if (index > 0) {
            joined += '\n';
        }
        joined += tags[index];
    }
    return joined;
}

IndexedMemory view_of(const IndexEntry &entry, std::string_view joined_tags) noexcept {
    // Designated: a member reordered in IndexedMemory fails to compile here instead of shifting values.
    return IndexedMemory{.key = entry.key,
                         .scope_kind = entry.scope_kind,
                         .project_id = entry.project_id,
                         .tier = entry.tier,
                         .type = entry.type,
                         .summary = entry.summary,
                         .tags = joined_tags,
                         .created = entry.created,
                         .last_accessed = entry.last_accessed,
                         .access_count = entry.access_count,
                         .session_count = entry.session_count,
                         .review = entry.review,
                         .file = entry.file,
                         .pinned = entry.pinned,
                         .id = entry.id,
                         .fields = entry.fields,
                         .body_excerpt = entry.body_excerpt};
}

IndexedMemories::IndexedMemories(std::vector<std::shared_ptr<const void>> storage,
                                 std::vector<const IndexedMemory *> memories)
    : storage_(std::move(storage)), memories_(std::move(memories)) {}

IndexedMemories::IndexedMemories(std::shared_ptr<const void> storage, std::vector<IndexedMemory> memories) {
    auto owned = std::make_shared<const std::vector<IndexedMemory>>(std::move(memories));
    memories_.reserve(owned->size());
    for (const IndexedMemory &memory : *owned) {
        memories_.push_back(&memory);
    }
    storage_.push_back(std::move(storage));
    storage_.push_back(std::move(owned));
}

void IndexedMemories::append(IndexedMemories other) {
    for (auto &storage : other.storage_) {
        if (std::find(storage_.begin(), storage_.end(), storage) == storage_.end()) {
            storage_.push_back(std::move(storage));
        }
    }
    memories_.insert(memories_.end(), other.memories_.begin(), other.memories_.end());
}

} // namespace starling::core
