// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/clock.hpp>
#include <starling/core/lifecycle/injection.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/memory_links.hpp>

#include "support/fake_policies.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

using namespace starling;

namespace {

struct InjectionFixture {
    test::TempDir directory{"injection"};
    core::FixedClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};
    core::MemoryStore store{directory.path(), clock};
    test::WordOverlapScorer scorer;

    std::string add(const core::Scope &scope, core::Tier tier, std::string summary, std::string body) {
        core::Memory memory;
        memory.type = "feedback";
        memory.summary = std::move(summary);
        memory.body = std::move(body);
        return store.create(scope, tier, std::move(memory));
    }
};

/// Word overlap as its first pass, and a second pass that lends every matching memory twice its
/// score again, as pseudo-relevance feedback lends a lone match its own words.
class TwoPassScorer final : public core::RelevanceScorer {
public:
    std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override {
        auto scores = overlap_.score(query, batch);
        for (double &score : scores) {
            score *= 3.0;
        }
        return scores;
    }
    std::vector<double> score_first_pass(std::string_view query, const starling_memory_batch &batch) const override {
        ++first_passes;
        return overlap_.score(query, batch);
    }
    mutable int first_passes = 0;

private:
    test::WordOverlapScorer overlap_;
};

} // namespace

TEST_CASE("token estimates are conservative for ASCII and CJK", "[lifecycle][injection]") {
    CHECK(core::estimate_tokens("") == 0);
    CHECK(core::estimate_tokens("abcd") == 1);
    CHECK(core::estimate_tokens("abcde") == 2);
    CHECK(core::estimate_tokens("提交信息") == 4);
}

TEST_CASE("prompt injection gives relevant memories above the threshold, best first", "[lifecycle][injection]") {
    InjectionFixture fixture;
    const auto bun = fixture.add(core::Scope::user(), core::Tier::long_term, "use bun for javascript", "Use bun.");
    fixture.add(core::Scope::user(), core::Tier::short_term, "team of five", "Leads five engineers.");
    const auto project = fixture.store.resolve_project("/work/app");
    const auto presets = fixture.add(core::Scope::project(project), core::Tier::short_term,
                                     "javascript builds use bun scripts", "npm scripts are forbidden.");
    core::InjectionSettings settings;
    settings.min_relevance = 1.0;
    const auto injection = core::prompt_injection(fixture.store, fixture.scorer, "how do I run javascript builds with bun",
                                                  project, {}, settings);
    REQUIRE(injection.memories.size() == 2);
    CHECK(injection.memories[0].key == presets); // 3 words match, against 2
    CHECK(injection.memories[1].key == bun);
    CHECK_THAT(injection.context, Catch::Contains("npm scripts are forbidden."));
    CHECK(injection.context.find("five engineers") == std::string::npos);
    CHECK(injection.tokens == core::estimate_tokens(injection.context));

    const auto again = core::prompt_injection(fixture.store, fixture.scorer, "javascript bun", project,
                                              {presets, bun}, settings);
    CHECK(again.memories.empty());
    CHECK(again.context.empty());
}

TEST_CASE("once the best memory clears the threshold, others follow down to their fraction of its score",
          "[lifecycle][injection]") {
    InjectionFixture fixture;
    const auto best = fixture.add(core::Scope::user(), core::Tier::long_term, "javascript builds use bun scripts",
                                  "npm scripts are forbidden.");
    const auto close = fixture.add(core::Scope::user(), core::Tier::long_term, "bun builds are cached", "In .bun.");
    const auto far = fixture.add(core::Scope::user(), core::Tier::long_term, "javascript style", "Prettier.");
    const std::string prompt = "how do I run javascript builds with bun scripts";
    const auto keys = [&](double relative) {
        core::InjectionSettings settings;
        settings.min_relevance = 3.0;
        settings.relative_relevance = relative;
        std::vector<std::string> injected;
        for (const auto &memory : core::prompt_injection(fixture.store, fixture.scorer, prompt, {}, {}, settings).memories) {
            injected.push_back(memory.key);
        }
        return injected;
    };
    // The scorer counts shared words: 4, 2 and 1. At 0.5 the others need 2; at 0.25, 1; at 1, all 3.
    CHECK(keys(0.5) == std::vector<std::string>{best, close});
    CHECK(keys(0.25) == std::vector<std::string>{best, close, far});
    CHECK(keys(1.0) == std::vector<std::string>{best});
    // Never above the threshold itself: a fraction of a high best score that exceeds it is ignored.
    CHECK(core::least_prompt_relevance(10.0, core::InjectionSettings{.min_relevance = 3.0, .relative_relevance = 0.5}) ==
          3.0);

    // A prompt whose best memory does not clear the threshold gets nothing, however low the fraction.
    core::InjectionSettings settings;
    settings.min_relevance = 3.0;
    settings.relative_relevance = 0.0;
    CHECK(core::prompt_injection(fixture.store, fixture.scorer, "bun builds", {}, {}, settings).memories.empty());

    // Then the best memory and its score are kept, for `starling inject` to say what missed and by how much.
    const auto missed = core::prompt_injection(fixture.store, fixture.scorer, "javascript style guide", {}, {}, settings);
    CHECK(missed.memories.empty());
    REQUIRE(missed.best_below_threshold);
    CHECK(missed.best_below_threshold->key == far);
    CHECK(missed.best_below_threshold->score == 2.0);
    CHECK_FALSE(core::prompt_injection(fixture.store, fixture.scorer, "rust cargo", {}, {}, settings).best_below_threshold);
    settings.min_relevance = 2.0;
    const auto injected = core::prompt_injection(fixture.store, fixture.scorer, "javascript style guide", {}, {}, settings);
    REQUIRE_FALSE(injected.memories.empty());
    CHECK(injected.memories[0].key == far);
    CHECK_FALSE(injected.best_below_threshold);
}

