// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/session_log.hpp>

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using starling::core::LoggedMessage;
using starling::core::SessionLog;
using starling::core::SessionState;

TEST_CASE("each session has its own log, keyed by the agent's session id", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-log"};
    SessionLog first{directory.path(), "sess-1"};
    SessionLog second{directory.path(), "sess-2"};
    CHECK(first.append({{}, "one", "/p", "claude-code"}) == 1);
    CHECK(first.append({{}, "two", "/p", "claude-code"}) == 2);
    CHECK(second.append({{}, "other", "/q", "cursor"}) == 1);
    CHECK(first.log_path().filename() == "sess-1.jsonl");
    REQUIRE(first.messages().size() == 2);
    CHECK(first.messages()[1].text == "two");
    CHECK(second.messages().front().agent == "cursor");
}

TEST_CASE("session ids that are not plain file names map to distinct, safe names", "[lifecycle][session-log]") {
    const auto a = SessionLog::file_stem("../../etc/passwd");
    const auto b = SessionLog::file_stem("../../etc/passwd2");
    CHECK(a.find('/') == std::string::npos);
    CHECK(a != b);
    CHECK(SessionLog::file_stem("") != SessionLog::file_stem("~"));
    CHECK(SessionLog::file_stem("a b") != SessionLog::file_stem("a_b"));
}

TEST_CASE("a torn last line is skipped, not a crash", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-torn"};
    SessionLog log{directory.path(), "s"};
    log.append({{}, "whole", "", ""});
    std::ofstream(log.log_path(), std::ios::app) << R"({"ts":"2026-11-22T09:00:00Z","role":"user","mess)";
    REQUIRE(log.messages().size() == 1);
    CHECK(log.messages().front().text == "whole");
}

TEST_CASE("session state survives between processes and starts empty", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-state"};
    SessionLog log{directory.path(), "s"};
    CHECK(log.state().evaluated == 0);
    log.append({{}, "m", "", ""});
    CHECK(log.take_unjudged_messages().size() == 1);
    CHECK(log.take_unjudged_messages().empty());
    log.update_state([](SessionState &state) {
        state.injected.push_back("memory/user/long/a.md");
        state.pending_context = "later";
    });
    const SessionLog again{directory.path(), "s"};
    CHECK(again.state().evaluated == 1);
    CHECK(again.state().injected == std::vector<std::string>{"memory/user/long/a.md"});
    CHECK(again.state().pending_context == "later");
}
