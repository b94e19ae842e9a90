// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/memory_links.hpp>

#include <starling/core/store/record/frontmatter.hpp>

namespace starling::app::migration {

std::vector<MemoryLink> links_of(const core::Memory &memory) {
    std::vector<MemoryLink> links;
    const core::FrontmatterEntry *field = memory.extra_field(links_field);
    if (field == nullptr) {
        return links;
    }
    for (const auto &item : core::decode_list(*field, "memory " + memory.id)) {
        const auto colon = item.rfind(':');
        if (colon == std::string::npos) {
            links.push_back({std::string{default_relation}, item});
        } else {
            links.push_back({item.substr(0, colon), item.substr(colon + 1)});
        }
    }
    return links;
}

void set_links(core::Memory &memory, const std::vector<MemoryLink> &links) {
    if (links.empty()) {
        memory.erase_extra_field(links_field);
        return;
    }
    std::vector<std::string> items;
    items.reserve(links.size());
    for (const auto &link : links) {
        items.push_back(link.relation == default_relation ? link.target_id : link.relation + ":" + link.target_id);
    }
    memory.set_extra_list(links_field, items);
}

std::string imported_from(const core::Memory &memory) {
    const core::FrontmatterEntry *field = memory.extra_field(imported_from_field);
    return field == nullptr ? std::string{} : core::decode_scalar(*field, "memory " + memory.id);
}

} // namespace starling::app::migration
