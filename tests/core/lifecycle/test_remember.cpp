// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/sdk/memory_view.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include "support/fake_policies.hpp"
#include "support/quiet_logger.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <optional>

using namespace starling;
using core::RememberOutcome;

namespace {

/// collie-tiers, the default decay policy, which judges what a duplicate is (starling.duplicates/1).
struct CollieTiers {
    CollieTiers() : registry(test::quiet_logger()) {
        registry.add_static_plugins(plugins::linked_static_plugins());
        policy.emplace(registry.create_decay_policy("collie-tiers", registry.find("collie-tiers")->default_settings_json));
    }
    plugins::PluginRegistry registry;
    std::optional<plugins::DecayPolicyInstance> policy;
};

struct RememberFixture {
    test::TempDir directory{"remember"};
    core::FixedClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};
    core::MemoryStore store{directory.path(), clock};
    test::PrefixDecider decider;
    test::WordOverlapScorer scorer;
    CollieTiers decay;
    core::Rememberer rememberer{store, core::ActivePolicies{&decider, &*decay.policy, &scorer}};

    core::RememberRequest request(std::string text, std::string project = {}) {
        return {std::move(text), "claude-code", "session-1", std::move(project), std::nullopt};
    }
};

/// Judges every candidate a duplicate and archives it while judging: another process forgetting the
/// memory between the duplicate check and the update.
class VanishingJudge final : public core::DecayPlanner {
public:
    explicit VanishingJudge(core::MemoryStore &store) : store_(&store) {}
    std::vector<sdk::LifecycleAction> plan(const starling_memory_batch & /*batch*/) const override { return {}; }
    std::optional<std::vector<double>> similarity(std::string_view /*text*/,
                                                  const starling_memory_batch &batch) const override {
        std::vector<std::string> keys;
        for (std::size_t index = 0; index < batch.count; ++index) {
            keys.emplace_back(sdk::MemoryView{*batch.items[index]}.key());
        }
        for (const auto &key : keys) {
            static_cast<void>(store_->archive(key, "forgotten meanwhile"));
        }
        return std::vector<double>(batch.count, 1.0);
    }

private:
    core::MemoryStore *store_;
};

/// A decision policy's answer for a correction: the user's feedback, superseding what it corrects
/// (and naming what it `retires`, when given).
sdk::Decision correction_decision(std::vector<std::string> retires = {}) {
    sdk::Decision decision;
    decision.store = true;
    decision.type = "feedback";
    decision.scope = "user";
    decision.reason = "a correction";
    decision.fields.emplace_back(std::string{core::supersedes_field}, std::string{"closest"});
    if (!retires.empty()) {
        decision.fields.emplace_back(std::string{core::retires_field}, std::move(retires));
    }
    return decision;
}

/// A request to remember `text`, said in `project`, as the correction it states; `message_ref`
/// names the session message it was captured from, if any.
core::RememberRequest correction_request(RememberFixture &fixture, const std::string &text, const std::string &project,
                                         std::string message_ref = {}) {
    auto request = fixture.request(text, project);
    request.forced = correction_decision();
    request.forced->summary = text;
    request.message_ref = std::move(message_ref);
    return request;
}

/// Remembers `text`, said in `project`, as the correction it states.
RememberOutcome remember_correction(RememberFixture &fixture, const std::string &text, const std::string &project) {
    return fixture.rememberer.remember(correction_request(fixture, text, project));
}

} // namespace

TEST_CASE("remember writes what the decision policy stores, into short-term of its scope", "[lifecycle][remember]") {
    RememberFixture fixture;
    const auto outcome = fixture.rememberer.remember(fixture.request("remember: always use bun not pnpm"));
    REQUIRE(outcome.action == RememberOutcome::Action::created);
    CHECK(outcome.key.rfind("memory/user/short/", 0) == 0);
    const auto memory = fixture.store.read(outcome.key);
    CHECK(memory.type == "feedback");
    CHECK(memory.summary == " always use bun not pnpm");
    CHECK(memory.sessions == std::vector<std::string>{"session-1"});

    const auto discarded = fixture.rememberer.remember(fixture.request("what is a mutex?"));
    CHECK(discarded.action == RememberOutcome::Action::discarded);
    CHECK(discarded.key.empty());
    CHECK(fixture.store.list().size() == 1);
}

TEST_CASE("a similar memory is updated and reinforced, never duplicated", "[lifecycle][remember]") {
    RememberFixture fixture;
    const auto first = fixture.rememberer.remember(fixture.request("remember: commit messages in English, imperative mood"));
    fixture.clock.advance(std::chrono::hours{30});
    auto again = fixture.request("remember: commit messages in English, imperative mood, short subject");
    again.session_id = "session-2";
    const auto second = fixture.rememberer.remember(again);
    REQUIRE(second.action == RememberOutcome::Action::updated);
    CHECK(second.key == first.key);
    CHECK(second.similarity >= 0.6);
    CHECK(fixture.store.list().size() == 1);
    const auto memory = fixture.store.read(first.key);
    CHECK(memory.access_count == 2);
    CHECK(memory.sessions == std::vector<std::string>{"session-1", "session-2"});
    CHECK_THAT(memory.body, Catch::Contains("short subject"));

    const auto unrelated = fixture.rememberer.remember(fixture.request("remember: the staging database is read-only"));
    CHECK(unrelated.action == RememberOutcome::Action::created);
    CHECK(fixture.store.list().size() == 2);
}

TEST_CASE("project memories need a project and stay in it", "[lifecycle][remember]") {
    RememberFixture fixture;
    const auto without = fixture.rememberer.remember(fixture.request("remember: project uses CMake presets"));
    CHECK(without.action == RememberOutcome::Action::discarded);
    CHECK_THAT(without.reason, Catch::Contains("needs a project"));
    const auto project = fixture.store.resolve_project("/work/app");
    const auto with = fixture.rememberer.remember(fixture.request("remember: project uses CMake presets", project));
    REQUIRE(with.action == RememberOutcome::Action::created);
    CHECK(with.key.rfind("memory/projects/" + project + "/short/", 0) == 0);
}

