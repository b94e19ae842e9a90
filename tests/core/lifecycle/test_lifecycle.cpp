// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/clock.hpp>
#include <starling/core/lifecycle/lifecycle.hpp>
#include <starling/core/lifecycle/receipts.hpp>
#include <starling/core/lifecycle/session_log.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/store/memory_store.hpp>

#include "support/fake_policies.hpp"
#include "support/finished_process.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using namespace starling;

namespace {

struct LifecycleFixture {
    explicit LifecycleFixture(core::LifecycleSettings settings = {}) : lifecycle_settings(settings) {
        lifecycle.subscribe(bus);
    }

    test::TempDir directory{"lifecycle"};
    core::FixedClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};
    core::MemoryStore store{directory.path(), clock};
    core::Logger logger{{}, core::LogLevel::error, false};
    test::PrefixDecider decider;
    test::WordOverlapScorer scorer;
    test::ScriptedPlanner planner;
    core::LifecycleSettings lifecycle_settings;
    core::Lifecycle lifecycle{store, core::ActivePolicies{&decider, &planner, &scorer}, lifecycle_settings, logger};
    core::EventBus bus{logger};

    core::Event event(core::EventKind kind, std::string session = "s-1") {
        core::Event event;
        event.kind = kind;
        event.agent = "claude-code";
        event.session_id = std::move(session);
        event.working_directory = "/work/app";
        event.project = store.resolve_project("/work/app");
        return event;
    }
    /// A standing memory (feedback) in the user's short-term tier: a session start shows it.
    std::string deploy_rule() {
        core::Memory memory;
        memory.type = "feedback";
        memory.summary = "deploy only on tuesdays";
        memory.body = "Deploys happen on Tuesdays.\n";
        return store.create(core::Scope::user(), core::Tier::short_term, memory);
    }
    core::Event prompt(std::string text, std::string session = "s-1") {
        auto submitted = event(core::EventKind::prompt_submitted, std::move(session));
        submitted.prompt = std::move(text);
        return submitted;
    }
    /// Publishes `event` as a hook does: the reply, then what records it.
    core::Dispatch publish(const core::Event &event) {
        auto dispatch = bus.publish(event);
        lifecycle.write_reply_records();
        return dispatch;
    }
};

} // namespace

TEST_CASE("prompts reported after the turn are logged as prompts are, once", "[lifecycle][capture]") {
    LifecycleFixture fixture;
    static_cast<void>(fixture.publish(fixture.prompt("always run the linter first")));
    auto stopped = fixture.event(core::EventKind::turn_stopped);
    stopped.turn_prompts = {"always run the linter first", "never push on fridays ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"};
    static_cast<void>(fixture.publish(stopped));
    static_cast<void>(fixture.publish(stopped));
    const core::SessionLog log{fixture.directory.path() / "sessions", "s-1"};
    const auto messages = log.messages();
    REQUIRE(messages.size() == 2);
    CHECK(messages[0].text == "always run the linter first");
    CHECK_THAT(messages[1].text, Catch::StartsWith("never push on fridays") && !Catch::Contains("ghp_"));
}

TEST_CASE("every prompt is logged redacted and every Nth asks the model to review", "[lifecycle][capture]") {
    core::LifecycleSettings settings;
    settings.review_every_messages = 3;
    LifecycleFixture fixture{settings};
    CHECK(fixture.publish(fixture.prompt("one")).reply.context.empty());
    CHECK(fixture.publish(fixture.prompt("two ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R")).reply.context.empty());
    const auto third = fixture.publish(fixture.prompt("three"));
    CHECK_THAT(third.reply.context, Catch::Contains("review 3 messages in") && Catch::Contains("s-1.jsonl"));
    const core::SessionLog log{fixture.directory.path() / "sessions", "s-1"};
    REQUIRE(log.messages().size() == 3);
    CHECK(log.messages()[1].text.find("ghp_") == std::string::npos);
}

TEST_CASE("messages are judged once at stop, however many hooks fire", "[lifecycle][capture]") {
    LifecycleFixture fixture;
    (void)fixture.publish(fixture.prompt("remember: always squash merge"));
    (void)fixture.publish(fixture.prompt("fix this test"));
    (void)fixture.publish(fixture.event(core::EventKind::context_compacting));
    (void)fixture.publish(fixture.event(core::EventKind::turn_stopped));
    (void)fixture.publish(fixture.event(core::EventKind::session_ended));
    CHECK(fixture.decider.seen == std::vector<std::string>{"remember: always squash merge", "fix this test"});
    CHECK(fixture.store.list().size() == 1);
    (void)fixture.publish(fixture.prompt("remember: rebase before pushing"));
    (void)fixture.publish(fixture.event(core::EventKind::turn_stopped));
    CHECK(fixture.decider.seen.size() == 3);
    CHECK(fixture.store.list().size() == 2);
}

