// SPDX-License-Identifier: Apache-2.0
//
// trigger-weighted through the plugin host, as Starling runs it: claude-memory's retrieval score
// (seed-systems.md §2.5) with its test vectors, the fallback, superseded memories and one-hop expansion.
#include <starling/plugins/plugin_registry.hpp>

#include "policies/claude-memory/trigger-weighted/prompt_keywords.hpp"
#include "support/decay_batch.hpp"
#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

using starling::test::DecayBatch;
using starling::test::quiet_logger;

namespace {

constexpr std::int64_t day = starling::test::seconds_per_day;
constexpr std::int64_t now = 1'800'000'000;

class TriggerWeighted {
public:
    explicit TriggerWeighted(const nlohmann::json &overrides = nlohmann::json::object()) : registry_{quiet_logger()} {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(registry_.find("trigger-weighted")->default_settings_json);
        settings.merge_patch(overrides);
        policy_.emplace(registry_.create_relevance_policy("trigger-weighted", settings.dump()));
    }

    std::vector<double> score(const std::string &query, DecayBatch &batch) const {
        return policy_->score(query, batch.batch());
    }

private:
    starling::plugins::PluginRegistry registry_;
    std::optional<starling::plugins::RelevancePolicyInstance> policy_;
};

DecayBatch::Memory memory(std::string id, std::string tags, nlohmann::json fields, std::int64_t created = now - 60 * day) {
    return {.key = "memory/user/long/" + id + ".md", .type = "project", .tags = std::move(tags), .created = created,
            .last_accessed = created, .id = std::move(id), .fields = fields.dump()};
}

} // namespace

TEST_CASE("trigger-weighted: keywords as §2.5 step 1 takes them, with an 89-word stop list", "[policies][trigger-weighted]") {
    using starling::trigger_weighted::prompt_keywords;
    CHECK(starling::trigger_weighted::stop_word_count() == 89);
    CHECK(prompt_keywords("Let's fix the Shopify (pagination) bug, please: on page 100/200!") ==
          starling::trigger_weighted::Keywords{"fix", "shopify", "pagination", "bug", "page", "100", "200"});
    CHECK(prompt_keywords("is it ok? why not").empty());
}

TEST_CASE("trigger-weighted: §2.5's test vectors score 6 and 3, and 0 without a match", "[policies][trigger-weighted]") {
    DecayBatch batch{now};
    batch.add(memory("aaaaaa1", "shopify\nsqlite\npagination", {{"layer", "semantic"}, {"salience", "high"}}));
    batch.add(memory("aaaaaa2", "shopify\nwebhooks", {{"layer", "episodic"}, {"salience", "medium"}}, now - 2 * day));
    batch.add(memory("aaaaaa3", "grafana\nalerts", {{"layer", "semantic"}, {"salience", "high"}}));
    batch.add(memory("aaaaaa4", "Shopify", {{"layer", "episodic"}, {"salience", "medium"}}, now - 8 * day));
    const auto scores = TriggerWeighted{}.score("How do I page through SHOPIFY pagination?", batch);
    CHECK(scores[0] == 6.0);
    CHECK(scores[1] == 3.0);
    CHECK(scores[2] == 0.0);
    CHECK(scores[3] == 2.0); // a week and a day old: no recency, tags compared without case
}

TEST_CASE("trigger-weighted: a trigger counts twice a tag, salience weighs 3/2/1", "[policies][trigger-weighted]") {
    DecayBatch batch{now};
    batch.add(memory("bbbbbb1", "python", {{"layer", "procedural"}, {"salience", "medium"}, {"trigger", {"windows", "pip"}}}));
    batch.add(memory("bbbbbb2", "windows", {{"layer", "semantic"}, {"salience", "low"}}));
    batch.add(memory("bbbbbb3", "windows", {{"layer", "semantic"}}));
    const auto scores = TriggerWeighted{}.score("pip install fails on windows", batch);
    CHECK(scores[0] == 8.0);
    CHECK(scores[1] == 1.0);
    CHECK(scores[2] == 2.0); // no salience written: new files start at medium
}

TEST_CASE("trigger-weighted: superseded memories score 0, even linked", "[policies][trigger-weighted]") {
    DecayBatch batch{now};
    batch.add(memory("cccccc1", "shopify", {{"layer", "semantic"}, {"status", "superseded"}}));
    batch.add(memory("cccccc2", "shopify", {{"layer", "semantic"}, {"links", {"cccccc3"}}}));
    batch.add(memory("cccccc3", "old", {{"layer", "semantic"}, {"status", "superseded"}}));
    const auto scores = TriggerWeighted{}.score("shopify", batch);
    CHECK(scores[0] == 0.0);
    CHECK(scores[1] == 2.0);
    CHECK(scores[2] == 0.0);
}

TEST_CASE("trigger-weighted: when nothing scores, semantic memories of high salience do", "[policies][trigger-weighted]") {
    DecayBatch batch{now};
    batch.add(memory("dddddd1", "role", {{"layer", "semantic"}, {"salience", "high"}}));
    batch.add(memory("dddddd2", "stack", {{"layer", "semantic"}, {"salience", "medium"}}));
    batch.add(memory("dddddd3", "rules", {{"layer", "procedural"}, {"salience", "high"}}));
    const auto scores = TriggerWeighted{}.score("something unrelated entirely", batch);
    CHECK(scores == std::vector<double>{0.5, 0.0, 0.0});
    CHECK(TriggerWeighted{}.score("stack", batch) == std::vector<double>{0.0, 2.0, 0.0});
}

TEST_CASE("trigger-weighted: one hop over related links ranks a linked memory just below its parent",
          "[policies][trigger-weighted]") {
    DecayBatch batch{now};
    batch.add(memory("eeeeee1", "deploy", {{"layer", "semantic"}, {"salience", "high"},
                                           {"links", {"eeeeee2", "supersedes:eeeeee4"}}}));
    batch.add(memory("eeeeee2", "argo", {{"layer", "reference"}, {"links", {"related:eeeeee3"}}}));
    batch.add(memory("eeeeee3", "cluster", {{"layer", "semantic"}}));
    batch.add(memory("eeeeee4", "legacy", {{"layer", "semantic"}}));
    batch.add(memory("eeeeee5", "deploy", {{"layer", "semantic"}, {"salience", "low"}}));
    const auto scores = TriggerWeighted{}.score("how does deploy work", batch);
    CHECK(scores[0] == 3.0);
    CHECK(scores[1] < 3.0);
    CHECK(scores[1] > 2.999);
    CHECK(scores[2] == 0.0); // two hops away
    CHECK(scores[3] == 0.0); // not a relation expanded
    CHECK(scores[4] == 1.0);

    const auto without = TriggerWeighted{nlohmann::json{{"expansion", {{"relations", nlohmann::json::array()}}}}}.score(
        "how does deploy work", batch);
    CHECK(without[1] == 0.0);
}

TEST_CASE("trigger-weighted: settings are checked when the policy is created", "[policies][trigger-weighted]") {
    CHECK_THROWS(TriggerWeighted{nlohmann::json{{"trigger_weight", -1}}});
    CHECK_THROWS(TriggerWeighted{nlohmann::json{{"recency", {{"days", 1.5}}}}});
}
