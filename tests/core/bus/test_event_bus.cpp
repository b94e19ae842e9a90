// SPDX-License-Identifier: Apache-2.0
#include <starling/core/bus/event_bus.hpp>

#include <catch2/catch.hpp>

#include "support/quiet_logger.hpp"

#include <stdexcept>
#include <string>
#include <vector>

using starling::core::EventBus;
using starling::core::EventKind;
using starling::core::ReplyBuilder;
using starling::core::Subscriber;

using starling::test::quiet_logger;

namespace {

starling::core::Event event_of(EventKind kind) {
    starling::core::Event event;
    event.kind = kind;
    event.agent = "claude-code";
    event.session_id = "s-1";
    return event;
}

} // namespace

TEST_CASE("subscribers run in order, ties in subscription order", "[bus]") {
    EventBus bus{quiet_logger()};
    std::vector<std::string> calls;
    auto recorder = [&calls](std::string name) {
        return [&calls, name](const starling::core::Event &, ReplyBuilder &reply) {
            calls.push_back(name);
            reply.add_context(name);
        };
    };
    bus.subscribe({"late", 20, {}, recorder("late")});
    bus.subscribe({"early", -5, {}, recorder("early")});
    bus.subscribe({"middle-a", 10, {}, recorder("middle-a")});
    bus.subscribe({"middle-b", 10, {}, recorder("middle-b")});

    const auto dispatch = bus.publish(event_of(EventKind::prompt_submitted));
    CHECK(calls == std::vector<std::string>{"early", "middle-a", "middle-b", "late"});
    CHECK(dispatch.reply.context == "early\n\nmiddle-a\n\nmiddle-b\n\nlate");
    CHECK(dispatch.failures.empty());
    CHECK(bus.subscriber_names() == std::vector<std::string>{"early", "middle-a", "middle-b", "late"});
}

TEST_CASE("a subscriber only sees the events it asked for", "[bus]") {
    EventBus bus{quiet_logger()};
    int prompts = 0;
    int everything = 0;
    bus.subscribe({"prompts", 0, {EventKind::prompt_submitted}, [&](const auto &, auto &) { ++prompts; }});
    bus.subscribe({"all", 0, {}, [&](const auto &, auto &) { ++everything; }});
    (void)bus.publish(event_of(EventKind::prompt_submitted));
    (void)bus.publish(event_of(EventKind::session_started));
    (void)bus.publish(event_of(EventKind::tool_used));
    CHECK(prompts == 1);
    CHECK(everything == 3);
}

TEST_CASE("a failing subscriber is reported, contributes nothing, and the others still run", "[bus]") {
    EventBus bus{quiet_logger()};
    bus.subscribe({"first", 0, {}, [](const auto &, ReplyBuilder &reply) { reply.add_context("from first"); }});
    bus.subscribe({"broken", 1, {}, [](const auto &, ReplyBuilder &reply) {
                       reply.add_context("half-written context that must not leak");
                       reply.block("a block from a failed subscriber must not count");
                       throw std::runtime_error("store unavailable");
                   }});
    bus.subscribe({"strange", 2, {}, [](const auto &, ReplyBuilder &) { throw 42; }});
    bus.subscribe({"last", 3, {}, [](const auto &, ReplyBuilder &reply) { reply.add_user_message("from last"); }});

    const auto dispatch = bus.publish(event_of(EventKind::session_started));
    CHECK(dispatch.reply.context == "from first");
    CHECK(dispatch.reply.user_message == "from last");
    CHECK_FALSE(dispatch.reply.block_reason.has_value());
    REQUIRE(dispatch.failures.size() == 2);
    CHECK(dispatch.failures[0].subscriber == "broken");
    CHECK(dispatch.failures[0].message == "store unavailable");
    CHECK(dispatch.failures[1].subscriber == "strange");
    CHECK(dispatch.failures[1].message == "unknown exception");
}