TEST_CASE("a read of a memory file reinforces it, whatever the tool is called", "[lifecycle][reinforcement]") {
    LifecycleFixture fixture;
    core::Memory memory;
    memory.type = "user";
    memory.summary = "leads the payments team";
    const auto key = fixture.store.create(core::Scope::user(), core::Tier::short_term, memory);
    for (const auto &[tool, intent] : std::vector<std::pair<std::string, core::ToolIntent>>{
             {"Read", core::ToolIntent::read}, {"read", core::ToolIntent::read}, {"Grep", core::ToolIntent::search}}) {
        auto used = fixture.event(core::EventKind::tool_used, "s-" + tool);
        used.tool = core::ToolUse{tool, intent, fixture.store.path_of(key).string()};
        (void)fixture.publish(used);
    }
    // The hook only notes the uses; the next stop folds them into the file.
    CHECK(fixture.store.read(key).access_count == 1);
    (void)fixture.publish(fixture.event(core::EventKind::turn_stopped, "s-Read"));
    const auto bumped = fixture.store.read(key);
    CHECK(bumped.access_count == 3); // written once, read by Read and read; Grep is not a read
    CHECK(bumped.sessions == std::vector<std::string>{"s-Read", "s-read"});

    auto outside = fixture.event(core::EventKind::tool_used);
    outside.tool = core::ToolUse{"Read", core::ToolIntent::read, "/etc/hosts"};
    CHECK(fixture.publish(outside).failures.empty());
    CHECK(core::memory_key_for_path(fixture.store, "/etc/hosts", "/") .empty());
    CHECK(core::memory_key_for_path(fixture.store, (fixture.directory.path() / "memory/user/INDEX.md").string(), "")
              .empty());
}

TEST_CASE("injection at prompt never repeats a memory within a session", "[lifecycle][injection]") {
    LifecycleFixture fixture;
    core::Memory memory;
    memory.type = "feedback";
    memory.summary = "deploy only on tuesdays";
    memory.body = "Deploys happen on Tuesdays.\n";
    const auto key = fixture.store.create(core::Scope::user(), core::Tier::long_term, memory);
    const auto first = fixture.publish(fixture.prompt("when do we deploy"));
    CHECK_THAT(first.reply.context, Catch::Contains("Deploys happen on Tuesdays."));
    const auto second = fixture.publish(fixture.prompt("deploy again?"));
    CHECK(second.reply.context.find("Tuesdays") == std::string::npos);
    const auto other_session = fixture.publish(fixture.prompt("deploy", "s-2"));
    CHECK_THAT(other_session.reply.context, Catch::Contains("Tuesdays"));
    (void)fixture.publish(fixture.event(core::EventKind::session_ended, "s-2"));
    // Injected into two sessions: counted as injections, not as uses (writing it was the one use).
    const auto after = fixture.store.read(key);
    CHECK(after.access_count == 1);
    CHECK(core::injection_count(after) == 2);
}

TEST_CASE("what the user said in a session is not echoed back to it as a memory, and reaches every other session",
          "[lifecycle][injection][capture]") {
    LifecycleFixture fixture;
    const core::SessionLog log{fixture.directory.path() / "sessions", "s-1"};
    (void)fixture.publish(fixture.prompt("remember: deploy only on tuesdays"));
    (void)fixture.publish(fixture.event(core::EventKind::turn_stopped));
    REQUIRE(fixture.store.list().size() == 1);
    const auto key = fixture.store.list().front().key;
    CHECK(log.state().injected == std::vector<std::string>{key});
    CHECK(fixture.publish(fixture.prompt("when do we deploy")).reply.context.empty());
    CHECK_THAT(fixture.publish(fixture.prompt("when do we deploy", "s-2")).reply.context,
               Catch::Contains("deploy only on tuesdays"));
    (void)fixture.publish(fixture.event(core::EventKind::session_ended, "s-2"));
    CHECK(core::injection_count(fixture.store.read(key)) == 1); // kept in s-1, injected in s-2 only

    SECTION("a compaction may have summarised the words away: the next prompt that needs it gets it") {
        (void)fixture.publish(fixture.event(core::EventKind::context_compacting));
        CHECK_THAT(fixture.publish(fixture.prompt("when do we deploy")).reply.context,
                   Catch::Contains("deploy only on tuesdays"));
    }
    SECTION("each memory kept from the session's words is in its context, once") {
        (void)fixture.publish(fixture.prompt("remember: deploy from the release branch"));
        (void)fixture.publish(fixture.event(core::EventKind::turn_stopped));
        (void)fixture.publish(fixture.event(core::EventKind::turn_stopped));
        REQUIRE(fixture.store.list().size() == 2);
        CHECK(log.state().injected.size() == 2);
        CHECK(fixture.publish(fixture.prompt("deploy now?")).reply.context.empty());
    }
}

