// SPDX-License-Identifier: Apache-2.0
//
// The arithmetic of bm25's scores, in one place, because two paths compute them — scoring a whole
// batch and ranking from an index — and their results must agree to the last bit. Every function
// is evaluated in exactly the order written here; do not "simplify" an expression in one caller.
#pragma once

#include "bm25_settings.hpp"
#include "memory_fields.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace starling::bm25 {

/// The average number of terms of each field over the memories scored together, at least 1.
using FieldAverages = std::array<double, field_count>;

/// Length totals are sums of integers, so they are exact in a double up to 2^53 terms.
[[nodiscard]] inline FieldAverages field_averages(const std::array<std::uint64_t, field_count> &totals,
                                                  std::size_t memories) noexcept {
    FieldAverages averages{};
    for (std::size_t field = 0; field < field_count; ++field) {
        averages[field] = std::max(static_cast<double>(totals[field]) / static_cast<double>(memories), 1.0);
    }
    return averages;
}

/// Lucene's BM25 idf: always positive, so a term in most memories still counts a little.
[[nodiscard]] inline double inverse_document_frequency(double memories, double containing) noexcept {
    return std::log(1.0 + (memories - containing + 0.5) / (containing + 0.5));
}

/// BM25F's length normalisation of one field of a memory: 1 where the field is of average length.
[[nodiscard]] inline double normalised_length(std::uint32_t length, double average, const Bm25Settings &settings) noexcept {
    return 1.0 - settings.b + settings.b * length / average;
}

/// What one field of a memory adds to a term's pseudo-frequency: the term's count in it, weighted
/// and normalised by the field's length.
[[nodiscard]] inline double field_frequency(std::size_t field, std::uint32_t count, std::uint32_t length,
                                            double average, const Bm25Settings &settings) noexcept {
    return settings.field_weights[field] * count / normalised_length(length, average, settings);
}

/// field_frequency() of the counts and lengths most occurrences have, each computed the first time
/// an evaluation meets it and then looked up: a prompt at 10,000 memories visits tens of thousands
/// of occurrences, and their two divisions per field were most of its arithmetic. The same
/// expression, so the same values to the last bit; other counts and lengths are computed when met.
class FieldFrequencies {
public:
    static constexpr std::uint32_t tabulated_counts = 4;
    static constexpr std::uint32_t tabulated_lengths = 256;

    void reset(const FieldAverages &averages, const Bm25Settings &settings) {
        averages_ = averages;
        settings_ = &settings;
        table_.assign(field_count * tabulated_counts * tabulated_lengths, not_computed);
    }
    /// Only after reset(); `count` above 0.
    [[nodiscard]] double operator()(std::size_t field, std::uint32_t count, std::uint32_t length) noexcept {
        if (count > tabulated_counts || length >= tabulated_lengths) {
            return field_frequency(field, count, length, averages_[field], *settings_);
        }
        double &value = table_[(field * tabulated_counts + count - 1) * tabulated_lengths + length];
        if (std::isnan(value)) { // not computed yet, or NaN itself (a weight of 0 over a length of 0 at b = 1)
            value = field_frequency(field, count, length, averages_[field], *settings_);
        }
        return value;
    }

private:
    static constexpr double not_computed = std::numeric_limits<double>::quiet_NaN();
    FieldAverages averages_{};
    const Bm25Settings *settings_ = nullptr;
    std::vector<double> table_;
};

/// BM25F's pseudo-frequency of a term in a memory: each field's count, weighted and normalised by
/// that field's length, summed over the fields (Robertson et al. 2004). 0 when the term occurs only
/// in fields weighted 0.
[[nodiscard]] inline double field_weighted_frequency(const FieldCounts &counts, const FieldCounts &lengths,
                                                     FieldFrequencies &frequencies) noexcept {
    double frequency = 0.0;
    for (std::size_t field = 0; field < field_count; ++field) {
        if (counts[field] == 0) {
            continue;
        }
        frequency += frequencies(field, counts[field], lengths[field]);
    }
    return frequency;
}

/// What one term adds to a memory's score: its weight in the query, its idf, and the saturated
/// frequency.
[[nodiscard]] inline double term_contribution(double weight, double idf, double frequency,
                                              const Bm25Settings &settings) noexcept {
    return weight * idf * frequency * (settings.k1 + 1.0) / (settings.k1 + frequency);
}

/// What one term would add to a memory that it saturates (frequency without bound): term_contribution()
/// approaches it from below.
[[nodiscard]] inline double saturated_contribution(double weight, double idf, const Bm25Settings &settings) noexcept {
    return weight * idf * (settings.k1 + 1.0);
}

/// The average number of terms a memory says itself (own_fields_sum() of its lengths) over the
/// memories scored together, at least 1.
[[nodiscard]] inline double average_own_length(const std::array<std::uint64_t, field_count> &totals,
                                               std::size_t memories) noexcept {
    return std::max(static_cast<double>(own_fields_sum(totals)) / static_cast<double>(memories), 1.0);
}

/// The factor a matching memory's score is multiplied by for how much it says: (own length / the
/// average) ^ length_prior, a memory of no terms of its own counted as having one. BM25's length
/// normalisation keeps a long memory from matching by sheer size; this prior says, the other way,
/// that a memory saying more is likelier to hold an answer: on LoCoMo's tuning half, 59 % of the
/// turns of 45 words or more are evidence for some question, and 7 % of those under 15 words.
[[nodiscard]] inline double length_prior(std::uint32_t own_terms, double average, const Bm25Settings &settings) noexcept {
    return std::pow(std::max(static_cast<double>(own_terms), 1.0) / average, settings.length_prior);
}

/// The factor a matching memory's score is multiplied by: 1 + recency + reinforcement.
[[nodiscard]] inline double boost_factor(std::int64_t now, std::int64_t last_accessed, std::uint32_t access_count,
                                         std::uint32_t session_count, const Bm25Settings &settings) noexcept {
    constexpr double seconds_per_day = 86400.0;
    const double age_days = std::max(0.0, static_cast<double>(now - last_accessed) / seconds_per_day);
    const double recency = std::exp2(-age_days / settings.recency_half_life_days);
    const double reinforcement = settings.access_weight * std::log1p(access_count) +
                                 settings.session_weight * std::log1p(session_count);
    return 1.0 + settings.recency_weight * recency + reinforcement;
}

/// A factor no memory with at most these counts can exceed, whatever its age: recency is at most 1.
/// Slightly above the largest boost_factor() so that rounding can never make a boost exceed it.
[[nodiscard]] inline double boost_factor_bound(std::uint32_t max_access_count, std::uint32_t max_session_count,
                                               const Bm25Settings &settings) noexcept {
    const double reinforcement = settings.access_weight * std::log1p(max_access_count) +
                                 settings.session_weight * std::log1p(max_session_count);
    return (1.0 + settings.recency_weight + reinforcement) * (1.0 + 1e-9);
}

} // namespace starling::bm25