TEST_CASE("forced memories skip the decision policy, and secrets never reach the file", "[lifecycle][remember]") {
    RememberFixture fixture;
    auto request = fixture.request("deploy with token ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R to prod");
    request.forced = sdk::Decision{true, "reference", "user", "forced", "", {"deploy"}};
    const auto outcome = fixture.rememberer.remember(request);
    REQUIRE(outcome.action == RememberOutcome::Action::created);
    CHECK(fixture.decider.seen.empty());
    const auto memory = fixture.store.read(outcome.key);
    CHECK(memory.type == "reference");
    CHECK(memory.body.find("ghp_") == std::string::npos);
    CHECK(memory.summary.find("ghp_") == std::string::npos);
    CHECK_THAT(memory.body, Catch::Contains("[REDACTED:github-token]"));
}

TEST_CASE("classify decides without writing", "[lifecycle][remember]") {
    RememberFixture fixture;
    const auto decisions = fixture.rememberer.classify({fixture.request("remember: x y z"), fixture.request("hello")});
    REQUIRE(decisions.size() == 2);
    CHECK(decisions[0].store);
    CHECK_FALSE(decisions[1].store);
    CHECK(fixture.store.list().empty());
}

TEST_CASE("a memory that absorbed many supplements does not swallow an unrelated message", "[lifecycle][remember]") {
    RememberFixture fixture;
    const auto first = fixture.rememberer.remember(fixture.request("remember: always run the linter before merging"));
    for (const char *restatement : {"remember: always run the linter before merging, with --fix",
                                    "remember: always run the linter before merging on CI too",
                                    "remember: always run the linter before merging the release branch"}) {
        REQUIRE(fixture.rememberer.remember(fixture.request(restatement)).key == first.key);
    }
    // Every word of this message occurs somewhere in the grown memory, but in no single statement of it.
    const auto unrelated = fixture.rememberer.remember(fixture.request("remember: release branch on CI too, with fix"));
    CHECK(unrelated.action == RememberOutcome::Action::created);
    CHECK(unrelated.key != first.key);
}

TEST_CASE("without a decay policy that judges duplicates, every remembered message is a new memory",
          "[lifecycle][remember]") {
    RememberFixture fixture;
    test::ScriptedPlanner plans_only;
    core::Rememberer without_judge{fixture.store, core::ActivePolicies{&fixture.decider, &plans_only, &fixture.scorer}};
    const auto first = without_judge.remember(fixture.request("remember: commit messages in English, imperative mood"));
    const auto again = without_judge.remember(fixture.request("remember: commit messages in English, imperative mood"));
    CHECK(first.action == RememberOutcome::Action::created);
    CHECK(again.action == RememberOutcome::Action::created);
    CHECK(again.key != first.key);

    core::Rememberer without_decay{fixture.store, core::ActivePolicies{&fixture.decider, nullptr, &fixture.scorer}};
    CHECK(without_decay.remember(fixture.request("remember: commit messages in English, imperative mood")).action ==
          RememberOutcome::Action::created);
}

TEST_CASE("without a relevance policy, the decay policy also picks the candidates", "[lifecycle][remember]") {
    RememberFixture fixture;
    core::Rememberer judge_only{fixture.store, core::ActivePolicies{&fixture.decider, &*fixture.decay.policy, nullptr}};
    const auto first = judge_only.remember(fixture.request("remember: the staging database is read-only"));
    const auto again = judge_only.remember(fixture.request("remember: the staging database is read-only, always"));
    REQUIRE(again.action == RememberOutcome::Action::updated);
    CHECK(again.key == first.key);
}

TEST_CASE("a similar memory that vanished before the update does not lose the message: it becomes a memory",
          "[lifecycle][remember]") {
    RememberFixture fixture;
    const auto first = fixture.rememberer.remember(fixture.request("remember: the staging database is read-only"));
    REQUIRE(first.action == RememberOutcome::Action::created);
    VanishingJudge judge{fixture.store};
    core::Rememberer racing{fixture.store, core::ActivePolicies{&fixture.decider, &judge, &fixture.scorer}};
    const auto again = racing.remember(fixture.request("remember: the staging database is read-only, always"));
    CHECK(again.action == RememberOutcome::Action::created);
    const auto archived = fixture.store.archived();
    REQUIRE(archived.size() == 1);
    CHECK(archived.front().original_key == first.key);
    const auto created = fixture.store.read(again.key);
    CHECK_THAT(created.body, Catch::Contains("read-only, always"));
    CHECK(created.sessions == std::vector<std::string>{"session-1"});
}

TEST_CASE("a session id with control characters does not lose the message", "[lifecycle][remember]") {
    RememberFixture fixture;
    auto request = fixture.request("remember: deploys need a green build");
    request.session_id = "sess\x01ion\n";
    const auto outcome = fixture.rememberer.remember(request);
    REQUIRE(outcome.action == RememberOutcome::Action::created);
    CHECK(fixture.store.read(outcome.key).sessions == std::vector<std::string>{"sess_ion_"});
    const auto again = fixture.rememberer.remember(request);
    CHECK(again.action == RememberOutcome::Action::updated);
}

