// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/memory_links.hpp>

#include <starling/core/store/record/frontmatter.hpp>

namespace starling::app::migration {

std::string imported_from(const core::Memory &memory) {
    const core::FrontmatterEntry *field = memory.extra_field(imported_from_field);
    return field == nullptr ? std::string{} : core::decode_scalar(*field, "memory " + memory.id);
}

} // namespace starling::app::migration