TEST_CASE("a prompt that may get no memory ranks none", "[lifecycle][injection]") {
    InjectionFixture fixture;
    fixture.add(core::Scope::user(), core::Tier::long_term, "use bun for javascript", "Use bun.");
    for (const auto &[max_memories, budget] : {std::pair<std::size_t, std::size_t>{0, 1500}, {5, 0}}) {
        core::InjectionSettings settings;
        settings.max_memories = max_memories;
        settings.budget_tokens = budget;
        const auto injection = core::prompt_injection(fixture.store, fixture.scorer, "javascript bun", {}, {}, settings);
        CHECK(injection.memories.empty());
        CHECK(injection.context.empty());
    }
    CHECK(fixture.scorer.calls == 0);
}

TEST_CASE("injection never exceeds its budget, whatever the memories", "[lifecycle][injection]") {
    InjectionFixture fixture;
    for (int index = 0; index < 30; ++index) {
        fixture.add(core::Scope::user(), core::Tier::long_term, "deploy rule " + std::to_string(index),
                    std::string(static_cast<std::size_t>(50 + index * 37), 'x') + " deploy\n");
    }
    fixture.store.write_index_markdown(core::Scope::user());
    for (const std::size_t budget : {0U, 10U, 60U, 200U, 1500U}) {
        core::InjectionSettings settings;
        settings.budget_tokens = budget;
        settings.max_memories = 50;
        INFO("budget " << budget);
        const auto at_prompt = core::prompt_injection(fixture.store, fixture.scorer, "deploy rule", {}, {}, settings);
        CHECK(core::estimate_tokens(at_prompt.context) <= budget);
        const auto at_start = core::session_start_injection(fixture.store, &fixture.scorer, {}, "x", {}, settings);
        CHECK(core::estimate_tokens(at_start.context) <= budget);
    }
}

TEST_CASE("session start shows the indexes and the project's long-term memories", "[lifecycle][injection]") {
    InjectionFixture fixture;
    fixture.add(core::Scope::user(), core::Tier::long_term, "commit messages in English", "Always English.");
    const auto project = fixture.store.resolve_project("/work/app");
    const auto detail = fixture.add(core::Scope::project(project), core::Tier::long_term, "app uses postgres 16",
                                    "Never use SQL features beyond 16.");
    fixture.add(core::Scope::project(project), core::Tier::short_term, "short-term note", "Not indexed yet.");
    fixture.store.write_index_markdown(core::Scope::user());
    fixture.store.write_index_markdown(core::Scope::project(project));

    core::InjectionSettings index_only;
    index_only.standing_memories = false;
    const auto injection = core::session_start_injection(fixture.store, &fixture.scorer, project, "app", {},
                                                         index_only);
    CHECK_THAT(injection.context, Catch::Contains("commit messages in English"));
    CHECK_THAT(injection.context, Catch::Contains("app uses postgres 16"));
    CHECK_THAT(injection.context, Catch::Contains("Never use SQL features beyond 16."));
    CHECK(injection.context.find("Not indexed yet.") == std::string::npos);
    REQUIRE(injection.memories.size() == 1);
    CHECK(injection.memories.front().key == detail);

    core::InjectionSettings short_index;
    short_index.index_lines = 0;
    short_index.standing_memories = false;
    const auto without_index = core::session_start_injection(fixture.store, nullptr, project, "app", {detail},
                                                             short_index);
    CHECK(without_index.memories.empty());
}