TEST_CASE("a session message judged again after its judge died is stored and counted once", "[lifecycle][remember]") {
    RememberFixture fixture;
    test::ScriptedPlanner plans_only;
    auto message = fixture.request("remember: commit messages in English, imperative mood");
    message.message_ref = "session-1#0";
    auto restated = fixture.request("remember: commit messages in English, imperative mood, short subject");
    restated.message_ref = "session-1#1";
    SECTION("made a memory: found by the id derived from the message, with or without a duplicate judge") {
        for (const core::DecayPlanner *decay : {static_cast<const core::DecayPlanner *>(&plans_only),
                                                static_cast<const core::DecayPlanner *>(&*fixture.decay.policy)}) {
            test::TempDir directory{"remember-again"};
            core::MemoryStore store{directory.path(), fixture.clock};
            core::Rememberer rememberer{store, core::ActivePolicies{&fixture.decider, decay, &fixture.scorer}};
            const auto first = rememberer.remember(message);
            const auto again = rememberer.remember(message);
            CHECK(again.key == first.key);
            REQUIRE(store.list().size() == 1);
            CHECK(store.read(first.key).access_count == 1);
        }
    }
    SECTION("reinforced a memory: the use is not counted again") {
        const auto first = fixture.rememberer.remember(message);
        const auto second = fixture.rememberer.remember(restated);
        REQUIRE(second.action == RememberOutcome::Action::updated);
        const auto again = fixture.rememberer.remember(restated);
        CHECK(again.key == first.key);
        const auto memory = fixture.store.read(first.key);
        CHECK(memory.access_count == 2);
        CHECK(fixture.store.list().size() == 1);
        // The same words said again in another message are a use of their own.
        restated.message_ref = "session-1#2";
        static_cast<void>(fixture.rememberer.remember(restated));
        CHECK(fixture.store.read(first.key).access_count == 3);
    }
}

namespace {

/// Splits a message into one claim per sentence, each a triple keyed by its lower-cased text, as
/// skill_master's and claude-memory's policies do (ABI 1.4: claims, fields, dedupe keys).
class ClaimSplitter final : public core::DecisionMaker {
public:
    std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const override {
        std::vector<sdk::Decision> decisions;
        for (const auto &message : messages) {
            sdk::Decision decision;
            decision.store = true;
            decision.reason = "split";
            std::string rest = message.text;
            while (!rest.empty()) {
                const auto end = rest.find(". ");
                std::string sentence = rest.substr(0, end);
                rest = end == std::string::npos ? std::string{} : rest.substr(end + 2);
                sdk::Decision claim;
                claim.store = true;
                claim.type = "feedback";
                claim.scope = "user";
                claim.summary = sentence;
                claim.body = sentence;
                claim.reason = "one claim";
                claim.fields = {{"kind", std::string{"rule"}}, {"subject", std::string{"tests"}},
                                {"id", std::string{"forged1"}}};
                std::string key = sentence;
                std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
                claim.dedupe_key = key;
                decision.claims.push_back(claim);
            }
            decisions.push_back(decision);
        }
        return decisions;
    }
    std::string review_request(const sdk::ReviewRequest & /*request*/) const override { return {}; }
};

} // namespace

TEST_CASE("a decision's claims become memories of their own, and a dedupe key reinforces instead of repeating",
          "[lifecycle][remember][abi-1-4]") {
    RememberFixture fixture;
    ClaimSplitter splitter;
    core::Rememberer rememberer{fixture.store, core::ActivePolicies{&splitter, &*fixture.decay.policy, &fixture.scorer}};

    const auto first = rememberer.remember(fixture.request("Run tests before pushing. Never commit to main"));
    REQUIRE(first.claims.size() == 2);
    CHECK(first.action == RememberOutcome::Action::created);
    CHECK(first.key == first.claims[0].key);
    CHECK(fixture.store.list().size() == 2);
    const auto rule = fixture.store.read(first.claims[0].key);
    CHECK(rule.summary == "Run tests before pushing");
    CHECK(rule.body == "Run tests before pushing\n");
    CHECK(rule.extra_field("kind")->value == "rule");
    CHECK(rule.extra_field("dedupe_key")->value == "run tests before pushing");
    CHECK(rule.id != "forged1");
    CHECK(rule.extra_field("id") == nullptr);
    CHECK_THAT(first.claims[0].reason, Catch::Contains("'id'"));

    const auto again = rememberer.remember(fixture.request("run tests before pushing. Squash merges"));
    REQUIRE(again.claims.size() == 2);
    CHECK(again.claims[0].action == RememberOutcome::Action::updated);
    CHECK(again.claims[0].key == first.claims[0].key);
    CHECK_THAT(again.claims[0].reason, Catch::Contains("dedupe key"));
    CHECK(again.claims[1].action == RememberOutcome::Action::created);
    CHECK(fixture.store.list().size() == 3);
    CHECK(fixture.store.read(first.claims[0].key).access_count == rule.access_count + 1);
}

TEST_CASE("decisions with fields, a dedupe key, a body and claims go through JSON", "[sdk][policy][abi-1-4]") {
    sdk::Decision decision;
    decision.store = true;
    decision.reason = "split";
    sdk::Decision claim;
    claim.store = true;
    claim.type = "feedback";
    claim.scope = "project";
    claim.summary = "use bun";
    claim.fields = {{"kind", std::string{"preference"}}, {"trigger", std::vector<std::string>{"bun", "pnpm"}}};
    claim.dedupe_key = "project|package-manager|bun";
    claim.body = "Use bun.";
    decision.claims = {claim};
    const auto back = sdk::decision_from_json(sdk::to_json(decision));
    REQUIRE(back.claims.size() == 1);
    CHECK(back.claims[0].fields == claim.fields);
    CHECK(back.claims[0].dedupe_key == claim.dedupe_key);
    CHECK(back.claims[0].body == "Use bun.");
    CHECK(back.scope.empty());
    CHECK_THROWS_WITH(sdk::decision_from_json({{"decision", "store"}, {"claims", {{{"decision", "store"}, {"scope", "x"}}}}}),
                      Catch::Contains("'scope'"));
    CHECK_THROWS_WITH(sdk::decision_from_json({{"decision", "store"}, {"scope", "user"}, {"fields", {{"n", 1}}}}),
                      Catch::Contains("'n'"));
}

