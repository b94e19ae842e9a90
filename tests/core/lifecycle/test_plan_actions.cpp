// SPDX-License-Identifier: Apache-2.0
//
// The actions ABI 1.4 added to decay plans, applied by consolidation: set_field, pin, unpin, link,
// unlink and move; and the fields and ids that let a policy plan them.
#include <starling/core/lifecycle/consolidation.hpp>
#include <starling/core/lifecycle/plan_actions.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/sdk/memory_view.hpp>

#include "support/fake_policies.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

using namespace starling;
using Kind = sdk::LifecycleAction::Kind;

namespace {

struct PlanFixture {
    test::TempDir directory{"plan-actions"};
    core::FixedClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};
    core::MemoryStore store{directory.path(), clock};
    test::ScriptedPlanner planner;

    std::string add(std::string summary, core::Tier tier = core::Tier::short_term) {
        core::Memory memory;
        memory.type = "project";
        memory.summary = std::move(summary);
        memory.body = "Body of " + memory.summary + ".\n";
        return store.create(core::Scope::user(), tier, std::move(memory));
    }

    core::ConsolidationReport run(std::vector<sdk::LifecycleAction> actions) {
        planner.actions = std::move(actions);
        return core::consolidate(store, planner, false);
    }
};

sdk::LifecycleAction set_field(std::string key, std::string field, sdk::FieldValue value) {
    sdk::LifecycleAction action{Kind::set_field, std::move(key), {}, "test"};
    action.field = std::move(field);
    action.value = std::move(value);
    return action;
}

sdk::LifecycleAction link(Kind kind, std::string key, std::string other, std::string relation = "related") {
    sdk::LifecycleAction action{kind, std::move(key), std::move(other), "test"};
    action.relation = std::move(relation);
    return action;
}

/// What a decay policy saw of each memory: its id, pin and fields, by key.
class RecordingPlanner final : public core::DecayPlanner {
public:
    struct Seen {
        std::string id;
        bool pinned = false;
        std::string fields;
        std::vector<sdk::MemoryView::Link> links;
    };
    std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const override {
        const sdk::MemoryBatch memories{batch};
        for (std::size_t index = 0; index < memories.size(); ++index) {
            const auto view = memories[index];
            seen[std::string{view.key()}] =
                Seen{std::string{view.id()}, view.pinned(), std::string{view.fields_json()}, view.links()};
        }
        return {};
    }
    mutable std::map<std::string, Seen> seen;
};

} // namespace

TEST_CASE("set_field gives a field a value, a list, or removes it, and the next plan sees it",
          "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    const auto key = fixture.add("tabs are four spaces");
    const auto report = fixture.run({set_field(key, "salience", std::string{"high"}),
                                     set_field(key, "trigger", std::vector<std::string>{"indent", "tabs"}),
                                     set_field(key, "access_count", std::string{"9"})});
    REQUIRE(report.actions.size() == 3);
    for (const auto &applied : report.actions) {
        INFO(applied.result);
        CHECK(applied.applied);
    }
    auto memory = fixture.store.read(key);
    CHECK(memory.access_count == 9);
    REQUIRE(memory.extra_field("salience") != nullptr);
    CHECK(memory.extra_field("salience")->value == "high");
    CHECK(memory.extra_field("trigger")->value == "[indent, tabs]");

    RecordingPlanner recorder;
    static_cast<void>(core::consolidate(fixture.store, recorder, true));
    REQUIRE(recorder.seen.count(key) == 1);
    CHECK(recorder.seen[key].fields == R"({"salience":"high","trigger":["indent","tabs"]})");
    CHECK(recorder.seen[key].id == core::memory_id_of(memory));

    fixture.run({set_field(key, "salience", std::monostate{})});
    CHECK(fixture.store.read(key).extra_field("salience") == nullptr);
}

