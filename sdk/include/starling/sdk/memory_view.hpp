// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/abi_layout.h>
#include <starling/sdk/bytes.hpp>
#include <starling/sdk/policy_types.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::sdk {

/// Read-only view of one memory handed to a policy. Borrowed: valid for the call only.
class MemoryView {
public:
    explicit MemoryView(const starling_memory_view &view) noexcept : view_(&view) {}

    [[nodiscard]] std::string_view key() const noexcept { return as_string_view(view_->key); }
    [[nodiscard]] std::string_view scope() const noexcept { return as_string_view(view_->scope); }
    [[nodiscard]] std::string_view tier() const noexcept { return as_string_view(view_->tier); }
    [[nodiscard]] std::string_view type() const noexcept { return as_string_view(view_->type); }
    [[nodiscard]] std::string_view summary() const noexcept { return as_string_view(view_->summary); }
    [[nodiscard]] std::string_view body() const noexcept { return as_string_view(view_->body); }
    [[nodiscard]] std::int64_t created() const noexcept { return view_->created; }
    [[nodiscard]] std::int64_t last_accessed() const noexcept { return view_->last_accessed; }
    [[nodiscard]] std::uint32_t access_count() const noexcept { return view_->access_count; }
    [[nodiscard]] std::uint32_t session_count() const noexcept { return view_->session_count; }
    [[nodiscard]] bool under_review() const noexcept { return (view_->flags & STARLING_MEMORY_UNDER_REVIEW) != 0; }
    /// Always false from a host older than ABI 1.4, which did not say.
    [[nodiscard]] bool pinned() const noexcept { return (view_->flags & STARLING_MEMORY_PINNED) != 0; }

    /// Whether the host passed the members of ABI 1.4 (id, fields): false from an older host.
    [[nodiscard]] bool has_fields() const noexcept {
        return STARLING_STRUCT_HAS(starling_memory_view, view_->struct_size, fields);
    }
    /// The stable short id; empty from a host older than ABI 1.4.
    [[nodiscard]] std::string_view id() const noexcept {
        return has_fields() ? as_string_view(view_->id) : std::string_view{};
    }
    /// The fields the view has no member for, as the JSON object text of abi.h; "{}" from an older host.
    [[nodiscard]] std::string_view fields_json() const noexcept {
        const std::string_view text = has_fields() ? as_string_view(view_->fields) : std::string_view{};
        return text.empty() ? std::string_view{"{}"} : text;
    }
    /// The fields, parsed. Throws std::invalid_argument if the host sent text that is no JSON object.
    [[nodiscard]] nlohmann::json fields() const {
        auto parsed = nlohmann::json::parse(fields_json(), nullptr, false);
        if (!parsed.is_object()) {
            throw std::invalid_argument("memory '" + std::string{key()} + "': its fields are not a JSON object");
        }
        return parsed;
    }
    /// One field as text: a scalar as written, a list's items joined by ", "; nullopt when absent.
    [[nodiscard]] std::optional<std::string> field(std::string_view name) const {
        const auto parsed = fields();
        const auto found = parsed.find(name);
        if (found == parsed.end()) {
            return std::nullopt;
        }
        if (found->is_string()) {
            return found->get<std::string>();
        }
        std::string joined;
        for (const auto &item : *found) {
            joined += (joined.empty() ? "" : ", ") + item.get<std::string>();
        }
        return joined;
    }
    /// One field as a list: a list's items, a scalar as one item, nothing when absent.
    [[nodiscard]] std::vector<std::string> field_list(std::string_view name) const {
        const auto parsed = fields();
        const auto found = parsed.find(name);
        if (found == parsed.end()) {
            return {};
        }
        if (found->is_string()) {
            return {found->get<std::string>()};
        }
        return found->get<std::vector<std::string>>();
    }

    /// A link to another memory, from the `links` field.
    struct Link {
        std::string relation; ///< "related" when the item names none
        std::string id;       ///< the other memory's id
        friend bool operator==(const Link &, const Link &) = default;
    };
    /// The memory's links, in the order the file lists them.
    [[nodiscard]] std::vector<Link> links() const {
        std::vector<Link> links;
        for (const std::string &item : field_list("links")) {
            const auto colon = item.find(':');
            if (colon == std::string::npos) {
                links.push_back(Link{std::string{default_link_relation}, item});
            } else {
                links.push_back(Link{item.substr(0, colon), item.substr(colon + 1)});
            }
        }
        return links;
    }

    /// The tags, split on the '\n' separator of the ABI.
    [[nodiscard]] std::vector<std::string_view> tags() const {
        std::vector<std::string_view> tags;
        for_each_tag([&](std::string_view tag) { tags.push_back(tag); });
        return tags;
    }

    /// Calls `visit(std::string_view)` for each tag, in order, without allocating: for policies
    /// that look at the tags of every memory on every call.
    template <class Visit>
    void for_each_tag(Visit &&visit) const {
        std::string_view rest = as_string_view(view_->tags);
        while (!rest.empty()) {
            const auto end = rest.find('\n');
            const auto tag = rest.substr(0, end);
            if (!tag.empty()) {
                visit(tag);
            }
            if (end == std::string_view::npos) {
                break;
            }
            rest.remove_prefix(end + 1);
        }
    }

private:
    const starling_memory_view *view_;
};

/// Read-only view of the batch a policy scores or plans over in one call.
class MemoryBatch {
public:
    explicit MemoryBatch(const starling_memory_batch &batch) noexcept : batch_(&batch) {}

    [[nodiscard]] std::size_t size() const noexcept { return batch_->count; }
    [[nodiscard]] bool empty() const noexcept { return batch_->count == 0; }
    [[nodiscard]] MemoryView operator[](std::size_t index) const noexcept { return MemoryView{*batch_->items[index]}; }
    [[nodiscard]] std::int64_t now() const noexcept { return batch_->now; }
    [[nodiscard]] bool has_bodies() const noexcept { return (batch_->flags & STARLING_BATCH_HAS_BODIES) != 0; }
    /// The batch as the host passed it, to hand back to the host (HostServices::similarities).
    [[nodiscard]] const starling_memory_batch &raw() const noexcept { return *batch_; }

private:
    const starling_memory_batch *batch_;
};

} // namespace starling::sdk