namespace {

/// Stores every message, pinned when it says "pin me" (ABI 1.5).
class PinningDecider final : public core::DecisionMaker {
public:
    std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const override {
        std::vector<sdk::Decision> decisions;
        for (const auto &message : messages) {
            sdk::Decision decision{true, "project", "user", "kept", message.text, {}};
            decision.pin = message.text.find("pin me") != std::string::npos;
            decisions.push_back(decision);
        }
        return decisions;
    }
    std::string review_request(const sdk::ReviewRequest & /*request*/) const override { return {}; }
};

} // namespace

TEST_CASE("a decision that pins stores the memory pinned, and pins the memory a restatement reinforces",
          "[lifecycle][remember][abi-1-5]") {
    RememberFixture fixture;
    PinningDecider decider;
    core::Rememberer rememberer{fixture.store, core::ActivePolicies{&decider, &*fixture.decay.policy, &fixture.scorer}};

    const auto pinned = rememberer.remember(fixture.request("The staging database is staging-db.internal, pin me"));
    CHECK(fixture.store.read(pinned.key).pinned);
    const auto plain = rememberer.remember(fixture.request("Releases go out on Tuesdays after the freeze"));
    CHECK_FALSE(fixture.store.read(plain.key).pinned);
    const auto again = rememberer.remember(fixture.request("Releases go out on Tuesdays after the freeze, pin me"));
    REQUIRE(again.action == RememberOutcome::Action::updated);
    CHECK(again.key == plain.key);
    CHECK(fixture.store.read(plain.key).pinned);
}

TEST_CASE("a decision's pin goes through JSON, and a pin that is no boolean is refused", "[sdk][policy][abi-1-5]") {
    sdk::Decision decision{true, "project", "user", "asked", "staging db", {}};
    CHECK_FALSE(sdk::to_json(decision).contains("pin"));
    CHECK_FALSE(sdk::decision_from_json(sdk::to_json(decision)).pin);
    decision.pin = true;
    CHECK(sdk::decision_from_json(sdk::to_json(decision)).pin);
    CHECK_THROWS_WITH(sdk::decision_from_json({{"decision", "store"}, {"scope", "user"}, {"pin", "yes"}}),
                      Catch::Contains("'pin'"));
}

namespace {

/// The `links` of the memory at `key`, as written.
std::vector<std::string> links_of(core::MemoryStore &store, const std::string &key) {
    return core::link_items(store.read(key));
}

bool links_to(core::MemoryStore &store, const std::string &key, const std::string &item) {
    const auto links = links_of(store, key);
    return std::find(links.begin(), links.end(), item) != links.end();
}

std::string id_at(core::MemoryStore &store, const std::string &key) { return core::memory_id_of(store.read(key)); }

// What a correction then corrects: a memory remembered in `project`, made two hours older than what
// comes next, beyond the episode window, so that no episode link joins the two.
struct OlderMemory {
    std::string key;
    std::string id;
};
OlderMemory remember_older(RememberFixture &fixture, const std::string &text, const std::string &project) {
    const auto outcome = fixture.rememberer.remember(fixture.request(text, project));
    REQUIRE(outcome.action == RememberOutcome::Action::created);
    fixture.clock.advance(std::chrono::hours{2});
    return {outcome.key, id_at(fixture.store, outcome.key)};
}

std::size_t history_size(RememberFixture &fixture, const std::string &id) {
    return core::memory_history(fixture.store.root(), fixture.store.redactor(), id).events.size();
}

} // namespace

TEST_CASE("a new memory links to the memories of its scope stored just before it, within the episode window",
          "[lifecycle][remember][episode]") {
    RememberFixture fixture;
    const auto remember = [&](std::string text, std::string project = {}) {
        fixture.clock.advance(std::chrono::minutes{1});
        const auto outcome = fixture.rememberer.remember(fixture.request(std::move(text), std::move(project)));
        REQUIRE(outcome.action == RememberOutcome::Action::created);
        return outcome.key;
    };
    const auto first = remember("remember: the staging database is postgres 15");
    const auto second = remember("remember: deploys go out on tuesdays only");
    const auto third = remember("remember: the on-call rota lives in the wiki");
    const auto in_project = remember("remember: this project builds with bazel", "app");
    REQUIRE(in_project.rfind("memory/projects/app/", 0) == 0);

    CHECK(links_of(fixture.store, first).empty());
    CHECK(links_of(fixture.store, second) == std::vector<std::string>{"episode:" + id_at(fixture.store, first)});
    // The two newest, newest first; never more than remember.episode_links (2).
    CHECK(links_of(fixture.store, third) == std::vector<std::string>{"episode:" + id_at(fixture.store, second),
                                                                     "episode:" + id_at(fixture.store, first)});
    CHECK(links_of(fixture.store, in_project).empty()); // another scope is another episode

    SECTION("a memory stored after the window starts an episode of its own") {
        fixture.clock.advance(std::chrono::minutes{30});
        CHECK(links_of(fixture.store, remember("remember: lint with ruff, not flake8")).empty());
    }
    SECTION("a restatement reinforces the memory it restates and links nothing") {
        const auto restated =
            fixture.rememberer.remember(fixture.request("remember: deploys go out on tuesdays only"));
        REQUIRE(restated.action == RememberOutcome::Action::updated);
        CHECK(links_of(fixture.store, restated.key) == std::vector<std::string>{"episode:" + id_at(fixture.store, first)});
    }
}

