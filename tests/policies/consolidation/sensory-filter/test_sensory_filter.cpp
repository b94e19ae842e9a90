// SPDX-License-Identifier: Apache-2.0
//
// sensory-filter through the plugin host: the memory-consolidation skill's write gate (seed-systems.md
// §3.2) without a model, each signal read from the user's words.
#include <starling/plugins/plugin_registry.hpp>

#include "policies/consolidation/sensory-filter/relevance_score.hpp"
#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

using starling::sdk::Decision;
using starling::test::quiet_logger;

namespace {

class SensoryFilter {
public:
    explicit SensoryFilter(const nlohmann::json &overrides = nlohmann::json::object()) : registry_{quiet_logger()} {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(registry_.find("sensory-filter")->default_settings_json);
        settings.merge_patch(overrides);
        policy_.emplace(registry_.create_decision_policy("sensory-filter", settings.dump()));
    }

    Decision decide(const std::string &text, const std::string &project = "shop") const {
        return decide_near(text, -1.0, project);
    }

    /// The decision on `text` when the host found a memory `closest_similarity` similar to it
    /// (negative: none).
    Decision decide_near(const std::string &text, double closest_similarity, const std::string &project = "shop") const {
        starling::sdk::Message message{text, "claude-code", project};
        message.closest_similarity = closest_similarity;
        const auto decisions = policy_->decide({message});
        REQUIRE(decisions.size() == 1);
        return decisions.front();
    }

    [[nodiscard]] bool asks_for_similarity() const { return policy_->wants_closest_similarity(); }

private:
    starling::plugins::PluginRegistry registry_;
    std::optional<starling::plugins::DecisionPolicyInstance> policy_;
};

std::string field(const Decision &decision, const std::string &name) {
    for (const auto &[field_name, value] : decision.fields) {
        if (field_name == name) {
            if (const auto *text = std::get_if<std::string>(&value)) {
                return *text;
            }
            return starling::sdk::to_json(value).dump();
        }
    }
    return "<absent>";
}

} // namespace

TEST_CASE("sensory-filter: each signal scores as the skill's calculateRelevance does", "[policies][sensory-filter]") {
    const SensoryFilter filter;
    // Generality: more than two items +3, exactly two +2, one nothing.
    CHECK(filter.decide("This applies to react, vue and svelte.").reason ==
          "relevance score 3 < 5: Broadly applicable (+3)");
    CHECK(filter.decide("This works with node.js and deno.").reason ==
          "relevance score 2 < 5: Applies to multiple contexts (+2)");
    CHECK(filter.decide("This works with deno.").reason == "relevance score 0 < 5: no signal");
    // Severity: the strongest level named.
    CHECK(filter.decide("A critical detail: it might matter.").reason == "relevance score 5 >= 5: Severity: critical (+5)");
    CHECK(filter.decide("It is important to pin versions.").reason == "relevance score 3 < 5: Severity: high (+3)");
    CHECK(filter.decide("Better to pin versions.").reason == "relevance score 2 < 5: Severity: medium (+2)");
    CHECK(filter.decide("A minor point about versions.").reason == "relevance score 1 < 5: Severity: low (+1)");
    // Source: a failure +2, the user saying so +3 (one source per learning).
    CHECK(filter.decide("That regression cost a day.").reason == "relevance score 2 < 5: Learned from failure (+2)");
    CHECK(filter.decide("Keep in mind the cache is per user.").reason ==
          "relevance score 3 < 5: User explicitly shared (+3)");
    // Alignment with what core memory holds, and the frequency hint.
    CHECK(filter.decide("The database is on port 5433.").reason ==
          "relevance score 1 < 5: Aligns with existing patterns (database) (+1)");
    CHECK(filter.decide("This comes up whenever we release.").reason == "relevance score 2 < 5: Common scenario (+2)");
}

TEST_CASE("sensory-filter: stored at a score of 5 or more, with the skill's metadata as fields",
          "[policies][sensory-filter]") {
    const SensoryFilter filter;
    const auto saved = filter.decide(
        "Remember that the migration broke production: always run migrations in a transaction. This applies to "
        "postgres, mysql and sqlite. It happens every time we deploy.");
    REQUIRE(saved.store);
    CHECK(saved.reason == "relevance score 12 >= 5: Broadly applicable (+3), Severity: high (+3), User explicitly "
                          "shared (+3), Aligns with existing patterns (deploy) (+1), Common scenario (+2)");
    CHECK(field(saved, "relevance_score") == std::to_string(12));
    CHECK(field(saved, "source") == "explicit_user_feedback");
    CHECK(field(saved, "severity") == "high");
    CHECK(field(saved, "applies_to") == R"(["postgres","mysql","sqlite"])");
    CHECK(field(saved, "frequency") == "common");
    CHECK(field(saved, "critical") == "<absent>");
    CHECK(saved.type == "feedback");
    CHECK(saved.scope == "user");
    CHECK(saved.tags == std::vector<std::string>{"postgres", "mysql", "sqlite"});

    const auto critical = filter.decide("Never force-push main: it broke the build and we lost data that way.");
    REQUIRE(critical.store);
    CHECK(field(critical, "severity") == "critical");
    CHECK(field(critical, "critical") == "true");
    CHECK(field(critical, "source") == "mistake");
    CHECK(critical.type == "mistake");

    const auto discarded = filter.decide("Thanks, that looks fine.");
    CHECK_FALSE(discarded.store);
    CHECK(discarded.reason == "relevance score 0 < 5: no signal");
}

