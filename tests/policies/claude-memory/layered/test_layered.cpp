// SPDX-License-Identifier: Apache-2.0
//
// layered through the plugin host, as Starling runs it: claude-memory's layer tree (seed-systems.md
// §2.2) branch by branch, its "do not save" list, the frontmatter of §2.3, tags and triggers.
#include <starling/plugins/plugin_registry.hpp>

#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using starling::sdk::Decision;
using starling::sdk::FieldValue;
using starling::sdk::Message;
using starling::test::quiet_logger;

namespace {

class Layered {
public:
    explicit Layered(const nlohmann::json &overrides = nlohmann::json::object()) : registry_{quiet_logger()} {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(registry_.find("layered")->default_settings_json);
        settings.merge_patch(overrides);
        policy_.emplace(registry_.create_decision_policy("layered", settings.dump()));
    }

    [[nodiscard]] Decision decide(const std::string &text, const std::string &project = "shop") const {
        auto decisions = policy_->decide({Message{text, "claude-code", project}});
        REQUIRE(decisions.size() == 1);
        return decisions.front();
    }

private:
    starling::plugins::PluginRegistry registry_;
    std::optional<starling::plugins::DecisionPolicyInstance> policy_;
};

const Layered &layered() {
    static const Layered policy;
    return policy;
}

std::optional<FieldValue> field(const Decision &decision, const std::string &name) {
    for (const auto &[field_name, value] : decision.fields) {
        if (field_name == name) {
            return value;
        }
    }
    return std::nullopt;
}

std::string text_field(const Decision &decision, const std::string &name) {
    const auto value = field(decision, name);
    REQUIRE(value.has_value());
    REQUIRE(std::holds_alternative<std::string>(*value));
    return std::get<std::string>(*value);
}

bool has_tag(const Decision &decision, const std::string &tag) {
    return std::find(decision.tags.begin(), decision.tags.end(), tag) != decision.tags.end();
}

} // namespace

TEST_CASE("layered: pointers to somewhere else are reference memories", "[policies][layered]") {
    for (const std::string text : {"The on-call dashboard can be found at https://grafana.example.com/d/payments",
                                   "Billing migration work is tracked in PAY-1234",
                                   "The runbook for failovers lives in the ops wiki"}) {
        INFO(text);
        const auto decision = layered().decide(text);
        REQUIRE(decision.store);
        CHECK(decision.type == "reference");
        CHECK(decision.scope == "project");
        CHECK(text_field(decision, "layer") == "reference");
        CHECK(text_field(decision, "source") == "referenced");
        CHECK(text_field(decision, "status") == "confirmed");
        CHECK_FALSE(field(decision, "retention").has_value());
    }
}

TEST_CASE("layered: how the agent should work is procedural, instructed, for every project", "[policies][layered]") {
    for (const std::string text : {"Don't mock the database in integration tests.", "Never push straight to main.",
                                   "Always run the linters before a commit message is written.",
                                   "Use pnpm instead of npm in this repository.", "Stop adding emoji to replies.",
                                   "You should prefer small pull requests."}) {
        INFO(text);
        const auto decision = layered().decide(text);
        REQUIRE(decision.store);
        CHECK(decision.type == "feedback");
        CHECK(decision.scope == "user");
        CHECK(text_field(decision, "layer") == "procedural");
        CHECK(text_field(decision, "source") == "instructed");
        CHECK(text_field(decision, "confidence") == "high");
        CHECK(text_field(decision, "salience") == "medium");
    }
}

TEST_CASE("layered: a struggle solved is a Solution entry whose symptom keywords are its triggers",
          "[policies][layered]") {
    const auto entry = layered().decide("## Solution: windows-pip-scripts-not-on-path\n"
                                        "**Symptom:** Command not found after pip install on Windows\n"
                                        "**Failed:** Assumed scripts land on the system PATH\n"
                                        "**Solution:** Scripts go to the user Scripts folder\n");
    REQUIRE(entry.store);
    CHECK(entry.type == "feedback");
    CHECK(entry.summary == "Solution: windows-pip-scripts-not-on-path");
    CHECK(text_field(entry, "source") == "observed");
    const auto triggers = std::get<std::vector<std::string>>(*field(entry, "trigger"));
    CHECK(triggers == std::vector<std::string>{"command", "pip", "install", "windows"});

    const auto told = layered().decide("Running the migrations in parallel didn't work; running them one by one fixed it.");
    REQUIRE(told.store);
    CHECK(text_field(told, "layer") == "procedural");
    const auto told_triggers = std::get<std::vector<std::string>>(*field(told, "trigger"));
    CHECK(std::find(told_triggers.begin(), told_triggers.end(), "migration") != told_triggers.end());

    const auto rule = layered().decide("Never push straight to main.");
    CHECK_FALSE(field(rule, "trigger").has_value());
}