TEST_CASE("with remember.episode_links = 0 no memory is linked", "[lifecycle][remember][episode]") {
    RememberFixture fixture;
    core::RememberSettings settings;
    settings.episode_links = 0;
    core::Rememberer rememberer{fixture.store, core::ActivePolicies{&fixture.decider, &*fixture.decay.policy, &fixture.scorer},
                                settings};
    static_cast<void>(rememberer.remember(fixture.request("remember: the staging database is postgres 15")));
    fixture.clock.advance(std::chrono::minutes{1});
    const auto second = rememberer.remember(fixture.request("remember: deploys go out on tuesdays only"));
    REQUIRE(second.action == RememberOutcome::Action::created);
    CHECK(links_of(fixture.store, second.key).empty());
}

TEST_CASE("a correction is a memory of its own that supersedes the memory it restates most closely",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto wrong = fixture.rememberer.remember(fixture.request("remember: the staging database is db-staging-1"));
    REQUIRE(wrong.action == RememberOutcome::Action::created);
    const auto unrelated = fixture.rememberer.remember(fixture.request("remember: commit messages in English"));
    fixture.clock.advance(std::chrono::hours{2});

    const auto correct = [&](const std::string &text) {
        auto request = fixture.request(text);
        request.forced = correction_decision();
        return fixture.rememberer.remember(request);
    };
    // Close enough to be folded into the memory as a restatement, were it not a correction.
    const auto correction = correct("the staging database is db-staging-2, not db-staging-1");
    REQUIRE(correction.action == RememberOutcome::Action::created);
    CHECK(correction.key != wrong.key);
    CHECK(correction.superseded == wrong.key);
    CHECK_THAT(correction.reason, Catch::Contains("supersedes"));
    const auto replaced = fixture.store.read(wrong.key);
    const auto replacement = fixture.store.read(correction.key);
    CHECK(replaced.superseded_by == core::memory_id_of(replacement));
    REQUIRE(replacement.extra_field(core::supersedes_field) != nullptr);
    CHECK(replacement.extra_field(core::supersedes_field)->value == core::memory_id_of(replaced));
    CHECK(fixture.store.read(unrelated.key).superseded_by.empty());
    CHECK(fixture.store.list().size() == 3);

    // A correction of something nothing stored says supersedes nothing, and is still kept.
    const auto lone = correct("the build server is called jenkins-3 now");
    CHECK(lone.action == RememberOutcome::Action::created);
    CHECK(lone.superseded.empty());
    // Nor is a memory superseded twice: the second correction of the same subject leaves the first
    // correction's target alone and retires the first correction instead.
    const auto again = correct("the staging database is db-staging-3, not db-staging-2");
    CHECK(again.superseded == correction.key);
}

TEST_CASE("a correction that names what is no longer so supersedes the memory that says it, not one that agrees",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto yarn = fixture.rememberer.remember(fixture.request("remember: we use yarn for this repo"));
    const auto pnpm = fixture.rememberer.remember(fixture.request("remember: use pnpm"));
    REQUIRE(yarn.action == RememberOutcome::Action::created);
    REQUIRE(pnpm.action == RememberOutcome::Action::created);
    fixture.clock.advance(std::chrono::hours{2});
    auto request = fixture.request("use pnpm, not yarn");
    request.forced = correction_decision({"yarn"});
    const auto correction = fixture.rememberer.remember(request);
    REQUIRE(correction.action == RememberOutcome::Action::created);
    CHECK(correction.superseded == yarn.key);
    CHECK(fixture.store.read(pnpm.key).superseded_by.empty());
    // The host reads the field; the memory does not keep it.
    CHECK(fixture.store.read(correction.key).extra_field(core::retires_field) == nullptr);
}

TEST_CASE("a correction that gives a name another number supersedes the memory that gives the old one, and is kept "
          "where that memory is",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto postgres =
        fixture.rememberer.remember(fixture.request("remember: this project tests against postgres 15 in docker", "app"));
    const auto port = fixture.rememberer.remember(fixture.request("remember: this project serves its api on port 8080", "app"));
    REQUIRE(postgres.action == RememberOutcome::Action::created);
    REQUIRE(postgres.key.rfind("memory/projects/app/", 0) == 0);
    fixture.clock.advance(std::chrono::hours{2});
    const auto correction = remember_correction(fixture, "we are on postgres 16 now", "app");
    REQUIRE(correction.action == RememberOutcome::Action::created);
    CHECK(correction.superseded == postgres.key);
    CHECK(fixture.store.read(port.key).superseded_by.empty());
    // The decision kept it as the user's; what it corrects is the project's, and so is it.
    CHECK(correction.key.rfind("memory/projects/app/", 0) == 0);
    CHECK_THAT(correction.reason, Catch::Contains("kept as the project's, like the memory it corrects"));
}

TEST_CASE("a correction that renumbers a name with its number inside supersedes the memory that gives the old one",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto tracking = fixture.rememberer.remember(
        fixture.request("remember: this project tracks its experiments in W&B under the name ranker-v2", "ml"));
    REQUIRE(tracking.action == RememberOutcome::Action::created);
    fixture.clock.advance(std::chrono::hours{2});
    const auto correction = remember_correction(fixture, "the W&B project is called ranker-v3 now, we started over", "ml");
    REQUIRE(correction.action == RememberOutcome::Action::created);
    CHECK(correction.superseded == tracking.key);
}

