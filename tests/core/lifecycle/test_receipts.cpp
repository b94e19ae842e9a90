// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/receipts.hpp>

#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/lifecycle/session_log.hpp>
#include <starling/core/redaction/redaction.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using starling::core::DecisionReceipt;
using starling::core::InjectionReceipt;
using starling::core::ReceiptLog;
using starling::core::ReceiptMemory;
using starling::test::at;

namespace {

InjectionReceipt prompt_receipt(std::size_t message) {
    InjectionReceipt receipt;
    receipt.time = at("2026-11-22T10:00:00Z") + std::chrono::minutes{message};
    receipt.event = "prompt";
    receipt.session = "s-1";
    receipt.agent = "claude-code";
    receipt.project = "app-1234";
    receipt.message = message;
    receipt.budget_tokens = 1500;
    receipt.tokens = 80;
    receipt.threshold = 0.28;
    receipt.injected = {ReceiptMemory{"memory/user/short/2026-11-22_pnpm.md", 0.61, 80,
                                      "relevant to the prompt (score 0.61); matched: pnpm"}};
    receipt.left_out = {ReceiptMemory{"memory/user/short/2026-11-22_yarn.md", 0.4, 0,
                                      "relevant, but its text did not fit the budget"}};
    return receipt;
}

const auto &redactor() { return *starling::core::builtin_redactor(); }

} // namespace

TEST_CASE("a session's receipts read back as written, beside its log", "[lifecycle][receipts]") {
    starling::test::TempDir sessions{"receipts"};
    const ReceiptLog log{sessions.path(), "s-1", redactor()};
    InjectionReceipt start;
    start.time = at("2026-11-22T09:59:00Z");
    start.event = "session-start";
    start.session = "s-1";
    start.agent = "claude-code";
    start.budget_tokens = 1500;
    start.tokens = 40;
    start.injected = {ReceiptMemory{"memory/user/long/2026-11-20_english.md", 1.0, 40, "standing memory: pinned"}};
    start.listed = {"memory/user/long/2026-11-21_tabs.md"};
    start.more_left_out = 4321;
    log.append(start);
    log.append(prompt_receipt(0));
    log.append(DecisionReceipt{at("2026-11-22T10:05:00Z"), 0, "created", "memory/user/short/2026-11-22_pnpm.md",
                               "feedback, user", "a stated preference"});

    CHECK(log.path() == sessions.path() / "s-1.receipts.jsonl");
    const auto receipts = log.read();
    REQUIRE(receipts.injections.size() == 2);
    CHECK(receipts.injections[0] == start);
    CHECK(receipts.injections[1] == prompt_receipt(0));
    REQUIRE(receipts.decisions.size() == 1);
    CHECK(receipts.decisions[0].action == "created");
    CHECK(receipts.dropped == 0);
}

TEST_CASE("receipts are bounded: past the size limit only the newest of each kind are kept, the rest counted",
          "[lifecycle][receipts]") {
    starling::test::TempDir sessions{"receipts-bound"};
    const ReceiptLog log{sessions.path(), "s-1", redactor(), {.max_receipts = 5, .prune_bytes = 4096}};
    for (std::size_t message = 0; message < 40; ++message) {
        log.append(prompt_receipt(message));
    }
    CHECK(fs::file_size(log.path()) < 8192);
    const auto receipts = log.read();
    REQUIRE(receipts.injections.size() == 5);
    CHECK(receipts.injections.back().message == 39u);
    CHECK(receipts.injections.front().message == 35u);
    CHECK(receipts.dropped == 35);
}

TEST_CASE("a torn receipt is skipped and the next one is whole", "[lifecycle][receipts]") {
    starling::test::TempDir sessions{"receipts-torn"};
    const ReceiptLog log{sessions.path(), "s-1", redactor()};
    log.append(prompt_receipt(0));
    std::ofstream(log.path(), std::ios::app) << R"({"receipt":"injection","at":"2026-11-22T10:0)";
    log.append(prompt_receipt(2));
    const auto receipts = log.read();
    REQUIRE(receipts.injections.size() == 2);
    CHECK(receipts.injections[1].message == 2u);
}

TEST_CASE("receipts from several writers at once are all kept", "[lifecycle][receipts][concurrency]") {
    starling::test::TempDir sessions{"receipts-concurrent"};
    std::vector<std::thread> writers;
    for (std::size_t thread = 0; thread < 3; ++thread) {
        writers.emplace_back([&sessions, thread] {
            const ReceiptLog log{sessions.path(), "s-1", redactor()};
            for (std::size_t index = 0; index < 20; ++index) {
                log.append(prompt_receipt(thread * 100 + index));
            }
        });
    }
    for (auto &writer : writers) {
        writer.join();
    }
    CHECK(ReceiptLog{sessions.path(), "s-1", redactor()}.read().injections.size() == 60);
}

TEST_CASE("a secret in a decision's reason never reaches the receipts", "[lifecycle][receipts][redaction]") {
    starling::test::TempDir sessions{"receipts-secret"};
    const ReceiptLog log{sessions.path(), "s-1", redactor()};
    const std::string secret = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB";
    log.append(DecisionReceipt{at("2026-11-22T10:05:00Z"), 0, "created", "memory/user/short/x.md", "reference, user",
                               "the CI token is " + secret});
    std::ifstream in(log.path());
    const std::string written{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    CHECK(written.find(secret) == std::string::npos);
    CHECK(written.find("the CI token is") != std::string::npos);
}

TEST_CASE("the recent sessions are listed newest first with their counts", "[lifecycle][receipts]") {
    starling::test::TempDir sessions{"receipts-sessions"};
    starling::core::SessionLog older{sessions.path(), "s-old"};
    older.append({at("2026-11-20T10:00:00Z"), "an old prompt", "/work/app", "codex"});
    starling::core::SessionLog newer{sessions.path(), "s-new"};
    newer.append({at("2026-11-22T10:00:00Z"), "first", "/work/app", "claude-code"});
    newer.append({at("2026-11-22T10:01:00Z"), "second", "/work/app", "claude-code"});
    ReceiptLog{sessions.path(), "s-new", redactor()}.append(prompt_receipt(1));
    // A session that only started: receipts, no prompt.
    InjectionReceipt start;
    start.time = at("2026-11-21T10:00:00Z");
    start.event = "session-start";
    start.session = "s-started";
    start.agent = "cursor";
    ReceiptLog{sessions.path(), "s-started", redactor()}.append(start);

    const auto recent = starling::core::recent_sessions(sessions.path(), 10);
    REQUIRE(recent.size() == 3);
    CHECK(recent[0].stem == "s-new");
    CHECK(recent[0].agent == "claude-code");
    CHECK(recent[0].prompts == 2);
    CHECK(recent[0].receipts == 1);
    CHECK(recent[0].project == "app-1234");
    CHECK(recent[1].stem == "s-started");
    CHECK(recent[1].agent == "cursor");
    CHECK(recent[1].prompts == 0);
    CHECK(recent[2].stem == "s-old");
    CHECK(starling::core::recent_sessions(sessions.path(), 1).size() == 1);

    CHECK(starling::core::find_session_stem(sessions.path(), "s-new") == "s-new");
    CHECK_FALSE(starling::core::find_session_stem(sessions.path(), "s-unknown"));
    CHECK_FALSE(starling::core::find_session_stem(sessions.path(), "../s-new"));
}
