// SPDX-License-Identifier: Apache-2.0
//
// The triples decision through the plugin host: skill_master's write flow without a model.
#include "rule_memories.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using starling::sdk::Decision;
using starling::test::default_settings_of;
using starling::test::linked_plugins;

namespace {

Decision decide(const std::string &text, const std::string &project = "p1",
                const std::string &settings = default_settings_of("triples")) {
    const auto policy = linked_plugins().create_decision_policy("triples", settings);
    const auto decisions = policy.decide({{text, "claude-code", project}});
    REQUIRE(decisions.size() == 1);
    return decisions.front();
}

std::string field(const Decision &claim, const std::string &name) {
    for (const auto &[field_name, value] : claim.fields) {
        if (field_name == name) {
            return std::get<std::string>(value);
        }
    }
    return "<absent>";
}

std::vector<std::string> keys_of(const Decision &decision) {
    std::vector<std::string> keys;
    for (const auto &claim : decision.claims) {
        keys.push_back(claim.dedupe_key);
    }
    return keys;
}

} // namespace

TEST_CASE("triples: skill_master's example becomes one constraint triple with its fields and key",
          "[policies][triples]") {
    const auto decision = decide("add to memory that never run build repeatedly because it is heavy");
    REQUIRE(decision.store);
    REQUIRE(decision.claims.size() == 1);
    const auto &claim = decision.claims.front();
    CHECK(claim.store);
    CHECK(claim.scope == "project");
    CHECK(field(claim, "kind") == "constraint");
    CHECK(field(claim, "subject") == "build");
    CHECK(field(claim, "predicate") == "not run");
    CHECK(field(claim, "object") == "repeatedly");
    CHECK(field(claim, "source") == "user_direct");
    CHECK(claim.dedupe_key == "build|not run|repeatedly");
    CHECK(claim.summary == "Never run build repeatedly.");
    CHECK(claim.body == "Never run build repeatedly. Because it is heavy.");
    CHECK(claim.tags == std::vector<std::string>{"build"});
}

TEST_CASE("triples: paraphrases of one rule give one dedupe key (skill_master's exact keys duplicated them)",
          "[policies][triples]") {
    const auto key = decide("Never run the build repeatedly.").claims.at(0).dedupe_key;
    for (const char *paraphrase : {"Don't run builds repeatedly", "do not run the builds repeatedly!",
                                   "You must not run the build repeatedly", "NEVER run the Build repeatedly"}) {
        INFO(paraphrase);
        CHECK(decide(paraphrase).claims.at(0).dedupe_key == key);
    }
}

TEST_CASE("triples: kind is constraint > rule > preference, by the strongest cue", "[policies][triples]") {
    CHECK(field(decide("Always run the linter before committing").claims.at(0), "kind") == "constraint");
    CHECK(field(decide("Tests are required to run offline").claims.at(0), "kind") == "constraint");
    CHECK(field(decide("Use pnpm for installs").claims.at(0), "kind") == "rule");
    CHECK(field(decide("Reviews should be short").claims.at(0), "kind") == "rule");
    CHECK(field(decide("I prefer tabs").claims.at(0), "kind") == "preference");
    CHECK(field(decide("I'd rather see short answers").claims.at(0), "kind") == "preference");
    // Both cues: the constraint's wins.
    CHECK(field(decide("I prefer that you never use npm").claims.at(0), "kind") == "constraint");
}

TEST_CASE("triples: a stated subject, a purpose and a thing each become the triple's subject",
          "[policies][triples]") {
    const auto english = decide("Commit messages must be in English").claims.at(0);
    CHECK(english.dedupe_key == "commit message|be|in english");
    CHECK(english.summary == "Commit message must be in english.");
    CHECK(decide("Use pnpm for installs").claims.at(0).dedupe_key == "install|use|pnpm");
    CHECK(decide("Always reply in German").claims.at(0).dedupe_key == "german|reply in|");
    CHECK(decide("Never force-push").claims.at(0).dedupe_key == "force-push|not do|");
    CHECK(decide("remember that the default branch is main").claims.at(0).dedupe_key == "default branch|be|main");
}

TEST_CASE("triples: a message of several rules is one claim per rule", "[policies][triples]") {
    const auto decision = decide("Use pnpm for installs and never use npm for installs.\n"
                                 "- Commit messages must be in English\n"
                                 "- Write tests for new code, always");
    CHECK(keys_of(decision) == std::vector<std::string>{"install|use|pnpm", "install|not use|npm",
                                                        "commit message|be|in english",
                                                        "new code|write|test"});
    // The same rule twice in one message is one claim.
    CHECK(decide("Use pnpm. Use pnpm!").claims.size() == 1);
}