TEST_CASE("a correction of one of the numbers a memory says supersedes nothing: both are kept, and the outcome says so",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto ports = fixture.rememberer.remember(
        fixture.request("remember: this project runs payments on port 8081 and the ledger on port 8082", "app"));
    REQUIRE(ports.action == RememberOutcome::Action::created);
    fixture.clock.advance(std::chrono::hours{2});
    const auto correction = remember_correction(fixture, "this project runs the ledger on port 9082 now", "app");
    REQUIRE(correction.action == RememberOutcome::Action::created);
    CHECK(correction.superseded.empty());
    CHECK(fixture.store.read(ports.key).superseded_by.empty());
    const auto ports_id = id_at(fixture.store, ports.key);
    CHECK_THAT(correction.kept_apart, Catch::StartsWith("changes only part of " + ports_id + " (8081, 8082 there, 9082 here)") &&
                                          Catch::Contains("`starling forget " + ports_id + "`"));
    // It changes the older one in part: each links to the other, so that the older is never shown
    // without it.
    CHECK(links_to(fixture.store, correction.key, "amends:" + ports_id));
    CHECK(links_to(fixture.store, ports.key, "amended_by:" + id_at(fixture.store, correction.key)));

    // One number of its own is the value corrected, not more than the correction says.
    const auto docs = fixture.rememberer.remember(
        fixture.request("remember: this project's api docs are at https://api-docs.example.cn/v3", "app"));
    REQUIRE(docs.action == RememberOutcome::Action::created);
    fixture.clock.advance(std::chrono::hours{2});
    const auto moved = remember_correction(fixture, "this project's api docs moved to https://docs.example.cn/api", "app");
    CHECK(moved.superseded == docs.key);
    CHECK(moved.kept_apart.empty());
}

TEST_CASE("a newer number for one thing that a memory of each scope says changes neither: it is not said which",
          "[lifecycle][remember][corrections]") {
    const std::string billing =
        "remember: this project's billing API listens on port 8080, and its health checks are on port 8081";
    const std::string moved = "remember: health checks moved to port 9001";
    {
        // One memory says it, in the project: changed there.
        RememberFixture fixture;
        const auto project = fixture.rememberer.remember(fixture.request(billing, "app"));
        REQUIRE(project.key.rfind("memory/projects/app/", 0) == 0);
        fixture.clock.advance(std::chrono::hours{2});
        const auto changed = fixture.rememberer.remember(fixture.request(moved, "app"));
        CHECK(changed.action == RememberOutcome::Action::updated);
        CHECK_THAT(fixture.store.read(changed.key).summary, Catch::Contains("port 9001") && !Catch::Contains("8081"));
    }
    // The user's own memory says it too: either could be meant, so both stay as they are and the
    // statement is a memory of its own.
    RememberFixture fixture;
    const auto mine = fixture.rememberer.remember(
        fixture.request("remember: my docs preview runs on my laptop, and its health checks are on port 8081"));
    REQUIRE(mine.key.rfind("memory/user/", 0) == 0);
    const auto project = fixture.rememberer.remember(fixture.request(billing, "app"));
    REQUIRE(project.key.rfind("memory/projects/app/", 0) == 0);
    fixture.clock.advance(std::chrono::hours{2});
    const auto unsure = fixture.rememberer.remember(fixture.request(moved, "app"));
    CHECK(unsure.action == RememberOutcome::Action::created);
    CHECK_THAT(fixture.store.read(mine.key).summary, Catch::Contains("port 8081"));
    CHECK_THAT(fixture.store.read(project.key).summary, Catch::Contains("port 8081"));
    CHECK(fixture.store.read(mine.key).superseded_by.empty());
    CHECK(fixture.store.read(project.key).superseded_by.empty());
}

TEST_CASE("a correction of one number in a memory of one clause that says another changes it there",
          "[lifecycle][remember][corrections]") {
    // Until 2026-12-03 both were kept ("changes only part of …"), and pg-staging-3 still reached the
    // agent beside pg-staging-4.
    RememberFixture fixture;
    const auto staging = fixture.rememberer.remember(
        fixture.request("remember: this project's staging database is pg-staging-3 on port 5433", "app"));
    REQUIRE(staging.action == RememberOutcome::Action::created);
    fixture.clock.advance(std::chrono::hours{2});
    const auto correction =
        remember_correction(fixture, "Actually, the staging database is pg-staging-4 now.", "app");
    CHECK(correction.action == RememberOutcome::Action::updated);
    CHECK(correction.key == staging.key);
    REQUIRE(correction.corrected);
    CHECK(correction.corrected->older == "pg-staging-3");
    CHECK(correction.corrected->newer == "pg-staging-4");
    const auto now = fixture.store.read(staging.key);
    CHECK_THAT(now.summary, Catch::Contains("pg-staging-4 on port 5433") && !Catch::Contains("pg-staging-3"));
    CHECK(now.superseded_by.empty());
}

TEST_CASE("a correction whose closest memory says much more than it corrects supersedes nothing: both are kept",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto data = fixture.rememberer.remember(fixture.request(
        "remember: unsere Daten liegen im Snowflake, Schema ANALYTICS_PROD, da nur lesend zugreifen!", "dwh"));
    REQUIRE(data.action == RememberOutcome::Action::created);
    fixture.clock.advance(std::chrono::hours{2});
    const auto correction = remember_correction(fixture, "Korrektur: das Schema heißt inzwischen ANALYTICS_V2", "dwh");
    REQUIRE(correction.action == RememberOutcome::Action::created);
    CHECK(correction.superseded.empty());
    CHECK(fixture.store.read(data.key).superseded_by.empty());
    const auto data_id = id_at(fixture.store, data.key);
    CHECK_THAT(correction.kept_apart, Catch::StartsWith("changes only part of " + data_id + ", which says more") &&
                                          Catch::Contains("`starling forget " + data_id + "`"));
    CHECK(links_to(fixture.store, correction.key, "amends:" + data_id));
    CHECK(links_to(fixture.store, data.key, "amended_by:" + id_at(fixture.store, correction.key)));

    // A memory the correction says again, but for the value, is retired as before.
    const auto staging = fixture.rememberer.remember(
        fixture.request("remember: the staging database of this project is db-staging-1", "dwh"));
    fixture.clock.advance(std::chrono::hours{2});
    const auto corrected = remember_correction(fixture, "No, that's wrong: the staging database is db-staging-2", "dwh");
    CHECK(corrected.superseded == staging.key);
    CHECK(corrected.kept_apart.empty());
}

