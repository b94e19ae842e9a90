// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/session_log.hpp>

#include "support/finished_process.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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

namespace {

const std::chrono::sys_seconds kNow{std::chrono::seconds{1'800'000'000}};
constexpr std::chrono::seconds kLease{600};

} // namespace

TEST_CASE("a torn last line is skipped, not a crash", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-torn"};
    SessionLog log{directory.path(), "s"};
    log.append({{}, "whole", "", ""});
    std::ofstream(log.log_path(), std::ios::app) << R"({"ts":"2026-11-22T09:00:00Z","role":"user","mess)";
    REQUIRE(log.messages().size() == 1);
    CHECK(log.messages().front().text == "whole");
}

TEST_CASE("a message appended after a torn line starts a line of its own and is not lost", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-torn-next"};
    SessionLog log{directory.path(), "s"};
    log.append({{}, "first", "", ""});
    // A prompt hook killed halfway through its append (or a full disk) leaves a line without its end.
    std::ofstream(log.log_path(), std::ios::app) << R"({"ts":"2026-11-22T09:00:00Z","role":"user","message":"tor)";
    log.append({{}, "the next prompt", "", ""});
    const auto messages = log.messages();
    REQUIRE(messages.size() == 2);
    CHECK(messages[0].text == "first");
    CHECK(messages[1].text == "the next prompt");
    // Appending again after a whole line adds no empty line.
    log.append({{}, "third", "", ""});
    std::ifstream file(log.log_path());
    const std::string content{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    CHECK(content.find("\n\n") == std::string::npos);
    CHECK(log.messages().size() == 3);
}

TEST_CASE("session state survives between processes and starts empty", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-state"};
    SessionLog log{directory.path(), "s"};
    CHECK(log.state().evaluated == 0);
    log.append({{}, "m", "", ""});
    const auto claimed = log.claim_unjudged_messages(kNow, kLease);
    CHECK(claimed.messages.size() == 1);
    log.mark_judged_before(claimed.first + 1);
    CHECK(log.claim_unjudged_messages(kNow, kLease).messages.empty());
    log.update_state([](SessionState &state) {
        state.injected.push_back("memory/user/long/a.md");
        state.pending_context = "later";
    });
    const SessionLog again{directory.path(), "s"};
    CHECK(again.state().evaluated == 1);
    CHECK(again.state().injected == std::vector<std::string>{"memory/user/long/a.md"});
    CHECK(again.state().pending_context == "later");
}

namespace {

std::uintmax_t inode_of(const std::filesystem::path &file) {
    struct stat status {};
    REQUIRE(::stat(file.c_str(), &status) == 0);
    return status.st_ino;
}

std::string text_of(const std::filesystem::path &file) {
    std::ifstream in{file, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, {}};
}

} // namespace

TEST_CASE("session state is a journal of changes: one appended line each, never a new file",
          "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-state-journal"};
    SessionLog log{directory.path(), "s"};
    const auto journal = directory.path() / "s.state.jsonl";
    log.update_state([](SessionState &state) { state.injected.push_back("memory/user/long/a.md"); });
    const auto inode = inode_of(journal);
    log.update_state([](SessionState &state) {
        state.injected.push_back("memory/user/long/b.md");
        state.pending_context = "later";
    });
    log.update_state([](SessionState &) {}); // no change, no line
    log.update_state([](SessionState &state) { state.pending_context.clear(); });
    CHECK(inode_of(journal) == inode);
    CHECK(text_of(journal) == "{\"injected\":[\"memory/user/long/a.md\"]}\n"
                              "{\"injected\":[\"memory/user/long/b.md\"],\"pending_context\":\"later\"}\n"
                              "{\"pending_context\":\"\"}\n");
    CHECK(log.state().injected == std::vector<std::string>{"memory/user/long/a.md", "memory/user/long/b.md"});
    CHECK(log.state().pending_context.empty());

    // A change that is not only additions replaces the list.
    log.update_state([](SessionState &state) { state.injected.erase(state.injected.begin()); });
    CHECK(log.state().injected == std::vector<std::string>{"memory/user/long/b.md"});
    log.update_state([](SessionState &state) { state.injected.clear(); });
    CHECK(log.state().injected.empty());
}