TEST_CASE("a session start or a compaction begins a new context, in which what the session was given is given "
          "again",
          "[lifecycle][injection]") {
    LifecycleFixture fixture;
    const auto key = fixture.deploy_rule();
    const core::SessionLog log{fixture.directory.path() / "sessions", "s-1"};
    const auto started = fixture.publish(fixture.event(core::EventKind::session_started));
    CHECK_THAT(started.reply.context, Catch::Contains("Deploys happen on Tuesdays."));
    CHECK(fixture.publish(fixture.prompt("when do we deploy")).reply.context.empty()); // shown at the start

    SECTION("the session start an agent sends after compacting, in the same session") {
        const auto again = fixture.publish(fixture.event(core::EventKind::session_started));
        CHECK_THAT(again.reply.context, Catch::Contains("Deploys happen on Tuesdays."));
        CHECK(log.state().injected == std::vector<std::string>{key}); // replaced, not added twice
    }
    SECTION("a compaction with no session start after it: the next prompt that needs it gets it") {
        (void)fixture.publish(fixture.event(core::EventKind::context_compacting));
        CHECK(log.state().injected.empty());
        CHECK_THAT(fixture.publish(fixture.prompt("when do we deploy")).reply.context,
                   Catch::Contains("Deploys happen on Tuesdays."));
        CHECK(fixture.publish(fixture.prompt("deploy again?")).reply.context.empty());
    }
}

TEST_CASE("a subagent starts with what a session start gives, and the session's record stays the session's",
          "[lifecycle][injection]") {
    LifecycleFixture fixture;
    const auto key = fixture.deploy_rule();
    const core::SessionLog log{fixture.directory.path() / "sessions", "s-1"};
    (void)fixture.publish(fixture.event(core::EventKind::session_started));
    REQUIRE(log.state().injected == std::vector<std::string>{key});
    core::SessionLog{fixture.directory.path() / "sessions", "s-1"}.update_state(
        [](core::SessionState &state) { state.pending_context = "for the session's next channel"; });

    const auto subagent = fixture.publish(fixture.event(core::EventKind::subagent_started));
    CHECK_THAT(subagent.reply.context, Catch::Contains("Deploys happen on Tuesdays."));
    CHECK(subagent.reply.context.find("for the session's next channel") == std::string::npos);
    CHECK(log.state().injected == std::vector<std::string>{key});
    CHECK(log.state().pending_context == "for the session's next channel");
    const core::ReceiptLog receipts{fixture.directory.path() / "sessions", core::SessionLog::file_stem("s-1"),
                                    fixture.store.redactor()};
    const auto injections = receipts.read().injections;
    REQUIRE(injections.size() == 2);
    CHECK(injections.back().event == "subagent-start");

    SECTION("nothing for a subagent whose start has no channel to the model") {
        auto silent = fixture.event(core::EventKind::subagent_started);
        silent.context_channel = false;
        CHECK(fixture.publish(silent).reply.context.empty());
        CHECK(log.state().pending_context == "for the session's next channel");
    }
}

TEST_CASE("what a reply injected is recorded once the host has sent it, or when its lifecycle ends",
          "[lifecycle][injection]") {
    LifecycleFixture fixture;
    core::Memory memory;
    memory.type = "feedback";
    memory.summary = "deploy only on tuesdays";
    const auto key = fixture.store.create(core::Scope::user(), core::Tier::long_term, memory);
    const core::SessionLog log{fixture.directory.path() / "sessions", "s-1"};
    const core::ReceiptLog receipts{fixture.directory.path() / "sessions", core::SessionLog::file_stem("s-1"),
                                    fixture.store.redactor()};

    CHECK_THAT(fixture.bus.publish(fixture.prompt("when do we deploy")).reply.context, Catch::Contains("tuesdays"));
    CHECK(log.state().injected.empty());
    CHECK(receipts.read().injections.empty());

    fixture.lifecycle.write_reply_records();
    CHECK(log.state().injected == std::vector<std::string>{key});
    CHECK(receipts.read().injections.size() == 1);
    fixture.lifecycle.write_reply_records(); // written once
    CHECK(receipts.read().injections.size() == 1);
    (void)fixture.publish(fixture.event(core::EventKind::session_ended)); // folds the noted injection
    CHECK(core::injection_count(fixture.store.read(key)) == 1);

    SECTION("a lifecycle that ends writes what its host did not") {
        {
            core::Lifecycle lifecycle{fixture.store, core::ActivePolicies{&fixture.decider, &fixture.planner, &fixture.scorer},
                                      fixture.lifecycle_settings, fixture.logger};
            core::EventBus bus{fixture.logger};
            lifecycle.subscribe(bus);
            CHECK_THAT(bus.publish(fixture.prompt("deploy", "s-2")).reply.context, Catch::Contains("tuesdays"));
        }
        CHECK(core::SessionLog{fixture.directory.path() / "sessions", "s-2"}.state().injected ==
              std::vector<std::string>{key});
    }
}

