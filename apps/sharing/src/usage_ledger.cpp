// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/sharing_error.hpp>
#include <starling/app/sharing/usage_ledger.hpp>

#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <charconv>
#include <limits>

namespace starling::app::sharing {

std::string serialise_usage(const UsageTable &table) {
    std::string text = "# uses of memories made on this machine: memory, uses, last use (written by starling sync)\n";
    for (const auto &[name, usage] : table) {
        if (usage.uses == 0) {
            continue;
        }
        text.append(name).append("\t").append(std::to_string(usage.uses)).append("\t");
        text.append(core::format_timestamp(usage.last_used)).append("\n");
    }
    return text;
}

UsageTable parse_usage(std::string_view text, std::string_view source_name) {
    UsageTable table;
    std::size_t line_number = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++line_number;
        if (line.empty() || line.starts_with('#')) {
            continue;
        }
        const auto fail = [&](std::string_view problem) {
            throw SharingError(std::string{source_name} + ":" + std::to_string(line_number) + ": " + std::string{problem});
        };
        const auto first_tab = line.find('\t');
        const auto second_tab = first_tab == std::string_view::npos ? first_tab : line.find('\t', first_tab + 1);
        if (second_tab == std::string_view::npos || first_tab == 0) {
            fail("expected 'memory<TAB>uses<TAB>last use'");
        }
        const auto count_text = line.substr(first_tab + 1, second_tab - first_tab - 1);
        Usage usage;
        const auto [count_end, error] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), usage.uses);
        if (error != std::errc{} || count_end != count_text.data() + count_text.size() || count_text.empty()) {
            fail("uses must be a count, got '" + std::string{count_text} + "'");
        }
        const auto time = core::parse_timestamp(line.substr(second_tab + 1));
        if (!time) {
            fail("last use must be a timestamp such as 2026-11-22T10:00:00Z");
        }
        usage.last_used = *time;
        table.insert_or_assign(std::string{line.substr(0, first_tab)}, usage);
    }
    return table;
}

void add_usage(UsageTable &into, const UsageTable &table) {
    for (const auto &[name, usage] : table) {
        auto &total = into[name];
        const auto room = std::numeric_limits<std::uint32_t>::max() - total.uses;
        total.uses += std::min(room, usage.uses);
        total.last_used = std::max(total.last_used, usage.last_used);
    }
}

} // namespace starling::app::sharing