TEST_CASE("layered: a timeless fact is semantic, the user's or the project's by who it is about",
          "[policies][layered]") {
    const auto role = layered().decide("I am the tech lead of the payments team.");
    REQUIRE(role.store);
    CHECK(role.type == "user");
    CHECK(role.scope == "user");
    CHECK(text_field(role, "layer") == "semantic");
    CHECK(text_field(role, "confidence") == "high");
    CHECK(text_field(role, "status") == "confirmed");

    const auto place = layered().decide("I'm based in Berlin and work in CET.");
    CHECK(place.type == "user");
    CHECK(text_field(place, "layer") == "semantic");

    const auto stack = layered().decide("The project uses PostgreSQL 16 for billing data.");
    REQUIRE(stack.store);
    CHECK(stack.type == "project");
    CHECK(stack.scope == "project");
    CHECK(text_field(stack, "layer") == "semantic");

    // Outside a project, a project's fact has nowhere else to go than the user's memories.
    CHECK(layered().decide("The project uses PostgreSQL 16 for billing data.", "").scope == "user");
}

TEST_CASE("layered: anything else is episodic, open, temporary — work in progress and errors kept 14 days",
          "[policies][layered]") {
    const auto event = layered().decide("We moved the invoices table to the new schema today.");
    REQUIRE(event.store);
    CHECK(event.type == "project");
    CHECK(text_field(event, "layer") == "episodic");
    CHECK(text_field(event, "status") == "open");
    CHECK(text_field(event, "confidence") == "medium");
    CHECK(text_field(event, "source") == "observed");
    CHECK(text_field(event, "retention") == "temporary");
    CHECK(text_field(event, "retention-days") == "90");

    CHECK(text_field(layered().decide("Halfway through moving the billing exports to the new queue."), "retention-days") ==
          "14");
    CHECK(text_field(layered().decide("The nightly export crashed with an out of memory error today."),
                     "retention-days") == "14");
    // A fact with a date in it is what happened, not what is.
    CHECK(text_field(layered().decide("We use Redis for sessions since this morning."), "layer") == "episodic");
}

TEST_CASE("layered: claude-memory's do-not-save list is discarded, each with its reason", "[policies][layered]") {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"What is the difference between a mutex and a semaphore?", "question"},
        {"The parser lives in src/parser.cpp", "file path"},
        {"The retry logic is in handle_request() of the worker", "code pattern"},
        {"Committed the refactor and rebased onto main", "git history"},
        {"Fixed the bug in the tokenizer by resetting its buffer", "debugging fix"},
        {"For now keep the old endpoint around", "ephemeral"},
    };
    for (const auto &[text, reason] : cases) {
        INFO(text);
        const auto decision = layered().decide(text);
        CHECK_FALSE(decision.store);
        CHECK_THAT(decision.reason, Catch::Contains(reason));
    }
}

TEST_CASE("layered: 'stop' and 'use' make a rule only where a sentence opens with them (seed defect)",
          "[policies][layered]") {
    const auto fact = layered().decide("The shuttle stop near the office moved to the next block.");
    REQUIRE(fact.store);
    CHECK(text_field(fact, "layer") != "procedural");
    const auto rule = layered().decide("Stop adding comments that repeat the code.");
    CHECK(text_field(rule, "layer") == "procedural");
}

TEST_CASE("layered: 3 to 6 tags, canonical nouns, no stop words", "[policies][layered]") {
    const auto decision = layered().decide("Don't scrape the Shopify product pages without pagination limits.");
    REQUIRE(decision.store);
    CHECK(decision.tags.size() >= 3);
    CHECK(decision.tags.size() <= 6);
    CHECK(has_tag(decision, "scraping"));
    CHECK(has_tag(decision, "shopify"));
    CHECK(has_tag(decision, "page"));
    CHECK(has_tag(decision, "pagination"));
    CHECK_FALSE(has_tag(decision, "don't"));
    CHECK_FALSE(has_tag(decision, "the"));

    const auto long_one = layered().decide(
        "I am responsible for billing, invoices, refunds, payouts, chargebacks, disputes and ledgers.");
    CHECK(long_one.tags.size() == 6);
}

TEST_CASE("layered: settings are checked when the policy is created", "[policies][layered]") {
    CHECK_THROWS(Layered{nlohmann::json{{"episodic", {{"retention_days", 0}}}}});
    CHECK_THROWS(Layered{nlohmann::json{{"tags", {{"canonical_forms", {"scraper"}}}}}});
    CHECK_THROWS(Layered{nlohmann::json{{"cues", {{"behavioural", {"..."}}}}}});
    const Layered shorter{nlohmann::json{{"episodic", {{"retention_days", 30}}}}};
    CHECK(text_field(shorter.decide("We moved the invoices table to the new schema today."), "retention-days") == "30");
}
