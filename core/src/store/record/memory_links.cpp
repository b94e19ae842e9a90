// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory_links.hpp>

#include <starling/core/io/store_error.hpp>

#include <starling/sdk/policy_types.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace starling::core {

std::string link_item(std::string_view relation, std::string_view id) {
    if (relation == sdk::default_link_relation) {
        return std::string{id};
    }
    return std::string{relation} + ":" + std::string{id};
}

Link parse_link(std::string_view item) {
    const auto colon = item.find(':');
    if (colon == std::string_view::npos) {
        return {std::string{sdk::default_link_relation}, std::string{item}};
    }
    return {std::string{item.substr(0, colon)}, std::string{item.substr(colon + 1)}};
}

std::vector<std::string> link_items(const Memory &memory) {
    const FrontmatterEntry *links = memory.extra_field(links_field);
    return links == nullptr ? std::vector<std::string>{} : decode_list(*links, memory.id);
}

std::vector<Link> links_of(const Memory &memory) {
    std::vector<Link> links;
    for (const auto &item : link_items(memory)) {
        links.push_back(parse_link(item));
    }
    return links;
}

void set_link_items(Memory &memory, const std::vector<std::string> &items) {
    if (items.empty()) {
        memory.erase_extra_field(links_field);
    } else {
        memory.set_extra_list(links_field, items);
    }
}

void set_links(Memory &memory, const std::vector<Link> &links) {
    std::vector<std::string> items;
    items.reserve(links.size());
    for (const auto &link : links) {
        items.push_back(link_item(link.relation, link.id));
    }
    set_link_items(memory, items);
}

bool add_link(Memory &memory, std::string_view relation, std::string_view id) {
    auto items = link_items(memory);
    const Link wanted{std::string{relation}, std::string{id}};
    if (std::any_of(items.begin(), items.end(), [&](const std::string &item) { return parse_link(item) == wanted; })) {
        return false;
    }
    items.push_back(link_item(relation, id));
    set_link_items(memory, items);
    return true;
}

std::vector<std::string> linked_ids(std::string_view fields_json, std::string_view relation) {
    if (fields_json.find(std::string{"\""} + std::string{relation} + ":") == std::string_view::npos) {
        return {};
    }
    std::vector<std::string> ids;
    const auto fields = nlohmann::json::parse(fields_json, nullptr, false);
    if (!fields.is_object()) {
        return ids; // not the index's JSON: nothing read from it is a link
    }
    const auto links = fields.find(links_field);
    if (links == fields.end() || !links->is_array()) {
        return ids;
    }
    for (const auto &item : *links) {
        if (!item.is_string()) {
            continue;
        }
        auto link = parse_link(item.get_ref<const std::string &>());
        if (link.relation == relation && !link.id.empty()) {
            ids.push_back(std::move(link.id));
        }
    }
    return ids;
}

std::vector<std::string> linked_ids(const Memory &memory, std::string_view relation) {
    std::vector<std::string> ids;
    try {
        for (auto &link : links_of(memory)) {
            if (link.relation == relation) {
                ids.push_back(std::move(link.id));
            }
        }
    } catch (const StoreError &) {
    }
    return ids;
}

} // namespace starling::core