TEST_CASE("context for an event without a channel waits for the next one that has it", "[lifecycle][injection]") {
    LifecycleFixture fixture;
    core::Memory memory;
    memory.type = "feedback";
    memory.summary = "lint before commit";
    memory.body = "Run the linter before every commit.\n";
    (void)fixture.store.create(core::Scope::user(), core::Tier::long_term, memory);
    auto submitted = fixture.prompt("should I commit now, lint?");
    submitted.context_channel = false;
    CHECK(fixture.publish(submitted).reply.context.empty());
    auto after_tool = fixture.event(core::EventKind::tool_used);
    after_tool.tool = core::ToolUse{"Shell", core::ToolIntent::shell, ""};

    SECTION("once") {
        const auto delivered = fixture.publish(after_tool);
        CHECK_THAT(delivered.reply.context, Catch::Contains("Run the linter before every commit."));
        CHECK(fixture.publish(after_tool).reply.context.empty());
    }
    SECTION("and context another event left waiting before this reply was recorded still waits") {
        CHECK_THAT(fixture.bus.publish(after_tool).reply.context, Catch::Contains("Run the linter"));
        core::SessionLog log{fixture.directory.path() / "sessions", "s-1"};
        log.update_state([](core::SessionState &state) { state.pending_context = "newer context"; });
        fixture.lifecycle.write_reply_records();
        CHECK(log.state().pending_context == "newer context");
    }
}

TEST_CASE("session start and stop run the decay plan", "[lifecycle][consolidation]") {
    LifecycleFixture fixture;
    core::Memory memory;
    memory.type = "feedback";
    memory.summary = "idle";
    const auto key = fixture.store.create(core::Scope::user(), core::Tier::short_term, memory);
    fixture.planner.actions = {{sdk::LifecycleAction::Kind::archive, key, "", "idle"}};
    (void)fixture.publish(fixture.event(core::EventKind::session_started));
    CHECK_FALSE(fixture.store.contains(key));
    CHECK(fixture.store.archived().size() == 1);
}

namespace {

/// Fails its first decision, as a policy that hits a bug on one batch would.
class FailsOnceDecider final : public core::DecisionMaker {
public:
    std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const override {
        if (!failed_) {
            failed_ = true;
            throw std::runtime_error("the policy failed");
        }
        return working_.decide(messages);
    }
    std::string review_request(const sdk::ReviewRequest &request) const override {
        return working_.review_request(request);
    }

private:
    test::PrefixDecider working_;
    mutable bool failed_ = false;
};

} // namespace

TEST_CASE("a message whose judging failed is judged again by the next stop, not lost", "[lifecycle][capture]") {
    LifecycleFixture fixture;
    FailsOnceDecider decider;
    core::Lifecycle lifecycle{fixture.store, core::ActivePolicies{&decider, &fixture.planner, &fixture.scorer},
                              core::LifecycleSettings{}, fixture.logger};
    core::EventBus bus{fixture.logger};
    lifecycle.subscribe(bus);
    (void)bus.publish(fixture.prompt("remember: tag releases with a v prefix"));
    (void)bus.publish(fixture.event(core::EventKind::turn_stopped));
    CHECK(fixture.store.list().empty());
    (void)bus.publish(fixture.event(core::EventKind::turn_stopped));
    REQUIRE(fixture.store.list().size() == 1);
    CHECK(fixture.store.list().front().summary == " tag releases with a v prefix");
}

TEST_CASE("messages a killed judge left are judged at the next stop of any session", "[lifecycle][capture]") {
    LifecycleFixture fixture;
    (void)fixture.publish(fixture.prompt("remember: never force-push to main", "killed"));
    (void)fixture.publish(fixture.prompt("remember: squash before merging", "killed"));
    core::SessionLog killed{fixture.directory.path() / "sessions", "killed"};
    const auto claimed = killed.claim_unjudged_messages(fixture.clock.now(), std::chrono::seconds{600});
    REQUIRE(claimed.messages.size() == 2);
    killed.update_state([](core::SessionState &state) { state.claim->pid = test::finished_process(); });
    CHECK(fixture.store.list().empty());

    (void)fixture.publish(fixture.event(core::EventKind::turn_stopped, "another-session"));
    CHECK(fixture.store.list().size() == 2);
    CHECK(killed.state().evaluated == 2);
    CHECK_FALSE(killed.state().claim.has_value());
    CHECK(core::SessionLog::sessions_with_claims(fixture.directory.path() / "sessions").empty());
}