TEST_CASE("a state line cut short by a killed writer is skipped, and the next change starts a line of its own",
          "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-state-torn"};
    SessionLog log{directory.path(), "s"};
    log.update_state([](SessionState &state) { state.injected.push_back("memory/user/long/a.md"); });
    std::ofstream(directory.path() / "s.state.jsonl", std::ios::app) << R"({"injected":["memory/user/lo)";
    CHECK(log.state().injected == std::vector<std::string>{"memory/user/long/a.md"});
    log.update_state([](SessionState &state) { state.injected.push_back("memory/user/long/c.md"); });
    CHECK(log.state().injected == std::vector<std::string>{"memory/user/long/a.md", "memory/user/long/c.md"});
}

TEST_CASE("the whole-file state of earlier versions carries over into the journal", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-state-legacy"};
    std::ofstream(directory.path() / "s.state.json")
        << R"({"evaluated":3,"injected":["memory/user/long/a.md"],"pending_context":"later"})" << '\n';
    SessionLog log{directory.path(), "s"};
    CHECK(log.state().evaluated == 3);
    CHECK(log.state().injected == std::vector<std::string>{"memory/user/long/a.md"});
    log.update_state([](SessionState &state) { state.injected.push_back("memory/user/long/b.md"); });
    const SessionLog again{directory.path(), "s"};
    CHECK(again.state().evaluated == 3);
    CHECK(again.state().injected == std::vector<std::string>{"memory/user/long/a.md", "memory/user/long/b.md"});
    CHECK(again.state().pending_context == "later");
}

TEST_CASE("a problem is reported once per session, whichever process asks", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-log-reports"};
    SessionLog first_hook{directory.path(), "sess-1"};
    CHECK(first_hook.first_report_of("configuration unusable"));
    CHECK_FALSE(first_hook.first_report_of("configuration unusable"));
    SessionLog later_hook{directory.path(), "sess-1"};
    CHECK_FALSE(later_hook.first_report_of("configuration unusable"));
    CHECK(later_hook.first_report_of("another problem"));
    CHECK(later_hook.state().warned == std::vector<std::string>{"configuration unusable", "another problem"});
    SessionLog other_session{directory.path(), "sess-2"};
    CHECK(other_session.first_report_of("configuration unusable"));
}

TEST_CASE("messages are claimed, not marked judged, until their outcome is written", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-claims"};
    SessionLog log{directory.path(), "s"};
    for (const char *text : {"one", "two", "three"}) {
        log.append({{}, text, "", ""});
    }
    const auto claimed = log.claim_unjudged_messages(kNow, kLease);
    REQUIRE(claimed.messages.size() == 3);
    CHECK(claimed.first == 0);
    CHECK(SessionLog::sessions_with_claims(directory.path()) == std::vector<std::string>{"s"});
    // Another hook of the session while this process judges: nothing to hand out.
    CHECK(SessionLog{directory.path(), "s"}.claim_unjudged_messages(kNow, kLease).messages.empty());
    log.mark_judged_before(1);
    CHECK(log.state().evaluated == 1);
    REQUIRE(log.state().claim.has_value());
    // Given up halfway (the policy failed): the rest is handed out again.
    log.release_claim();
    CHECK_FALSE(log.state().claim.has_value());
    CHECK(SessionLog::sessions_with_claims(directory.path()).empty());
    const auto retried = log.claim_unjudged_messages(kNow, kLease);
    REQUIRE(retried.messages.size() == 2);
    CHECK(retried.first == 1);
    CHECK(retried.messages.front().text == "two");
    log.mark_judged_before(3);
    CHECK_FALSE(log.state().claim.has_value());
    CHECK(SessionLog::sessions_with_claims(directory.path()).empty());
}

TEST_CASE("a claim whose judge died, or that outlived its lease, is taken over", "[lifecycle][session-log]") {
    starling::test::TempDir directory{"session-claims-dead"};
    SessionLog log{directory.path(), "s"};
    log.append({{}, "one", "", ""});
    log.append({{}, "two", "", ""});
    REQUIRE(log.claim_unjudged_messages(kNow, kLease).messages.size() == 2);
    log.mark_judged_before(1);
    // The judge is killed: its claim now names a process that is gone.
    log.update_state([](SessionState &state) { state.claim->pid = starling::test::finished_process(); });
    CHECK(SessionLog::sessions_with_claims(directory.path()) == std::vector<std::string>{"s"});
    const auto taken_over = SessionLog{directory.path(), "s"}.claim_unjudged_messages(kNow, kLease);
    REQUIRE(taken_over.messages.size() == 1);
    CHECK(taken_over.messages.front().text == "two");
    // A live claim older than the lease is taken over too.
    CHECK(log.claim_unjudged_messages(kNow + kLease, kLease).messages.size() == 1);
}
