// SPDX-License-Identifier: Apache-2.0
//
// The grow-only rule, held by the host against plugins built on other versions of the ABI: the
// fixtures are relevance policies that know the ABI only as it was published (published_abi.h).
#include <starling/core/lifecycle/consolidation.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>
#include <starling/sdk/abi_layout.h>

#include "support/fake_policies.hpp"
#include "support/quiet_logger.hpp"
#include "support/temp_dir.hpp"
#include "support/test_batch.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::core::MemoryCollection;
using starling::core::RankedKey;
using starling::plugins::LoadErrorKind;
using starling::plugins::PluginLoadError;
using starling::plugins::PluginRegistry;
using starling::test::quiet_logger;

static_assert(STARLING_STRUCT_HAS(starling_relevance_v1, STARLING_RELEVANCE_V1_SIZE_1_0, score));
static_assert(!STARLING_STRUCT_HAS(starling_relevance_v1, STARLING_RELEVANCE_V1_SIZE_1_0 - 1, score));

namespace {

fs::path fixture(const std::string &name) { return fs::path{STARLING_TEST_FIXTURE_PLUGIN_DIR} / (name + ".so"); }

const std::string kHostAbi = std::to_string(STARLING_ABI_MAJOR) + "." + std::to_string(STARLING_ABI_MINOR);

/// Three memories whose summaries share 9, 3 and 0 leading bytes with "dark mode", the fixtures'
/// score for each.
starling::test::TestBatch dark_mode_batch() {
    starling::test::TestBatch batch;
    batch.add({"a.md", "dark mode everywhere", "", ""}).add({"b.md", "dart", "", ""}).add({"c.md", "bun", "", ""});
    return batch;
}

const std::vector<double> kDarkModeScores{9.0, 3.0, 0.0};

const auto kNow = std::chrono::sys_seconds{std::chrono::seconds{1'700'000'000}};

/// Builds the index of one collection and checks that the policy answers from it, and only for
/// that version of it.
void check_index_round_trip(const starling::plugins::RelevancePolicyInstance &policy) {
    REQUIRE(policy.keeps_index());
    auto batch = dark_mode_batch();
    const MemoryCollection user{"user", "v1"};
    CHECK_FALSE(policy.index_current(user));
    CHECK_FALSE(policy.rank("dark mode", std::vector{user}, kNow, 10).has_value());
    policy.build_index(user, batch.batch());
    CHECK(policy.index_current(user));
    CHECK(policy.rank("dark mode", std::vector{user}, kNow, 10) == std::vector<RankedKey>{{"user", 3.0}});
    // Built before starling.relevance-first-pass/1 (ABI 1.10): its only pass is its first.
    CHECK(policy.rank_first_pass("dark mode", std::vector{user}, kNow, 10) == std::vector<RankedKey>{{"user", 3.0}});
    CHECK_FALSE(policy.index_current(MemoryCollection{"user", "v2"}));
}

/// Why creating `id` from `module` failed, or nothing if it did not.
std::optional<PluginLoadError> refusal(const std::string &module, const std::string &id) {
    PluginRegistry registry{quiet_logger()};
    registry.add_module(fixture(module));
    try {
        (void)registry.create_relevance_policy(id, "{}");
    } catch (const PluginLoadError &failure) {
        return failure;
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("a plugin built against ABI 1.0 loads and scores", "[plugins][abi]") {
    PluginRegistry registry{quiet_logger()};
    const auto info = registry.add_module(fixture("abi_1_0_relevance")).front();
    CHECK(info.abi_minor == 0);
    CHECK(registry.problems().empty());

    const auto policy = registry.create_relevance_policy("abi-1-0", "{}");
    auto batch = dark_mode_batch();
    CHECK(policy.score("dark mode", batch.batch()) == kDarkModeScores);
    CHECK(policy.score_first_pass("dark mode", batch.batch()) == kDarkModeScores); // its only pass
    CHECK_FALSE(policy.keeps_index());
}

TEST_CASE("a plugin built against ABI 1.2 loads, scores and ranks from its index", "[plugins][abi]") {
    PluginRegistry registry{quiet_logger()};
    const auto info = registry.add_module(fixture("abi_1_2_relevance")).front();
    CHECK(info.abi_minor == 2);

    const auto policy = registry.create_relevance_policy("abi-1-2", "{}");
    auto batch = dark_mode_batch();
    CHECK(policy.score("dark mode", batch.batch()) == kDarkModeScores);
    check_index_round_trip(policy);
}

TEST_CASE("tables larger than the host's, as a later minor grows them, are read as far as the host knows them",
          "[plugins][abi]") {
    PluginRegistry registry{quiet_logger()};
    registry.add_module(fixture("grown_relevance"));
    {
        const auto instance = registry.create("grown-relevance", "{}");
        const auto *relevance =
            static_cast<const starling_relevance_v1 *>(instance.interface(STARLING_RELEVANCE_INTERFACE_V1));
        const auto *index = static_cast<const starling_relevance_index_v1 *>(
            instance.interface(STARLING_RELEVANCE_INDEX_INTERFACE_V1));
        REQUIRE(relevance != nullptr);
        REQUIRE(index != nullptr);
        // Once this host's own tables outgrow the fixture's, the fixture must grow again.
        CHECK(relevance->struct_size > sizeof(starling_relevance_v1));
        CHECK(index->struct_size > sizeof(starling_relevance_index_v1));
    }

    const auto policy = registry.create_relevance_policy("grown-relevance", "{}");
    auto batch = dark_mode_batch();
    CHECK(policy.score("dark mode", batch.batch()) == kDarkModeScores);
    check_index_round_trip(policy);
}

TEST_CASE("a descriptor one byte smaller than ABI 1.0's is refused, naming the file", "[plugins][abi]") {
    PluginRegistry registry{quiet_logger()};
    try {
        registry.add_module(fixture("short_descriptor"));
        FAIL("a descriptor smaller than ABI 1.0's was accepted");
    } catch (const PluginLoadError &failure) {
        CHECK(failure.error().kind == LoadErrorKind::invalid_descriptor);
        CHECK_THAT(failure.what(), Catch::Contains("short_descriptor.so"));
        CHECK_THAT(failure.what(), Catch::Contains("plugin ABI " + kHostAbi + ", host ABI " + kHostAbi));
        CHECK_THAT(failure.what(),
                   Catch::Contains(std::to_string(STARLING_PLUGIN_DESCRIPTOR_SIZE_1_0 - 1) + " bytes, ABI 1.0 needs"));
    }
}

TEST_CASE("a call table one byte smaller than its first published version is refused, naming the file",
          "[plugins][abi]") {
    const auto failure = refusal("short_relevance_table", "short-relevance-table");
    REQUIRE(failure.has_value());
    CHECK(failure->error().kind == LoadErrorKind::missing_interface);
    CHECK_THAT(failure->what(), Catch::Contains("short_relevance_table.so"));
    CHECK_THAT(failure->what(), Catch::Contains("plugin ABI 1.0, host ABI " + kHostAbi));
    CHECK_THAT(failure->what(), Catch::Contains(std::to_string(STARLING_RELEVANCE_V1_SIZE_1_0 - 1) + " bytes"));
}

TEST_CASE("a call table without a function the host calls is refused, naming the file", "[plugins][abi]") {
    const auto failure = refusal("relevance_without_score", "relevance-without-score");
    REQUIRE(failure.has_value());
    CHECK(failure->error().kind == LoadErrorKind::missing_interface);
    CHECK_THAT(failure->what(), Catch::Contains("relevance_without_score.so"));
    CHECK_THAT(failure->what(), Catch::Contains("plugin ABI 1.0, host ABI " + kHostAbi));
}

TEST_CASE("a decay policy built against ABI 1.3 loads and plans over the views of ABI 1.4", "[plugins][abi][abi-1-4]") {
    PluginRegistry registry{quiet_logger()};
    const auto info = registry.add_module(fixture("abi_1_3_decay")).front();
    CHECK(info.abi_minor == 3);
    CHECK(registry.problems().empty());
    const auto policy = registry.create_decay_policy("abi-1-3-decay", "{}");

    starling::test::TempDir directory{"abi-1-3-decay"};
    const starling::core::FixedClock clock{kNow};
    starling::core::MemoryStore store{directory.path(), clock};
    const auto make = [&](std::string summary) {
        starling::core::Memory memory;
        memory.type = "project";
        memory.summary = std::move(summary);
        memory.set_extra_field("salience", "high"); // a field the 1.3 module cannot see, and need not
        return store.create(starling::core::Scope::user(), starling::core::Tier::short_term, std::move(memory));
    };
    const auto old = make("old deploy note");
    const auto current = make("current deploy note");

    const auto report = starling::core::consolidate(store, policy, false);
    REQUIRE(report.actions.size() == 1);
    CHECK(report.actions[0].action.key == old);
    CHECK(report.actions[0].applied);
    CHECK_FALSE(store.contains(old));
    CHECK(store.contains(current));
}

TEST_CASE("a decision policy built against ABI 1.5 loads and decides, and is never asked for a closest similarity",
          "[plugins][abi][abi-1-6]") {
    PluginRegistry registry{quiet_logger()};
    const auto info = registry.add_module(fixture("abi_1_5_decision")).front();
    CHECK(info.abi_minor == 5);
    CHECK(registry.problems().empty());
    const auto decision = registry.create_decision_policy("abi-1-5-decision", "{}");
    // Its call table ends before the flags of 1.6: it asks for nothing.
    CHECK_FALSE(decision.wants_closest_similarity());

    // A message that carries a similarity reaches it without one (the module fails a request that has it).
    starling::sdk::Message near{"use bun, not npm", "claude-code", "shop"};
    near.closest_similarity = 0.7;
    const auto decided = decision.decide({near, starling::sdk::Message{"and pnpm never", "claude-code", ""}});
    REQUIRE(decided.size() == 2);
    CHECK(decided[0].store);
    CHECK(decided[1].reason == "stored by a policy of ABI 1.5");

    // Remembering through it costs no search for the closest memory; only the duplicate check searches.
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    // Built against 1.6, a policy that does not weigh novelty asks for nothing either.
    CHECK_FALSE(registry.create_decision_policy("collie-tree", registry.find("collie-tree")->default_settings_json)
                    .wants_closest_similarity());
    const auto usage = registry.create_decay_policy("usage", registry.find("usage")->default_settings_json);
    const starling::test::CountingJudge judge{usage};
    starling::test::TempDir directory{"abi-1-5-decision"};
    const starling::core::FixedClock clock{kNow};
    starling::core::MemoryStore store{directory.path(), clock};
    starling::core::Memory memory;
    memory.type = "feedback";
    memory.summary = "use bun, not npm";
    memory.body = "use bun, not npm\n";
    static_cast<void>(store.create(starling::core::Scope::user(), starling::core::Tier::short_term, std::move(memory)));
    starling::core::Rememberer rememberer{store, starling::core::ActivePolicies{&decision, &judge, nullptr}};
    const starling::core::RememberRequest request{"deploy the frontend with bun", "claude-code", "s-1", "", std::nullopt};
    CHECK(rememberer.classify({request}).front().store);
    CHECK(judge.calls == 0);
    const auto outcome = rememberer.remember(request);
    CHECK(outcome.action == starling::core::RememberOutcome::Action::created);
    CHECK(outcome.reason == "stored by a policy of ABI 1.5");
    CHECK(judge.calls == 2); // the duplicate check: candidates, then their texts
}
