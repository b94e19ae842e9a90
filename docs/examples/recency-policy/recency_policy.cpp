// SPDX-License-Identifier: Apache-2.0
//
// recency: a relevance policy that prefers what was used recently and often, ignoring the query.
// It exists to show a third-party plugin end to end: one class, one macro, settings with defaults.
#include <starling/sdk/plugin.hpp>

#include <cmath>

namespace {

class RecencyPolicy final : public starling::sdk::RelevancePolicy {
public:
    RecencyPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : half_life_days_(settings.get<double>("half_life_days", 14.0)),
          use_weight_(settings.get<double>("use_weight", 0.1)) {
        if (half_life_days_ <= 0.0) {
            throw std::invalid_argument("half_life_days must be positive");
        }
        host.debug("recency policy ready");
    }

    void score(std::string_view /*query*/, const starling::sdk::MemoryBatch &memories,
               std::span<double> scores) override {
        constexpr double seconds_per_day = 86400.0;
        for (std::size_t index = 0; index < memories.size(); ++index) {
            const auto memory = memories[index];
            const double idle_days =
                std::max(0.0, static_cast<double>(memories.now() - memory.last_accessed()) / seconds_per_day);
            const double freshness = std::exp2(-idle_days / half_life_days_);
            scores[index] = freshness * (1.0 + use_weight_ * static_cast<double>(memory.access_count()));
        }
    }

private:
    double half_life_days_;
    double use_weight_;
};

} // namespace

STARLING_DECLARE_PLUGIN(recency, RecencyPolicy, "recency", "1.0.0",
                        "example: recently and often used memories first, whatever the query",
                        R"({"half_life_days": 14.0, "use_weight": 0.1})")