TEST_CASE("set_field refuses what the host keeps and values that do not fit, naming the field",
          "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    const auto key = fixture.add("tabs are four spaces");
    const auto before = fixture.store.read(key);
    const auto report = fixture.run({set_field(key, "id", std::string{"zzzzzzz"}),
                                     set_field(key, "pinned", std::string{"true"}),
                                     set_field(key, "links", std::vector<std::string>{"abc"}),
                                     set_field(key, "access_count", std::string{"many"}),
                                     set_field(key, "summary", std::string{}),
                                     set_field(key, "bad key", std::string{"x"})});
    REQUIRE(report.actions.size() == 6);
    for (const auto &applied : report.actions) {
        INFO(applied.result);
        CHECK_FALSE(applied.applied);
        CHECK_THAT(applied.result, Catch::StartsWith("failed: "));
    }
    CHECK_THAT(report.actions[0].result, Catch::Contains("'id'"));
    CHECK_THAT(report.actions[3].result, Catch::Contains("'many'"));
    CHECK(fixture.store.read(key) == before);
}

TEST_CASE("a plan's pin holds like the user's, and a plan lifts only its own pin",
          "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    const auto by_plan = fixture.add("pinned by the plan");
    const auto by_user = fixture.add("pinned by the user");
    fixture.store.update(by_user, [](core::Memory &memory) { memory.pinned = true; });

    auto report = fixture.run({{Kind::pin, by_plan, {}, "core memory"}, {Kind::archive, by_plan, {}, "old"}});
    CHECK(report.actions[0].result == "pinned");
    CHECK(report.actions[1].result == "skipped: the memory is pinned");
    CHECK(fixture.store.contains(by_plan));

    RecordingPlanner recorder;
    static_cast<void>(core::consolidate(fixture.store, recorder, true));
    CHECK(recorder.seen[by_plan].pinned);

    report = fixture.run({{Kind::unpin, by_user, {}, "stale"}, {Kind::unpin, by_plan, {}, "stale"}});
    CHECK(report.actions[0].result == "skipped: pinned by the user");
    CHECK(report.actions[1].result == "unpinned");
    CHECK(fixture.store.read(by_user).pinned);
    CHECK_FALSE(fixture.store.read(by_plan).pinned);
    CHECK(fixture.store.read(by_plan).extra_field("pinned_by") == nullptr);
}

TEST_CASE("link and unlink name the other memory by its id, once per relation",
          "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    const auto from = fixture.add("deploys go through argo");
    const auto to = fixture.add("argo lives at argo.example.com");
    const auto to_id = core::memory_id_of(fixture.store.read(to));

    auto report = fixture.run({link(Kind::link, from, to), link(Kind::link, from, to),
                               link(Kind::link, from, to, "supersedes"), link(Kind::link, from, from)});
    CHECK(report.actions[0].result == "linked related:" + to_id);
    CHECK(report.actions[1].result == "skipped: already linked related:" + to_id);
    CHECK(report.actions[2].result == "linked supersedes:" + to_id);
    CHECK_THAT(report.actions[3].result, Catch::Contains("itself"));
    CHECK(fixture.store.read(from).extra_field("links")->value == "[" + to_id + ", supersedes:" + to_id + "]");

    RecordingPlanner recorder;
    static_cast<void>(core::consolidate(fixture.store, recorder, true));
    CHECK(recorder.seen[from].links ==
          std::vector<sdk::MemoryView::Link>{{"related", to_id}, {"supersedes", to_id}});
    CHECK(recorder.seen[to].links.empty());

    report = fixture.run({link(Kind::unlink, from, to), link(Kind::unlink, from, to, "supersedes"),
                          link(Kind::unlink, from, to)});
    CHECK(report.actions[0].applied);
    CHECK(report.actions[1].applied);
    CHECK(report.actions[2].result == "skipped: not linked related:" + to_id);
    CHECK(fixture.store.read(from).extra_field("links") == nullptr);
}

TEST_CASE("a link to a memory that is gone is skipped, not failed", "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    const auto from = fixture.add("deploys go through argo");
    const auto gone = fixture.add("argo lives at argo.example.com");
    static_cast<void>(fixture.store.archive(gone, "test"));
    const auto report = fixture.run({link(Kind::link, from, gone)});
    CHECK(report.actions[0].result == "skipped: the memory to link no longer exists");
}

