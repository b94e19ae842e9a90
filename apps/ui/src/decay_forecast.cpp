// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/decay_forecast.hpp>

#include <starling/core/store/memory_view_batch.hpp>

#include <map>

namespace starling::app::ui {

std::vector<std::optional<DecayForecast>> forecast_decay(const core::DecayPlanner &planner,
                                                         const std::vector<core::IndexEntry> &entries,
                                                         const std::vector<std::string> &bodies,
                                                         std::chrono::sys_seconds now) {
    std::vector<std::optional<DecayForecast>> forecasts(entries.size());
    std::map<std::string, std::size_t, std::less<>> position_of;
    for (std::size_t index = 0; index < entries.size(); ++index) {
        position_of.emplace(entries[index].key, index);
    }
    std::size_t open = entries.size();
    for (const int day : forecast_days) {
        if (open == 0) {
            break;
        }
        const auto when = now + std::chrono::days{day};
        const core::MemoryViewBatch batch = planner.plans_with_bodies()
                                                ? core::MemoryViewBatch{entries, bodies, when}
                                                : core::MemoryViewBatch{entries, when};
        for (const auto &action : planner.plan(batch.batch())) {
            const auto found = position_of.find(action.key);
            if (found == position_of.end() || forecasts[found->second]) {
                continue;
            }
            forecasts[found->second] = DecayForecast{std::string(sdk::to_string(action.kind)), day, action.reason};
            --open;
        }
    }
    return forecasts;
}

} // namespace starling::app::ui
