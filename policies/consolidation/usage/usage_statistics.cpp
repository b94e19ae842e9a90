// SPDX-License-Identifier: Apache-2.0
#include "usage_statistics.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <stdexcept>

namespace starling::usage {
namespace {

constexpr std::int64_t kSecondsPerDay = 86'400;

/// A field as text: a scalar as written, nullopt when absent or a list.
std::optional<std::string> scalar_of(const nlohmann::json &fields, std::string_view name) {
    const auto found = fields.find(std::string{name});
    if (found == fields.end() || !found->is_string()) {
        return std::nullopt;
    }
    return found->get<std::string>();
}

std::uint32_t count_field(const sdk::MemoryView &memory, const nlohmann::json &fields, std::string_view name) {
    const auto written = scalar_of(fields, name);
    if (!written) {
        if (fields.contains(std::string{name})) {
            throw std::invalid_argument("memory " + std::string{memory.id()} + " (" + std::string{memory.key()} +
                                        "): field '" + std::string{name} + "' is a list, not a whole number of judgements");
        }
        return 0;
    }
    const auto count = parse_count(*written);
    if (!count) {
        throw std::invalid_argument("memory " + std::string{memory.id()} + " (" + std::string{memory.key()} +
                                    "): field '" + std::string{name} + "' is '" + *written +
                                    "', not a whole number of judgements");
    }
    return *count;
}

std::int64_t whole_days(std::int64_t seconds) { return seconds <= 0 ? 0 : seconds / kSecondsPerDay; }

} // namespace

std::optional<std::uint32_t> parse_count(std::string_view text) {
    std::uint32_t count = 0;
    const auto *end = text.data() + text.size();
    const auto [stopped, error] = std::from_chars(text.data(), end, count);
    if (text.empty() || error != std::errc{} || stopped != end) {
        return std::nullopt;
    }
    return count;
}

UsageStatistics statistics_of(const sdk::MemoryView &memory, std::int64_t now) {
    UsageStatistics statistics;
    statistics.uses = memory.access_count();
    // Parsed once: a consolidation plans over every memory of the store.
    const nlohmann::json fields = memory.fields();
    statistics.helpful = count_field(memory, fields, helpful_field);
    statistics.unhelpful = count_field(memory, fields, unhelpful_field);
    const std::uint64_t judged = std::uint64_t{statistics.helpful} + statistics.unhelpful;
    if (judged > 0) {
        statistics.effectiveness = static_cast<double>(statistics.helpful) / static_cast<double>(judged);
    }
    statistics.age_days = whole_days(now - memory.created());
    statistics.idle_days = whole_days(now - memory.last_accessed());
    statistics.critical = scalar_of(fields, "critical") == std::optional<std::string>{"true"} ||
                          scalar_of(fields, "severity") == std::optional<std::string>{"critical"};
    statistics.core = fields.contains(std::string{core_field});
    return statistics;
}

} // namespace starling::usage