TEST_CASE("session start shows a memory made long-term since INDEX.md was last written", "[lifecycle][injection]") {
    InjectionFixture fixture;
    fixture.add(core::Scope::user(), core::Tier::long_term, "commit messages in English", "Always English.");
    fixture.store.write_index_markdown(core::Scope::user());
    fixture.add(core::Scope::user(), core::Tier::long_term, "the user is a [staff] engineer", "Staff engineer.");
    const auto project = fixture.store.resolve_project("/work/app");
    fixture.add(core::Scope::project(project), core::Tier::long_term, "app deploys on tuesdays", "Tuesdays only.");

    core::InjectionSettings index_only;
    index_only.standing_memories = false;
    const auto injection = core::session_start_injection(fixture.store, nullptr, project, "app", {}, index_only);
    CHECK_THAT(injection.context, Catch::Contains("- [commit messages in English](long/"));
    CHECK_THAT(injection.context, Catch::Contains("- [the user is a \\[staff\\] engineer](long/"));
    CHECK_THAT(injection.context, Catch::Contains("- [app deploys on tuesdays](long/"));
    CHECK_FALSE(std::filesystem::exists(fixture.directory.path() / "memory" / "projects" / project / "INDEX.md"));
}

TEST_CASE("session start shows what the user asked to keep, whatever its tier, most useful first",
          "[lifecycle][injection][standing]") {
    InjectionFixture fixture;
    const auto project = fixture.store.resolve_project("/work/app");
    const auto add_typed = [&](const core::Scope &scope, core::Tier tier, std::string type, std::string summary,
                               std::string body, bool pinned) {
        core::Memory memory;
        memory.type = std::move(type);
        memory.summary = std::move(summary);
        memory.body = std::move(body);
        memory.pinned = pinned;
        return fixture.store.create(scope, tier, std::move(memory));
    };
    add_typed(core::Scope::user(), core::Tier::short_term, "reference", "Tickets live in Jira project PAY",
              "Tickets live in Jira project PAY\n", false);
    add_typed(core::Scope::user(), core::Tier::short_term, "user", "Backend engineer, mostly Go",
              "Backend engineer, mostly Go\n", false);
    add_typed(core::Scope::project(project), core::Tier::short_term, "project", "Deploys go through ArgoCD",
              "Deploys go through ArgoCD\nThe app's chart is in deploy/helm.\n", false);
    add_typed(core::Scope::user(), core::Tier::short_term, "feedback", "Never push directly to main",
              "Never push directly to main\n", true);
    add_typed(core::Scope::user(), core::Tier::short_term, "episode", "Talked about lunch", "Pizza.\n", false);
    // A one-line body is the text as the user said it: shown alone, not after its cleaned-up summary.
    add_typed(core::Scope::user(), core::Tier::short_term, "feedback", "Always write commit messages in English.",
              "From now on, always write commit messages in English.\n", false);
    const auto other_project = fixture.store.resolve_project("/work/other");
    add_typed(core::Scope::project(other_project), core::Tier::short_term, "project", "Other uses Nomad",
              "Other uses Nomad\n", true);

    const auto injection =
        core::session_start_injection(fixture.store, &fixture.scorer, project, "app", {}, core::InjectionSettings{});
    const auto &context = injection.context;
    CHECK_THAT(context, Catch::StartsWith("## Starling memory: what you asked to keep\n"));
    CHECK_THAT(context, Catch::Contains("- Never push directly to main (feedback, `"));
    CHECK_THAT(context, Catch::Contains("- Deploys go through ArgoCD: The app's chart is in deploy/helm. (project, `"));
    // Pinned first, then by type: how to work, who the user is, the project's constraints, references.
    CHECK(context.find("Never push") < context.find("Backend engineer"));
    CHECK(context.find("Backend engineer") < context.find("Deploys go through"));
    CHECK(context.find("Deploys go through") < context.find("Tickets live in Jira"));
    CHECK(context.find("Talked about lunch") == std::string::npos); // not a standing type, not pinned
    CHECK(context.find("Other uses Nomad") == std::string::npos);   // another project's
    CHECK_THAT(context, Catch::Contains("- From now on, always write commit messages in English. (feedback, `"));
    CHECK_THAT(context, !Catch::Contains("Always write commit messages in English.:"));
    CHECK(injection.memories.size() == 5);
    CHECK(injection.listed.empty());
    CHECK(injection.tokens == core::estimate_tokens(context));

    // Already given in this session: not again.
    const auto again = core::session_start_injection(fixture.store, &fixture.scorer, project, "app",
                                                     {injection.memories.front().key}, core::InjectionSettings{});
    CHECK(again.memories.size() == 4);
}

