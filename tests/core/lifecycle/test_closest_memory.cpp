// SPDX-License-Identifier: Apache-2.0
//
// The closest memory of each message put to a decision policy that weighs novelty (ABI 1.6): judged
// by the decay policy's duplicate judge, over the scopes the message could be stored in, and only
// for a policy that asks.
#include <starling/core/lifecycle/closest_memory.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include "support/fake_policies.hpp"
#include "support/quiet_logger.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using namespace starling;

namespace {

/// Stores nothing; remembers each message as it was put to it.
class RecordingDecider final : public core::DecisionMaker {
public:
    explicit RecordingDecider(bool asks) : asks_(asks) {}
    std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const override {
        seen.insert(seen.end(), messages.begin(), messages.end());
        return std::vector<sdk::Decision>(messages.size(), sdk::Decision{false, "", "", "recorded", "", {}});
    }
    std::string review_request(const sdk::ReviewRequest & /*request*/) const override { return {}; }
    bool wants_closest_similarity() const override { return asks_; }
    mutable std::vector<sdk::Message> seen;

private:
    bool asks_;
};

/// `usage`, the consolidation profile's decay policy: the skill's keyword similarity (a Jaccard index
/// of keywords of 3 characters or more, stop words left out) judges duplicates.
struct Usage {
    Usage() : registry(test::quiet_logger()) {
        registry.add_static_plugins(plugins::linked_static_plugins());
        policy.emplace(registry.create_decay_policy("usage", registry.find("usage")->default_settings_json));
    }
    plugins::PluginRegistry registry;
    std::optional<plugins::DecayPolicyInstance> policy;
};

// Keywords: keep, mind, invoice, exporter, writes, csv, files, semicolons, whenever, locale, german.
const std::string kGerman =
    "Keep in mind that the invoice exporter writes CSV files with semicolons whenever the locale is German.";
// The same ten, and french and polish instead of german: 10 shared of 13, about 0.77.
const std::string kFrenchOrPolish =
    "Keep in mind that the invoice exporter writes CSV files with semicolons whenever the locale is French or Polish.";
constexpr double kFrenchOrPolishSimilarity = 10.0 / 13.0;
const std::string kUnrelated = "Deploy the frontend with bun.";

struct ClosestFixture {
    test::TempDir directory{"closest-memory"};
    core::FixedClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};
    core::MemoryStore store{directory.path(), clock};
    Usage usage;
    test::CountingJudge judge{*usage.policy};
    test::WordOverlapScorer scorer;

    /// A memory as `remember` writes one: the message's first line its summary, the message its text.
    std::string memory(const std::string &text, const core::Scope &scope = core::Scope::user()) {
        core::Memory memory;
        memory.type = "feedback";
        memory.summary = text;
        memory.body = text + "\n";
        return store.create(scope, core::Tier::short_term, std::move(memory));
    }

    /// What the decider was told about each message when `rememberer` classified them.
    std::vector<double> told(const RecordingDecider &decider, core::ActivePolicies policies,
                             const std::vector<core::RememberRequest> &requests) {
        policies.decision = &decider;
        const core::Rememberer rememberer{store, policies};
        static_cast<void>(rememberer.classify(requests));
        std::vector<double> similarities;
        for (const auto &message : decider.seen) {
            similarities.push_back(message.closest_similarity);
        }
        decider.seen.clear();
        return similarities;
    }
};

core::RememberRequest request(std::string text, std::string project = {}) {
    return {std::move(text), "claude-code", "session-1", std::move(project), std::nullopt};
}

} // namespace

TEST_CASE("closest similarity: a message restating a memory at about 0.77 is told so, as the decay policy judges it",
          "[lifecycle][closest-memory]") {
    ClosestFixture fixture;
    const auto key = fixture.memory(kGerman);
    const RecordingDecider asks{true};
    const auto similarities = fixture.told(asks, core::ActivePolicies{nullptr, &fixture.judge, &fixture.scorer},
                                           {request(kFrenchOrPolish), request(kUnrelated), request(kGerman)});
    REQUIRE(similarities.size() == 3);
    CHECK(similarities[0] == Approx(kFrenchOrPolishSimilarity));
    CHECK(similarities[0] > 0.6);
    CHECK(similarities[1] == 0.0); // a memory to compare, nothing in common
    CHECK(similarities[2] == Approx(1.0));

    // Without a relevance policy the decay policy picks the candidates too; the answer is the same.
    CHECK_THAT(fixture.told(asks, core::ActivePolicies{nullptr, &fixture.judge, nullptr}, {request(kFrenchOrPolish)}),
               Catch::Matchers::Approx(std::vector<double>{kFrenchOrPolishSimilarity}));

    const auto closest = core::find_closest_memory(fixture.store, core::ActivePolicies{nullptr, &fixture.judge, nullptr},
                                                   8, core::Scope::user(), kFrenchOrPolish);
    REQUIRE(closest);
    CHECK(closest->key == key);
    CHECK(closest->id == core::memory_id_of(fixture.store.read(key)));
    CHECK(closest->similarity == Approx(kFrenchOrPolishSimilarity));
}