TEST_CASE("the first block wins and empty paragraphs are dropped", "[bus]") {
    EventBus bus{quiet_logger()};
    bus.subscribe({"guard", 0, {}, [](const auto &, ReplyBuilder &reply) {
                       reply.add_context("");
                       reply.block("secret in prompt");
                   }});
    bus.subscribe({"second-guard", 1, {}, [](const auto &, ReplyBuilder &reply) { reply.block("other"); }});
    const auto dispatch = bus.publish(event_of(EventKind::prompt_submitted));
    REQUIRE(dispatch.reply.block_reason.has_value());
    CHECK(*dispatch.reply.block_reason == "secret in prompt");
    CHECK(dispatch.reply.context.empty());
}

TEST_CASE("a subscriber without a handler is refused", "[bus]") {
    EventBus bus{quiet_logger()};
    CHECK_THROWS_AS(bus.subscribe({"empty", 0, {}, {}}), std::invalid_argument);
}

TEST_CASE("the after-reply stage runs after the reply stage and adds nothing to the reply", "[bus]") {
    EventBus bus{quiet_logger()};
    std::vector<std::string> calls;
    bus.subscribe({"consolidation", 50, {EventKind::session_started},
                   [&](const auto &, ReplyBuilder &reply) {
                       calls.push_back("consolidation");
                       reply.add_context("too late to be seen");
                       reply.block("too late to block");
                   },
                   starling::core::Stage::after_reply});
    bus.subscribe({"injection", 90, {}, [&](const auto &, ReplyBuilder &reply) {
                       calls.push_back("injection");
                       reply.add_context("memories");
                   }});
    const auto session_start = event_of(EventKind::session_started);
    CHECK(bus.has_subscribers(session_start, starling::core::Stage::after_reply));
    CHECK_FALSE(bus.has_subscribers(event_of(EventKind::prompt_submitted), starling::core::Stage::after_reply));

    const auto reply_stage = bus.publish(session_start, starling::core::Stage::reply);
    CHECK(calls == std::vector<std::string>{"injection"});
    CHECK(reply_stage.reply.context == "memories");

    calls.clear();
    const auto after_reply = bus.publish(session_start, starling::core::Stage::after_reply);
    CHECK(calls == std::vector<std::string>{"consolidation"});
    CHECK(after_reply.reply.context.empty());
    CHECK_FALSE(after_reply.reply.block_reason.has_value());

    calls.clear();
    const auto both = bus.publish(session_start);
    CHECK(calls == std::vector<std::string>{"injection", "consolidation"}); // by stage, then by order
    CHECK(both.reply.context == "memories");
    CHECK_FALSE(both.reply.block_reason.has_value());
}

TEST_CASE("a failure in the after-reply stage is reported like any other", "[bus]") {
    EventBus bus{quiet_logger()};
    bus.subscribe({"consolidation", 50, {}, [](const auto &, ReplyBuilder &) { throw std::runtime_error("disk full"); },
                   starling::core::Stage::after_reply});
    const auto dispatch = bus.publish(event_of(EventKind::turn_stopped));
    REQUIRE(dispatch.failures.size() == 1);
    CHECK(dispatch.failures[0].subscriber == "consolidation");
    CHECK(dispatch.failures[0].message == "disk full");
}

TEST_CASE("a subscriber that wants only some events of its kinds neither runs nor counts for the others", "[bus]") {
    EventBus bus{quiet_logger()};
    bool wanted = false;
    int runs = 0;
    bus.subscribe({"sometimes", 10, {EventKind::prompt_submitted},
                   [&runs](const starling::core::Event &, ReplyBuilder &) { ++runs; },
                   starling::core::Stage::after_reply,
                   [&wanted](const starling::core::Event &) { return wanted; }});
    const auto prompt = event_of(EventKind::prompt_submitted);
    CHECK_FALSE(bus.has_subscribers(prompt, starling::core::Stage::after_reply));
    static_cast<void>(bus.publish(prompt, starling::core::Stage::after_reply));
    CHECK(runs == 0);

    wanted = true;
    CHECK(bus.has_subscribers(prompt, starling::core::Stage::after_reply));
    CHECK_FALSE(bus.has_subscribers(event_of(EventKind::turn_stopped), starling::core::Stage::after_reply));
    static_cast<void>(bus.publish(prompt, starling::core::Stage::after_reply));
    CHECK(runs == 1);
}