TEST_CASE("standing memories that do not fit are named a line each, and the rest counted, within the budget",
          "[lifecycle][injection][standing]") {
    InjectionFixture fixture;
    for (int index = 0; index < 40; ++index) {
        fixture.add(core::Scope::user(), core::Tier::short_term, "rule number " + std::to_string(index),
                    "rule number " + std::to_string(index) + ": " + std::string(200, 'x') + "\n");
    }
    for (const std::size_t budget : {40U, 300U, 1500U}) {
        INFO("budget " << budget);
        core::InjectionSettings settings;
        settings.budget_tokens = budget;
        const auto injection = core::session_start_injection(fixture.store, nullptr, {}, "x", {}, settings);
        CHECK(injection.tokens <= budget);
        CHECK(injection.memories.size() < 40);
        CHECK(injection.memories.size() + injection.listed.size() <= 40);
        if (budget >= 300) {
            CHECK_FALSE(injection.listed.empty());
            CHECK_THAT(injection.context, Catch::Contains("more you asked to keep (one line each"));
        }
        if (injection.memories.size() + injection.listed.size() < 40 && budget >= 300) {
            CHECK_THAT(injection.context, Catch::Contains("more: `starling list`)"));
        }
    }
}

TEST_CASE("a superseded memory is never injected, at session start or for a prompt", "[lifecycle][injection][standing]") {
    InjectionFixture fixture;
    core::Memory old;
    old.type = "project";
    old.summary = "staging database is db-staging-1";
    old.body = "staging database is db-staging-1\n";
    old.superseded_by = "k2new00";
    fixture.store.create(core::Scope::user(), core::Tier::long_term, std::move(old));
    const auto current = fixture.add(core::Scope::user(), core::Tier::short_term, "staging database is db-staging-2",
                                     "staging database is db-staging-2\n");
    const auto start = core::session_start_injection(fixture.store, nullptr, {}, "x", {}, core::InjectionSettings{});
    CHECK_THAT(start.context, Catch::Contains("db-staging-2"));
    CHECK_THAT(start.context, !Catch::Contains("db-staging-1"));
    core::InjectionSettings settings;
    settings.min_relevance = 1.0;
    const auto prompt = core::prompt_injection(fixture.store, fixture.scorer, "staging database", {}, {}, settings);
    REQUIRE(prompt.memories.size() == 1);
    CHECK(prompt.memories.front().key == current);
}

TEST_CASE("a memory changed in part since is never shown without what changed, at session start or for a prompt",
          "[lifecycle][injection][standing][corrections]") {
    InjectionFixture fixture;
    core::Memory older;
    older.id = "nd18aaa";
    older.type = "project";
    older.summary = "Node 18 in CI, Node 18 on the dev boxes too.";
    older.body = "Node 18 in CI, Node 18 on the dev boxes too. Builds cache the node modules.\n";
    core::set_links(older, {{"amended_by", "nd20bbb"}});
    const auto older_key = fixture.store.create(core::Scope::user(), core::Tier::short_term, std::move(older));
    core::Memory newer;
    newer.id = "nd20bbb";
    newer.type = "project";
    newer.summary = "Node 20 in CI now.";
    core::set_links(newer, {{"amends", "nd18aaa"}});
    const auto newer_key = fixture.store.create(core::Scope::user(), core::Tier::short_term, std::move(newer));
    const std::string note = "Changed in part since (`nd20bbb`, newer): Node 20 in CI now.";

    // At session start, under the older memory's entry, whether or not its body was read.
    const auto start = core::session_start_injection(fixture.store, nullptr, {}, "x", {}, core::InjectionSettings{});
    CHECK_THAT(start.context, Catch::Contains("dev boxes too. Builds cache the node modules. (project, `nd18aaa`)\n  " + note));
    // For a prompt that finds only the older memory, with it.
    core::InjectionSettings settings;
    settings.min_relevance = 1.0;
    const auto prompt = core::prompt_injection(fixture.store, fixture.scorer, "cache for dev boxes", {}, {}, settings);
    REQUIRE(prompt.memories.size() == 1);
    CHECK(prompt.memories.front().key == older_key);
    CHECK_THAT(prompt.context, Catch::Contains("Builds cache the node modules.\n" + note));

    // A newer memory superseded since, or forgotten, no longer speaks for it.
    fixture.store.update(newer_key, [](core::Memory &memory) { memory.superseded_by = "nd22ccc"; });
    CHECK_THAT(core::prompt_injection(fixture.store, fixture.scorer, "cache for dev boxes", {}, {}, settings).context,
               !Catch::Contains("Changed in part since"));
    fixture.store.update(newer_key, [](core::Memory &memory) { memory.superseded_by.clear(); });
    (void)fixture.store.archive(newer_key, "forgotten");
    CHECK_THAT(core::session_start_injection(fixture.store, nullptr, {}, "x", {}, core::InjectionSettings{}).context,
               Catch::Contains("Builds cache the node modules.") && !Catch::Contains("Changed in part since"));
}