TEST_CASE("a newer statement that changes a value for one of its kind supersedes the older one, not folded into it",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto node18 = fixture.rememberer.remember(fixture.request("remember: we use node 18 in ci"));
    const auto cards = fixture.rememberer.remember(fixture.request("remember: never log card numbers here"));
    fixture.clock.advance(std::chrono::hours{2});
    const auto node20 = fixture.rememberer.remember(fixture.request("remember: we use node 20 in ci"));
    REQUIRE(node20.action == RememberOutcome::Action::created);
    CHECK(node20.superseded == node18.key);
    CHECK_THAT(node20.reason, Catch::Contains("which it replaces with a newer value"));
    CHECK_FALSE(fixture.store.read(node18.key).superseded_by.empty());
    // A value the relevance policy does not relate to the old one is another rule in the same
    // words: it supersedes nothing (the duplicate judge decides whether it is a restatement).
    const auto emails = fixture.rememberer.remember(fixture.request("remember: never log emails here"));
    CHECK(emails.superseded.empty());
    CHECK(fixture.store.read(cards.key).superseded_by.empty());
    // Saying the same again is still a restatement.
    CHECK(fixture.rememberer.remember(fixture.request("remember: we use node 20 in ci")).action ==
          RememberOutcome::Action::updated);
}

TEST_CASE("a statement said alike but with a number of its own is kept apart, and the outcome says how to retire the older",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto lines = fixture.rememberer.remember(fixture.request("remember: pull requests stay under 400 lines"));
    REQUIRE(lines.action == RememberOutcome::Action::created);
    const auto mobile =
        fixture.rememberer.remember(fixture.request("remember: pull requests stay under 300 lines in the mobile app"));
    REQUIRE(mobile.action == RememberOutcome::Action::created);
    CHECK(mobile.key != lines.key);
    CHECK(mobile.superseded.empty());
    const auto lines_id = id_at(fixture.store, lines.key);
    CHECK_THAT(mobile.kept_apart, Catch::StartsWith("kept apart from " + lines_id) &&
                                      Catch::Contains("which says 400 where this says 300") &&
                                      Catch::Contains("`starling forget " + lines_id + "` if this replaces it"));
    CHECK_THAT(mobile.reason, Catch::EndsWith("; " + mobile.kept_apart));
    // The new memory names the one it was kept apart from, for `health` to list the pair.
    // Either may hold: the older is not marked as changed.
    CHECK(links_to(fixture.store, mobile.key, "alike:" + lines_id));
    CHECK(links_of(fixture.store, lines.key).empty());
    CHECK(fixture.store.read(lines.key).superseded_by.empty());
    CHECK(fixture.store.read(lines.key).body.find("300") == std::string::npos);
    // The same number said again is a restatement, folded in as before.
    const auto again = fixture.rememberer.remember(fixture.request("remember: pull requests stay under 400 lines, always"));
    CHECK(again.action == RememberOutcome::Action::updated);
    CHECK(again.key == lines.key);
}

TEST_CASE("a correction's summary is what it states, without the words that open it", "[lifecycle][remember][corrections]") {
    using core::correction_statement;
    CHECK(correction_statement("No, that's wrong: the staging database is db-staging-2, not db-staging-1.") ==
          "The staging database is db-staging-2, not db-staging-1.");
    CHECK(correction_statement("Actually, the API runs on port 8081.") == "The API runs on port 8081.");
    CHECK(correction_statement("That's wrong: the release branch is release/2.x.") == "The release branch is release/2.x.");
    CHECK(correction_statement("Nein, das stimmt nicht: der Cache ist Redis, nicht Memcached.") ==
          "Der Cache ist Redis, nicht Memcached.");
    CHECK(correction_statement("不对，我们用的是 PostgreSQL 15。") == "我们用的是 PostgreSQL 15。");
    CHECK(correction_statement("不对：端口是 8081") == "端口是 8081");
    // No opening: a colon after more than five words, a comma after more than one, or nothing after it.
    CHECK(correction_statement("The docs for the new API live at https://docs.example.com") ==
          "The docs for the new API live at https://docs.example.com");
    CHECK(correction_statement("The cache is Redis, not Memcached.") == "The cache is Redis, not Memcached.");
    CHECK(correction_statement("No, that's wrong:") == "No, that's wrong:");
    // The colon of a URL or a time opens nothing.
    CHECK(correction_statement("不对，接口文档已经迁移到 https://docs.example.cn/api 了。") ==
          "接口文档已经迁移到 https://docs.example.cn/api 了。");
    CHECK(correction_statement("Actually, standup is at 10:30 now.") == "Standup is at 10:30 now.");
}

TEST_CASE("a correction of one value of a memory that says more changes that value in it and keeps the rest",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto deploys = remember_older(fixture, "remember: deploys go through ArgoCD; the staging cluster is stg-eu-1", "app");
    const auto correction = remember_correction(fixture, "Actually, the staging cluster is stg-eu-2 now.", "app");
    REQUIRE(correction.action == RememberOutcome::Action::updated);
    CHECK(correction.key == deploys.key);
    CHECK(correction.superseded.empty());
    REQUIRE(correction.corrected);
    CHECK(*correction.corrected == core::CorrectedValue{"stg-eu-1", "stg-eu-2"});
    CHECK_THAT(correction.reason, Catch::StartsWith("corrects stg-eu-1 to stg-eu-2 in " + deploys.id) &&
                                      Catch::Contains("ArgoCD"));
    // One memory, which says the new value and everything else it said.
    REQUIRE(fixture.store.list().size() == 1);
    const auto memory = fixture.store.read(deploys.key);
    CHECK(memory.superseded_by.empty());
    CHECK_THAT(memory.summary, Catch::Contains("ArgoCD") && Catch::Contains("stg-eu-2") &&
                                   !Catch::Contains("stg-eu-1"));
    CHECK_THAT(memory.body, Catch::Contains("ArgoCD") && Catch::Contains("stg-eu-2") && !Catch::Contains("stg-eu-1"));
    // Its history names the correction and what it said before.
    const auto history = core::memory_history(fixture.store.root(), fixture.store.redactor(), deploys.id);
    REQUIRE_FALSE(history.events.empty());
    const auto &edited = history.events.back();
    CHECK(edited.kind == core::ProvenanceKind::edited);
    CHECK(edited.text == "Actually, the staging cluster is stg-eu-2 now.");
    CHECK_THAT(edited.reason, Catch::StartsWith("corrected stg-eu-1 to stg-eu-2") && Catch::Contains("stg-eu-1\""));
}

