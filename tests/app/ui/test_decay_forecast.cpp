// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/decay_forecast.hpp>

#include <catch2/catch.hpp>

#include <chrono>

using namespace starling::app::ui;

namespace {

/// Reviews a memory unused for 20 days and archives one unused for 100, as an idle-based policy does.
class IdlePlanner : public starling::core::DecayPlanner {
public:
    [[nodiscard]] std::vector<starling::sdk::LifecycleAction> plan(const starling_memory_batch &batch) const override {
        std::vector<starling::sdk::LifecycleAction> actions;
        for (std::size_t index = 0; index < batch.count; ++index) {
            const auto &memory = *batch.items[index];
            const auto idle_days = (batch.now - memory.last_accessed) / 86400;
            starling::sdk::LifecycleAction action;
            action.key = std::string(memory.key.data, memory.key.size);
            if (idle_days >= 100) {
                action.kind = starling::sdk::LifecycleAction::Kind::archive;
            } else if (idle_days >= 20) {
                action.kind = starling::sdk::LifecycleAction::Kind::mark_review;
            } else {
                continue;
            }
            action.reason = "idle " + std::to_string(idle_days) + " days";
            actions.push_back(action);
        }
        return actions;
    }
};

starling::core::IndexEntry idle_since(const std::string &key, std::chrono::sys_seconds last_accessed) {
    starling::core::IndexEntry entry;
    entry.key = key;
    entry.id = key;
    entry.type = "reference";
    entry.summary = key;
    entry.created = last_accessed;
    entry.last_accessed = last_accessed;
    return entry;
}

} // namespace

TEST_CASE("the forecast is the first day the plan acts on each memory", "[ui][decay]") {
    using namespace std::chrono;
    const sys_seconds now{sys_days{2026y / 11 / 29}.time_since_epoch()};
    const std::vector<starling::core::IndexEntry> entries{
        idle_since("fresh.md", now),                    // review from day 20: first asked on day 21
        idle_since("idle.md", now - days{25}),          // under review today
        idle_since("old.md", now - days{365 * 3}),      // archived today
    };
    const auto forecasts = forecast_decay(IdlePlanner{}, entries, {}, now);
    REQUIRE(forecasts.size() == 3);
    REQUIRE(forecasts[0]);
    CHECK(forecasts[0]->action == "mark_review");
    CHECK(forecasts[0]->in_days == 21);
    REQUIRE(forecasts[1]);
    CHECK(forecasts[1]->in_days == 0);
    REQUIRE(forecasts[2]);
    CHECK(forecasts[2]->action == "archive");
    CHECK(forecasts[2]->reason.starts_with("idle"));
}

TEST_CASE("a memory the plan leaves alone for two years has no forecast", "[ui][decay]") {
    class Idle : public starling::core::DecayPlanner {
    public:
        [[nodiscard]] std::vector<starling::sdk::LifecycleAction> plan(const starling_memory_batch &) const override {
            return {};
        }
    };
    const std::chrono::sys_seconds now{std::chrono::seconds{1'800'000'000}};
    const auto forecasts = forecast_decay(Idle{}, {idle_since("kept.md", now)}, {}, now);
    REQUIRE(forecasts.size() == 1);
    CHECK_FALSE(forecasts.front());
}