TEST_CASE("a general question is held to injection.question_relevance, a question about the user's setup is not",
          "[lifecycle][injection][prompt-kind]") {
    InjectionFixture fixture;
    const auto kafka = fixture.add(core::Scope::user(), core::Tier::short_term, "local kafka is redpanda on port 19092",
                                   "local kafka is redpanda on port 19092\n");
    core::InjectionSettings settings;
    settings.min_relevance = 1.0;
    settings.question_relevance = 3.0;
    // The scorer counts shared words: "kafka" and "ordering"... only "kafka" is shared.
    const auto general = core::prompt_injection(fixture.store, fixture.scorer,
                                                "how does kafka guarantee ordering", {}, {}, settings);
    CHECK(general.memories.empty());
    CHECK(general.threshold == 3.0);
    REQUIRE(general.best_below_threshold);
    CHECK(general.best_below_threshold->key == kafka);

    const auto own = core::prompt_injection(fixture.store, fixture.scorer, "how does our kafka guarantee ordering",
                                            {}, {}, settings);
    REQUIRE(own.memories.size() == 1);
    CHECK(own.threshold == 1.0);
    CHECK_FALSE(own.held_as_question);
    // 0 treats a general question as any prompt.
    settings.question_relevance = 0.0;
    CHECK(core::prompt_injection(fixture.store, fixture.scorer, "how does kafka guarantee ordering", {}, {}, settings)
              .memories.size() == 1);
}

TEST_CASE("a general question is held to injection.question_relevance by the policy's first pass, not by feedback",
          "[lifecycle][injection][prompt-kind]") {
    InjectionFixture fixture;
    const auto kafka = fixture.add(core::Scope::user(), core::Tier::short_term, "local kafka is redpanda on port 19092",
                                   "local kafka is redpanda on port 19092\n");
    const TwoPassScorer scorer;
    core::InjectionSettings settings;
    settings.min_relevance = 1.0;
    settings.question_relevance = 2.0;
    // One shared word: 1 in the first pass, 3 in the second, which alone would clear both thresholds.
    const auto general =
        core::prompt_injection(fixture.store, scorer, "how does kafka guarantee ordering", {}, {}, settings);
    CHECK(general.memories.empty());
    CHECK(general.held_as_question);
    CHECK(general.threshold == 2.0);
    REQUIRE(general.best_below_threshold);
    CHECK(general.best_below_threshold->key == kafka);
    CHECK(general.best_below_threshold->score == 1.0); // the first pass's score
    CHECK(scorer.first_passes == 1);

    // The same words as a task are not a general question, and take the second pass's score.
    const auto task = core::prompt_injection(fixture.store, scorer, "check kafka ordering", {}, {}, settings);
    REQUIRE(task.memories.size() == 1);
    CHECK(task.memories.front().score == 3.0);
    CHECK_FALSE(task.held_as_question);
    CHECK(scorer.first_passes == 1);

    // A question whose own words match well enough is answered as any prompt, with the full scores.
    const auto matching = core::prompt_injection(fixture.store, scorer, "how does local kafka redpanda guarantee ordering",
                                                 {}, {}, settings);
    REQUIRE(matching.memories.size() == 1);
    CHECK(matching.memories.front().score == 9.0);
    CHECK(matching.threshold == 1.0);
    CHECK_FALSE(matching.held_as_question);

    // Nothing at all in the first pass: held, with nothing to name.
    const auto unmatched = core::prompt_injection(fixture.store, scorer, "how does tcp slow start work", {}, {}, settings);
    CHECK(unmatched.held_as_question);
    CHECK_FALSE(unmatched.best_below_threshold);
}