TEST_CASE("closest similarity: none, and no search, when the policy did not ask", "[lifecycle][closest-memory]") {
    ClosestFixture fixture;
    fixture.memory(kGerman);
    const RecordingDecider does_not_ask{false};
    CHECK(fixture.told(does_not_ask, core::ActivePolicies{nullptr, &fixture.judge, &fixture.scorer},
                       {request(kFrenchOrPolish), request(kGerman, "shop")}) == std::vector<double>{-1.0, -1.0});
    CHECK(fixture.judge.calls == 0);
    CHECK(fixture.scorer.calls == 0);
}

TEST_CASE("closest similarity: none when the store holds no memory, or no decay policy judges duplicates",
          "[lifecycle][closest-memory]") {
    ClosestFixture fixture;
    const RecordingDecider asks{true};
    CHECK(fixture.told(asks, core::ActivePolicies{nullptr, &fixture.judge, &fixture.scorer},
                       {request(kGerman), request(kGerman, "shop")}) == std::vector<double>{-1.0, -1.0});
    CHECK(fixture.judge.calls == 0);
    CHECK_FALSE(core::find_closest_memory(fixture.store, core::ActivePolicies{nullptr, &fixture.judge, nullptr}, 8,
                                          core::Scope::user(), kGerman));

    fixture.memory(kGerman);
    CHECK(fixture.told(asks, core::ActivePolicies{nullptr, nullptr, &fixture.scorer}, {request(kGerman)}) ==
          std::vector<double>{-1.0});
    const test::ScriptedPlanner judges_nothing; // plans, but offers no starling.duplicates/1
    CHECK(fixture.told(asks, core::ActivePolicies{nullptr, &judges_nothing, &fixture.scorer}, {request(kGerman)}) ==
          std::vector<double>{-1.0});
}

TEST_CASE("closest similarity: over the scopes the message could be stored in — the user's, and its project's",
          "[lifecycle][closest-memory]") {
    ClosestFixture fixture;
    fixture.memory(kGerman, core::Scope::project("shop"));
    const RecordingDecider asks{true};
    const core::ActivePolicies policies{nullptr, &fixture.judge, &fixture.scorer};
    CHECK_THAT(fixture.told(asks, policies,
                            {request(kFrenchOrPolish, "shop"), request(kFrenchOrPolish), request(kFrenchOrPolish, "blog")}),
               Catch::Matchers::Approx(std::vector<double>{kFrenchOrPolishSimilarity, -1.0, -1.0}));

    // With a memory in each, the closer one counts, whichever scope holds it.
    fixture.memory(kUnrelated);
    CHECK_THAT(fixture.told(asks, policies, {request(kFrenchOrPolish, "shop"), request(kUnrelated, "shop")}),
               Catch::Matchers::Approx(std::vector<double>{kFrenchOrPolishSimilarity, 1.0}));
}

TEST_CASE("closest naming: of the memories that name a term as a whole word, in any case, the closest",
          "[lifecycle][closest-memory][corrections]") {
    ClosestFixture fixture;
    const auto yarn = fixture.memory("We use Yarn with its plug'n'play installs in CI.");
    const auto agrees = fixture.memory("Use pnpm for this repo.");
    const auto longer_name = fixture.memory("The replica is db-staging-10.");
    const auto han = fixture.memory("测试都用 mockito 写。");
    const core::ActivePolicies policies{nullptr, &fixture.judge, &fixture.scorer};
    const auto naming = [&](const std::vector<std::string> &terms, const std::string &text) {
        return core::find_closest_naming(fixture.store, policies, 8, core::Scope::user(), terms, text);
    };
    // The memory that agrees with the text is closer to it, but names nothing it retires.
    const auto retired = naming({"yarn"}, "Use pnpm for this repo, not yarn.");
    REQUIRE(retired);
    CHECK(retired->key == yarn);
    CHECK(retired->similarity > 0.0);
    CHECK(core::find_closest_memory(fixture.store, policies, 8, core::Scope::user(), "Use pnpm for this repo, not yarn.")
              ->key == agrees);
    CHECK_FALSE(naming({"db-staging-1"}, "The replica is db-staging-2, not db-staging-1.")); // not db-staging-10
    CHECK(naming({"db-staging-10"}, "The replica is db-staging-11.")->key == longer_name);
    CHECK(naming({"mockito"}, "测试改用 mocktail，不再用 mockito。")->key == han);
    CHECK_FALSE(naming({"jenkins"}, "Builds run on GitHub Actions, not Jenkins."));
    CHECK_FALSE(naming({}, "Use pnpm."));
}
