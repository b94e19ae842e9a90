// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/exported_fields.hpp>

#include <starling/app/migration/memory_links.hpp>

#include <array>

namespace starling::app::migration {

bool is_starling_bookkeeping(std::string_view key) noexcept {
    static constexpr std::array<std::string_view, 9> bookkeeping{
        imported_from_field, "id",           "applied_batch",   "captured",     "sessions",
        "session_count",     "merged_from", "injection_count", "last_injected"};
    for (const auto field : bookkeeping) {
        if (key == field) {
            return true;
        }
    }
    return false;
}

} // namespace starling::app::migration