TEST_CASE("a correction of part of a memory that names no one value there keeps both, and says how to retire it",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto node = remember_older(fixture, "remember: this project uses Node 18 in CI; Node 18 on the dev boxes too", "app");
    // Which of the two it changes, it does not say: retiring the memory would lose the dev boxes.
    const auto correction = remember_correction(fixture, "this project uses Node 20 in CI now", "app");
    REQUIRE(correction.action == RememberOutcome::Action::created);
    CHECK(correction.superseded.empty());
    CHECK_FALSE(correction.corrected);
    CHECK(fixture.store.read(node.key).superseded_by.empty());
    CHECK_THAT(fixture.store.read(node.key).summary, Catch::Contains("Node 18 in CI"));
    CHECK_THAT(correction.kept_apart, Catch::StartsWith("changes only part of " + node.id) &&
                                          Catch::Contains("`starling forget " + node.id + "`"));
    const auto correction_id = id_at(fixture.store, correction.key);
    CHECK(links_to(fixture.store, correction.key, "amends:" + node.id));
    CHECK(links_to(fixture.store, node.key, "amended_by:" + correction_id));
    // The older memory's history says what changed it.
    const auto history = core::memory_history(fixture.store.root(), fixture.store.redactor(), node.id);
    REQUIRE_FALSE(history.events.empty());
    CHECK(history.events.back().kind == core::ProvenanceKind::amended_by);
    CHECK(history.events.back().other == correction_id);
}

TEST_CASE("a correction judged again after its judge died supersedes what it corrects once", "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto staging = remember_older(fixture, "remember: the staging database of this project is db-staging-1", "app");
    const auto request = correction_request(fixture, "No, that's wrong: the staging database is db-staging-2", "app", "session-1#9");
    const auto first = fixture.rememberer.remember(request);
    REQUIRE(first.superseded == staging.key);
    const auto correction_id = id_at(fixture.store, first.key);
    // The judge died after writing the correction, before marking what it corrects.
    fixture.store.update(staging.key, [](core::Memory &memory) { (void)core::lift_supersession(memory); });
    const auto events = history_size(fixture, staging.id);
    const auto again = fixture.rememberer.remember(request);
    CHECK(again.action == RememberOutcome::Action::created);
    CHECK(again.key == first.key);
    CHECK(fixture.store.list().size() == 2);
    CHECK(fixture.store.read(staging.key).superseded_by == correction_id);
    CHECK(history_size(fixture, staging.id) == events + 1);
    // Judged a third time, nothing more is written.
    (void)fixture.rememberer.remember(request);
    CHECK(history_size(fixture, staging.id) == events + 1);
}

TEST_CASE("a correction of part of a memory judged again after its judge died links the older memory back once",
          "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto node = remember_older(fixture, "remember: this project uses Node 18 in CI; Node 18 on the dev boxes too", "app");
    const auto request = correction_request(fixture, "this project uses Node 20 in CI now", "app", "session-1#7");
    const auto first = fixture.rememberer.remember(request);
    REQUIRE(first.action == RememberOutcome::Action::created);
    const auto correction_id = id_at(fixture.store, first.key);
    // The judge died after writing the correction, before linking the older memory back.
    fixture.store.update(node.key, [](core::Memory &memory) { core::set_link_items(memory, {}); });
    const auto again = fixture.rememberer.remember(request);
    CHECK(again.key == first.key);
    CHECK(fixture.store.list().size() == 2);
    CHECK(links_of(fixture.store, node.key) == std::vector<std::string>{"amended_by:" + correction_id});
    // Judged a third time, nothing more is written.
    const auto events = history_size(fixture, node.id);
    (void)fixture.rememberer.remember(request);
    CHECK(links_of(fixture.store, node.key) == std::vector<std::string>{"amended_by:" + correction_id});
    CHECK(history_size(fixture, node.id) == events);
}

TEST_CASE("a correction in place judged again after its judge died is applied once", "[lifecycle][remember][corrections]") {
    RememberFixture fixture;
    const auto deploys = remember_older(fixture, "remember: deploys go through ArgoCD; the staging cluster is stg-eu-1", "app");
    const auto request = correction_request(fixture, "Actually, the staging cluster is stg-eu-2 now.", "app", "session-1#4");
    const auto first = fixture.rememberer.remember(request);
    REQUIRE(first.corrected);
    const auto events = history_size(fixture, deploys.id);
    const auto again = fixture.rememberer.remember(request);
    CHECK(again.action == RememberOutcome::Action::updated);
    CHECK(again.key == deploys.key);
    CHECK_FALSE(again.corrected);
    CHECK(fixture.store.list().size() == 1);
    CHECK(history_size(fixture, deploys.id) == events);
    CHECK_THAT(fixture.store.read(deploys.key).summary, Catch::Contains("stg-eu-2") && Catch::Contains("ArgoCD"));
}
