// SPDX-License-Identifier: Apache-2.0
#include "tiers_settings.hpp"

#include <boost/property_tree/ptree.hpp>

#include <limits>
#include <stdexcept>
#include <string>

namespace starling::collie_tiers {
namespace {

// A century bounds every day count, so day arithmetic in seconds cannot overflow.
constexpr int max_days = 36'500;

template <class Value>
Value read_value(const sdk::Settings &settings, const std::string &path, Value fallback) {
    const auto node = settings.get_child_optional(path);
    if (!node) {
        return fallback;
    }
    // get_value_optional, not get(path, fallback): that one silently answers the fallback for "sixty".
    const auto value = node->get_value_optional<Value>();
    if (!value) {
        throw std::invalid_argument("collie-tiers setting '" + path + "' has the wrong type: '" + node->data() +
                                    "'");
    }
    return *value;
}

int read_days(const sdk::Settings &settings, const std::string &path, int fallback) {
    const int days = read_value<int>(settings, path, fallback);
    if (days < 0 || days > max_days) {
        throw std::invalid_argument("collie-tiers setting '" + path + "' must be between 0 and " +
                                    std::to_string(max_days) + " days, not " + std::to_string(days));
    }
    return days;
}

std::uint32_t read_count(const sdk::Settings &settings, const std::string &path, std::uint32_t fallback) {
    constexpr auto max_count = std::numeric_limits<std::uint32_t>::max();
    const long long count = read_value<long long>(settings, path, fallback);
    if (count < 0 || count > static_cast<long long>(max_count)) {
        throw std::invalid_argument("collie-tiers setting '" + path + "' must be a count between 0 and " +
                                    std::to_string(max_count) + ", not " + std::to_string(count));
    }
    return static_cast<std::uint32_t>(count);
}

} // namespace

TiersSettings read_tiers_settings(const sdk::Settings &settings) {
    const TiersSettings defaults;
    TiersSettings read;
    read.short_max_idle_days = read_days(settings, "short.max_idle_days", defaults.short_max_idle_days);
    read.long_review_idle_days = read_days(settings, "long.review_idle_days", defaults.long_review_idle_days);
    read.long_archive_after_review_days =
        read_days(settings, "long.archive_after_review_days", defaults.long_archive_after_review_days);
    read.promote_min_access_count =
        read_count(settings, "promote.min_access_count", defaults.promote_min_access_count);
    read.promote_min_session_count =
        read_count(settings, "promote.min_session_count", defaults.promote_min_session_count);
    read.merge_enabled = read_value<bool>(settings, "merge.enabled", defaults.merge_enabled);
    read.merge_min_similarity =
        read_value<double>(settings, "merge.min_similarity", defaults.merge_min_similarity);
    if (!(read.merge_min_similarity > 0.0 && read.merge_min_similarity <= 1.0)) {
        throw std::invalid_argument("collie-tiers setting 'merge.min_similarity' must be in (0, 1], not " +
                                    std::to_string(read.merge_min_similarity));
    }
    read.merge_include_tags = read_value<bool>(settings, "merge.include_tags", defaults.merge_include_tags);
    const long long candidates =
        read_value<long long>(settings, "merge.max_candidates_per_token",
                              static_cast<long long>(defaults.merge_max_candidates_per_token));
    if (candidates < 1) {
        throw std::invalid_argument(
            "collie-tiers setting 'merge.max_candidates_per_token' must be at least 1, not " +
            std::to_string(candidates));
    }
    read.merge_max_candidates_per_token = static_cast<std::size_t>(candidates);
    if (const auto types = settings.get_child_optional("keep.types")) {
        if (!types->data().empty()) {
            throw std::invalid_argument("collie-tiers setting 'keep.types' must be a list of memory types, not '" +
                                        types->data() + "'");
        }
        read.keep_types = sdk::get_string_list(settings, "keep.types");
    }
    return read;
}

} // namespace starling::collie_tiers
