// SPDX-License-Identifier: Apache-2.0
// collie-tiers as the judge of duplicates (starling.duplicates/1), through the plugin boundary: how
// closely a new message restates each memory, on bodies or, to pick candidates, on summaries and tags.
#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/memory_view_batch.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

using namespace starling;

namespace {

core::IndexEntry entry(std::string key, std::string summary, std::vector<std::string> tags = {}) {
    core::IndexEntry made;
    made.key = std::move(key);
    made.summary = std::move(summary);
    made.tags = std::move(tags);
    made.type = "feedback";
    return made;
}

struct Judge {
    Judge() : registry(test::quiet_logger()) {
        registry.add_static_plugins(plugins::linked_static_plugins());
        policy.emplace(registry.create_decay_policy("collie-tiers", registry.find("collie-tiers")->default_settings_json));
    }
    plugins::PluginRegistry registry;
    std::optional<plugins::DecayPolicyInstance> policy;
};

const std::chrono::sys_seconds kNow{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};

} // namespace

TEST_CASE("collie-tiers judges a restatement close and a new statement far, statement by statement",
          "[policies][collie-tiers][duplicates]") {
    Judge judge;
    const core::MemoryViewBatch memories{
        {entry("memory/user/short/lint.md", "always run the linter before merging"),
         entry("memory/user/short/staging.md", "the staging database is read-only")},
        {"always run the linter before merging\n\nalways run the linter before merging, with --fix\n\n"
         "always run the linter before merging on CI too\n\nalways run the linter before merging the release branch\n",
         "the staging database is read-only\n"},
        kNow};
    const auto restated = judge.policy->similarity("always run the linter before merging, please", memories.batch());
    REQUIRE(restated);
    REQUIRE(restated->size() == 2);
    CHECK((*restated)[0] >= 0.6);
    CHECK((*restated)[1] < 0.6);
    // Every word of it is somewhere in the grown memory, but in no single statement of it.
    const auto scattered = judge.policy->similarity("release branch on CI too, with fix", memories.batch());
    REQUIRE(scattered);
    CHECK((*scattered)[0] < 0.6);
    for (const double similarity : *restated) {
        CHECK(similarity >= 0.0);
        CHECK(similarity <= 1.0);
    }
}

TEST_CASE("without bodies, collie-tiers judges by summary and tags", "[policies][collie-tiers][duplicates]") {
    Judge judge;
    const core::MemoryViewBatch memories{
        {entry("memory/user/short/a.md", "package manager", {"bun", "javascript", "tooling"}),
         entry("memory/user/short/b.md", "code review etiquette")},
        kNow};
    const auto judged = judge.policy->similarity("use bun as the javascript package manager", memories.batch());
    REQUIRE(judged);
    CHECK((*judged)[0] > (*judged)[1]);
    CHECK((*judged)[1] == 0.0);
}

TEST_CASE("a decay policy without starling.duplicates/1 judges nothing", "[policies][duplicates][plugins]") {
    plugins::PluginRegistry registry{test::quiet_logger()};
    const auto info = registry.add_module(std::filesystem::path{STARLING_TEST_FIXTURE_PLUGIN_DIR} / "blocking_decay.so").front();
    const auto policy = registry.create_decay_policy(info.id, info.default_settings_json);
    const core::MemoryViewBatch memories{{entry("memory/user/short/a.md", "anything")}, kNow};
    CHECK_FALSE(policy.similarity("anything", memories.batch()));
}