TEST_CASE("triples: scope is the project unless the user says global, and the user's outside a project",
          "[policies][triples]") {
    const auto global = decide("global: add to memory that I prefer pnpm");
    CHECK(global.claims.at(0).scope == "user");
    CHECK(global.claims.at(0).dedupe_key == "pnpm|prefer|");
    CHECK(decide("Use UTF-8 everywhere").claims.at(0).scope == "user");
    CHECK(decide("In all projects, never commit generated files").claims.at(0).scope == "user");
    CHECK(decide("Never commit generated files").claims.at(0).scope == "project");
    CHECK(decide("Never commit generated files", "").claims.at(0).scope == "user");
    // A lone "global" inside the rule is what the rule is about, not its scope.
    CHECK(decide("Never use global variables").claims.at(0).scope == "project");
}

TEST_CASE("triples: questions, chit-chat and what only holds now are discarded", "[policies][triples]") {
    for (const char *text : {"How do I run the tests?", "Should we use pnpm?", "thanks, looks good",
                             "Could you fix the login bug", "For now, use the staging database.",
                             "This time, skip the tests", "Use the new client in this function",
                             "Verwende in dieser Datei immer Tabs, nur diesmal"}) {
        INFO(text);
        const auto decision = decide(text);
        CHECK_FALSE(decision.store);
        CHECK(decision.claims.empty());
    }
    CHECK(decide("How do I run the tests?").reason == "a question, not a rule");
    // "When" opens a condition as often as a question: only a question mark makes it one.
    CHECK(decide("When deploying, always run the smoke tests").claims.at(0).dedupe_key == "smoke test|run|");
    CHECK_FALSE(decide("When do we deploy?").store);
}

TEST_CASE("triples: a sentence that gives a secret is never made a rule", "[policies][triples]") {
    for (const char *text : {"The API token is sk-live-abc123, never commit it.", "password: hunter2, always use it",
                             "Always send [REDACTED:github-token] as the token"}) {
        INFO(text);
        const auto decision = decide(text);
        CHECK_FALSE(decision.store);
        CHECK(decision.reason == "holds a secret: never made a rule of");
    }
    // A rule about secrets gives none.
    CHECK(decide("Never commit API keys").claims.at(0).dedupe_key == "api key|not commit|");
    // The other sentences of the message are still read.
    CHECK(keys_of(decide("The token is abc123. Use pnpm.")) == std::vector<std::string>{"pnpm|use|"});
}

TEST_CASE("triples: German and Chinese cue words", "[policies][triples]") {
    const auto german = decide("Commit-Nachrichten müssen auf Englisch sein.").claims.at(0);
    CHECK(field(german, "kind") == "constraint");
    CHECK(german.dedupe_key == "commit-nachrichten|sein|auf englisch");
    CHECK(field(decide("Verwende immer pnpm").claims.at(0), "kind") == "constraint");
    CHECK(field(decide("Ich bevorzuge Tabs").claims.at(0), "kind") == "preference");
    CHECK(decide("Merk dir: überall UTF-8 verwenden").claims.at(0).scope == "user");
    CHECK_FALSE(decide("Wie starte ich die Tests?").store);

    const auto chinese = decide("提交信息必须用英文。").claims.at(0);
    CHECK(field(chinese, "kind") == "constraint");
    CHECK(chinese.dedupe_key == "提交信息|do|用英文");
    CHECK(decide("不要用npm").claims.at(0).dedupe_key == "用npm|not do|");
    CHECK(field(decide("我更喜欢用tab缩进").claims.at(0), "kind") == "preference");
    CHECK_FALSE(decide("怎么运行测试吗").store);
}

TEST_CASE("triples: settings are checked", "[policies][triples]") {
    auto settings = nlohmann::json::parse(default_settings_of("triples"));
    settings["default_scope"] = "everywhere";
    CHECK_THROWS_WITH(linked_plugins().create_decision_policy("triples", settings.dump()),
                      Catch::Contains("default_scope"));
    settings["default_scope"] = "user";
    CHECK(decide("Never commit generated files", "p1", settings.dump()).claims.at(0).scope == "user");
    settings["max_rules_per_message"] = 1;
    CHECK(decide("Use pnpm. Never use npm for installs.", "p1", settings.dump()).claims.size() == 1);
}

TEST_CASE("triples: a long message of many clauses is read whole and gives at most the configured claims",
          "[policies][triples]") {
    std::string text;
    for (int tool = 0; tool < 5'000; ++tool) {
        text += "use tool" + std::to_string(tool) + ", ";
    }
    const auto decision = decide(text + "never use npm");
    REQUIRE(decision.claims.size() == 8);
    CHECK(decision.claims.front().dedupe_key == "tool0|use|");
    CHECK(decision.claims.back().dedupe_key == "tool7|use|");
}