TEST_CASE("move changes a memory's tier both ways, and later actions of the plan follow it",
          "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    const auto key = fixture.add("tabs are four spaces", core::Tier::long_term);
    const auto id = core::memory_id_of(fixture.store.read(key));
    sdk::LifecycleAction demote{Kind::move, key, {}, "unused"};
    demote.tier = "short";
    const auto report = fixture.run({demote, set_field(key, "layer", std::string{"episodic"})});
    REQUIRE(report.actions.size() == 2);
    CHECK(report.actions[0].applied);
    const auto moved = report.actions[0].result;
    CHECK_THAT(moved, Catch::Contains("/short/"));
    INFO(report.actions[1].result);
    CHECK(report.actions[1].applied);
    CHECK(report.actions[1].action.key == moved);
    const auto memory = fixture.store.read(moved);
    CHECK(core::memory_id_of(memory) == id);
    CHECK(memory.extra_field("layer")->value == "episodic");
}

TEST_CASE("fields_json holds every field Memory does not model, decoded, in file order", "[store][abi-1-4]") {
    core::Memory memory;
    memory.type = "project";
    memory.summary = "s";
    CHECK(core::fields_json(memory).empty());
    memory.set_extra_field("salience", "high");
    memory.set_extra_list("trigger", {"a, b", "c"});
    memory.set_extra_field("note", "  padded  ");
    CHECK(core::fields_json(memory) == R"({"salience":"high","trigger":["a, b","c"],"note":"  padded  "})");
}

TEST_CASE("append adds a claim to a memory's text once, however it is wrapped, and redacted",
          "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    const auto key = fixture.add("release process");
    sdk::LifecycleAction append{Kind::append, key, {}, "absorbed from an episode"};
    append.text = "Tag the release before\n  building the image.";
    sdk::LifecycleAction again = append;
    again.text = "Tag the release before building the image.";
    sdk::LifecycleAction secret = append;
    secret.text = "The registry token is ghp_abcdefghijklmnopqrstuvwxyz0123456789.";
    const auto report = fixture.run({append, again, secret});
    CHECK(report.actions[0].result == "appended");
    CHECK(report.actions[1].result == "skipped: the text is there already");
    CHECK(report.actions[2].result == "appended");
    const auto body = fixture.store.read(key).body;
    CHECK(body == "Body of release process.\n\nTag the release before\n  building the image.\n\n"
                  "The registry token is [REDACTED:github-token].\n");
}

namespace {

/// Records whether the batch it planned over carried the memories' texts.
class TextRecordingPlanner final : public core::DecayPlanner {
public:
    explicit TextRecordingPlanner(bool wants_texts) : wants_texts_(wants_texts) {}
    std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const override {
        had_texts = (batch.flags & STARLING_BATCH_HAS_BODIES) != 0;
        for (std::size_t index = 0; index < batch.count; ++index) {
            texts.emplace_back(sdk::as_string_view(batch.items[index]->body));
        }
        return {};
    }
    [[nodiscard]] bool plans_with_bodies() const override { return wants_texts_; }
    mutable bool had_texts = false;
    mutable std::vector<std::string> texts;

private:
    bool wants_texts_;
};

} // namespace

TEST_CASE("consolidation reads the memories' texts only for a policy that plans with them",
          "[lifecycle][consolidation][abi-1-4]") {
    PlanFixture fixture;
    static_cast<void>(fixture.add("tabs are four spaces"));
    TextRecordingPlanner from_index{false};
    static_cast<void>(core::consolidate(fixture.store, from_index, true));
    CHECK_FALSE(from_index.had_texts);
    CHECK(from_index.texts == std::vector<std::string>{""});

    TextRecordingPlanner from_texts{true};
    static_cast<void>(core::consolidate(fixture.store, from_texts, true));
    CHECK(from_texts.had_texts);
    CHECK(from_texts.texts == std::vector<std::string>{"Body of tabs are four spaces.\n"});
}

TEST_CASE("a plan may set exactly the typed fields whose row says policies write them", "[lifecycle][consolidation]") {
    for (const core::FieldInfo &row : core::memory_fields) {
        CAPTURE(row.key);
        CHECK(core::policy_may_set_field(row.key) == (row.writer == core::FieldWriter::policies));
    }
    CHECK(core::policy_may_set_field("salience"));
    CHECK_FALSE(core::policy_may_set_field("superseded_by"));
    CHECK_FALSE(core::policy_may_set_field("links"));
}