TEST_CASE("each memory injected says why it was chosen: the prompt's words it shares, or being a standing one",
          "[lifecycle][injection][receipts]") {
    InjectionFixture fixture;
    const auto bun = fixture.add(core::Scope::user(), core::Tier::long_term, "use bun for javascript", "Use bun.");
    core::InjectionSettings settings;
    settings.min_relevance = 1.0;
    const auto at_prompt =
        core::prompt_injection(fixture.store, fixture.scorer, "how do I run javascript with bun", {}, {}, settings);
    REQUIRE(at_prompt.memories.size() == 1);
    CHECK(at_prompt.memories[0].key == bun);
    CHECK_THAT(at_prompt.memories[0].reason,
               Catch::StartsWith("relevant to the prompt (score ") && Catch::EndsWith("matched: javascript bun"));

    const auto at_start = core::session_start_injection(fixture.store, nullptr, {}, "x", {}, settings);
    REQUIRE(at_start.memories.size() == 1);
    CHECK(at_start.memories[0].reason == "standing memory: of type feedback");
}

TEST_CASE("a memory's reason names the prompt's words it says, in the prompt's order, each once, at most eight",
          "[lifecycle][injection][receipts]") {
    InjectionFixture fixture;
    // Words of the summary and of the body count alike, in any case; words of two letters and common
    // ones ("the", "with") say nothing about why.
    const auto memory = fixture.add(core::Scope::user(), core::Tier::long_term, "Alpha bravo charlie delta",
                                    "echo foxtrot golf hotel india juliet with the ok\n");
    core::InjectionSettings settings;
    settings.min_relevance = 1.0;
    const auto told = core::prompt_injection(
        fixture.store, fixture.scorer,
        "JULIET india, ok the with; zulu alpha juliet charlie echo foxtrot golf hotel bravo delta", {}, {}, settings);
    REQUIRE(told.memories.size() == 1);
    CHECK(told.memories[0].key == memory);
    CHECK_THAT(told.memories[0].reason,
               Catch::EndsWith("; matched: juliet india alpha charlie echo foxtrot golf hotel"));
}

TEST_CASE("what qualified but did not fit the budget is named as left out", "[lifecycle][injection][receipts]") {
    InjectionFixture fixture;
    for (int index = 0; index < 6; ++index) {
        fixture.add(core::Scope::user(), core::Tier::long_term, "deploy rule " + std::to_string(index),
                    std::string(400, 'x') + " deploy\n");
    }
    core::InjectionSettings settings;
    settings.budget_tokens = 200;
    settings.max_memories = 6;
    settings.min_relevance = 1.0;
    const auto at_prompt = core::prompt_injection(fixture.store, fixture.scorer, "deploy rule", {}, {}, settings);
    CHECK_FALSE(at_prompt.memories.empty());
    REQUIRE_FALSE(at_prompt.left_out.empty());
    CHECK(at_prompt.memories.size() + at_prompt.left_out.size() == 6);
    CHECK(at_prompt.left_out[0].reason == "relevant, but its text did not fit the budget");

    settings.budget_tokens = 40;
    const auto at_start = core::session_start_injection(fixture.store, nullptr, {}, "x", {}, settings);
    REQUIRE_FALSE(at_start.left_out.empty());
    CHECK(at_start.memories.size() + at_start.listed.size() + at_start.left_out.size() == 6);
    CHECK_THAT(at_start.left_out[0].reason, Catch::Contains("not even its line fit the budget"));
    CHECK(at_start.more_left_out == 0);
}

TEST_CASE("session start names the first twenty standing memories it leaves out and counts the rest",
          "[lifecycle][injection][receipts]") {
    InjectionFixture fixture;
    for (int index = 0; index < 60; ++index) {
        fixture.add(core::Scope::user(), core::Tier::long_term, "standing rule number " + std::to_string(index),
                    std::string(200, 'x') + "\n");
    }
    core::InjectionSettings settings;
    settings.budget_tokens = 60;
    const auto at_start = core::session_start_injection(fixture.store, nullptr, {}, "x", {}, settings);
    CHECK(at_start.left_out.size() == 20);
    CHECK(at_start.memories.size() + at_start.listed.size() + at_start.left_out.size() + at_start.more_left_out == 60);
    CHECK(at_start.more_left_out > 0);
}