TEST_CASE("sensory-filter: cues match whole words only", "[policies][sensory-filter]") {
    const SensoryFilter filter;
    // "debugging" holds "bug", "mustard" "must", "tipping" "tip", "testings" nothing.
    CHECK(filter.decide("Debugging mustard tipping points.").reason == "relevance score 0 < 5: no signal");
    // Typographic apostrophes read as ASCII ones.
    CHECK(filter.decide("Don\xE2\x80\x99t do that.").reason == "relevance score 3 < 5: Severity: high (+3)");
    // Upper case folds.
    CHECK(filter.decide("CRITICAL").reason == "relevance score 5 >= 5: Severity: critical (+5)");
}

TEST_CASE("sensory-filter: a learning about this project stays in it — others are the user's",
          "[policies][sensory-filter]") {
    const SensoryFilter filter;
    const std::string text = "Remember that in this repo a critical setting lives in .env.";
    CHECK(filter.decide(text).scope == "project");
    CHECK(filter.decide(text, "").scope == "user");
}

TEST_CASE("sensory-filter: the threshold and each score are settings", "[policies][sensory-filter]") {
    CHECK(SensoryFilter{nlohmann::json{{"threshold", 3}}}.decide("It is important to pin versions.").store);
    CHECK_FALSE(SensoryFilter{nlohmann::json{{"threshold", 6}}}.decide("A critical detail.").store);
    CHECK(SensoryFilter{nlohmann::json{{"scores", {{"low", 7}}}}}.decide("A minor point.").store);
    CHECK(SensoryFilter{nlohmann::json{{"cues", {{"low", {"trivia"}}}}}}.decide("Trivia: x.").reason ==
          "relevance score 1 < 5: Severity: low (+1)");
    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"threshold", 1000}}}), Catch::Contains("threshold"));
    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"cues", {{"high", {" "}}}}}}), Catch::Contains("cues.high"));
}

TEST_CASE("sensory-filter: the items a learning applies to, as the sentence lists them", "[policies][sensory-filter]") {
    using starling::sensory_filter::listed_items;
    const std::string text = "applies to: the react, vue/svelte & solid and both node.js or deno. not this";
    CHECK(listed_items(text, std::string{"applies to"}.size()) ==
          std::vector<std::string>{"react", "vue", "svelte", "solid", "node.js", "deno"});
    CHECK(listed_items("works with", 10).empty());
}

namespace {
// User explicitly shared (+3) and Common scenario (+2): exactly the threshold, with nothing else.
const std::string kExactlyFive =
    "Keep in mind that the invoice exporter writes CSV files with semicolons whenever the locale is German.";
} // namespace

TEST_CASE("sensory-filter: novelty — a memory more than 0.6 similar costs 2 points — exactly 0.6 costs nothing",
          "[policies][sensory-filter][novelty]") {
    const SensoryFilter filter;
    // The skill's novelty needs the store: the policy asks the host for the closest memory.
    CHECK(filter.asks_for_similarity());

    const auto novel = filter.decide(kExactlyFive);
    CHECK(novel.store);
    CHECK(novel.reason == "relevance score 5 >= 5: User explicitly shared (+3), Common scenario (+2)");
    CHECK(filter.decide_near(kExactlyFive, 0.3).reason == novel.reason);
    // The skill's test is "more than 0.6": at 0.6 itself the learning is still novel.
    CHECK(filter.decide_near(kExactlyFive, 0.6).store);
    CHECK(filter.decide_near(kExactlyFive, 0.6).reason == novel.reason);

    const auto similar = filter.decide_near(kExactlyFive, 0.6000001);
    CHECK_FALSE(similar.store);
    CHECK(similar.reason ==
          "relevance score 3 < 5: Similar memory exists (-2), User explicitly shared (+3), Common scenario (+2)");
    CHECK_FALSE(filter.decide_near(kExactlyFive, 0.77).store);
    // A restatement (the host folds one at remember.duplicate_similarity) is penalised as well.
    CHECK(filter.decide_near(kExactlyFive, 1.0).reason == similar.reason);

    // A learning that scores well enough is kept though a similar memory exists, its score lowered.
    const auto strong = filter.decide_near("Never force-push main: it broke the build and we lost data that way.", 0.7);
    CHECK(strong.store);
    CHECK(field(strong, "relevance_score") == "5");
}

TEST_CASE("sensory-filter: the novelty threshold and penalty are settings, checked", "[policies][sensory-filter][novelty]") {
    const SensoryFilter stricter{nlohmann::json{{"novelty", {{"similarity", 0.5}}}}};
    CHECK_FALSE(stricter.decide_near(kExactlyFive, 0.55).store);
    CHECK(stricter.decide_near(kExactlyFive, 0.5).store);
    const SensoryFilter harsher{nlohmann::json{{"scores", {{"novelty_penalty", -5}}}}};
    CHECK(harsher.decide_near(kExactlyFive, 0.7).reason ==
          "relevance score 0 < 5: Similar memory exists (-5), User explicitly shared (+3), Common scenario (+2)");

    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"novelty", {{"similarity", 1.5}}}}}),
                      Catch::Contains("'novelty.similarity' must be a number from 0 to 1"));
    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"novelty", {{"similarity", -0.1}}}}}),
                      Catch::Contains("novelty.similarity"));
    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"novelty", {{"similarity", "high"}}}}}),
                      Catch::Contains("novelty.similarity"));
    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"novelty", {{"similarity", nullptr}}}}}),
                      Catch::Contains("novelty.similarity"));
    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"scores", {{"novelty_penalty", 1000}}}}}),
                      Catch::Contains("'scores.novelty_penalty' must be a whole number from -100 to 100"));
    CHECK_THROWS_WITH((SensoryFilter{nlohmann::json{{"scores", {{"novelty_penalty", -2.5}}}}}),
                      Catch::Contains("scores.novelty_penalty"));
}
