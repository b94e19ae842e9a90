// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/conflict_markers.hpp>
#include <starling/app/sharing/memory_merge.hpp>
#include <starling/app/sharing/outgoing_check.hpp>
#include <starling/app/sharing/sharing_error.hpp>
#include <starling/app/sharing/usage_ledger.hpp>
#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <catch2/catch.hpp>

using namespace starling;
namespace sharing = starling::app::sharing;

namespace {

constexpr const char *kLocal = "---\n"
                               "id: k3f9a2q\n"
                               "type: feedback\n"
                               "summary: Deploys go out on Tuesdays\n"
                               "created: 2026-11-20T09:00:00Z\n"
                               "last_accessed: 2026-11-22T09:00:00Z\n"
                               "access_count: 7\n"
                               "tags: [deploy, release]\n"
                               "sessions: [s-1, s-2]\n"
                               "injection_count: 4\n"
                               "uses_elsewhere: 2\n"
                               "salience: 0.8\n"
                               "---\n"
                               "Deploys go out on Tuesdays.\n";

std::string wire(const std::string &summary, const std::string &body, const std::string &tags = "[deploy]",
                 const std::string &tier = "short", const std::string &extra = "") {
    return "---\nid: k3f9a2q\ntype: feedback\nsummary: " + summary + "\ncreated: 2026-11-20T09:00:00Z\ntags: " + tags +
           "\n" + extra + "tier: " + tier + "\n---\n" + body;
}

} // namespace

TEST_CASE("the wire form of a memory says what it is, never how this machine used it", "[sharing][wire]") {
    const auto memory = core::parse_memory(kLocal, "local.md");
    const auto text = sharing::to_wire_text(memory, core::Tier::long_term);
    for (const char *local : {"access_count", "last_accessed", "sessions", "injection_count", "uses_elsewhere"}) {
        INFO(local);
        CHECK(text.find(local) == std::string::npos);
    }
    CHECK(text.find("salience: 0.8") != std::string::npos);
    CHECK(text.find("tier: long") != std::string::npos);
    CHECK(text.find("tags: [deploy, release]") != std::string::npos);

    const auto read = sharing::from_wire_text(text, "wire.md");
    CHECK(read.tier == core::Tier::long_term);
    CHECK(read.memory.summary == memory.summary);
    CHECK(read.memory.body == memory.body);
    CHECK(read.memory.extra_field("tier") == nullptr);
    // The same memory written on another machine, used differently, has the same wire text.
    auto elsewhere = memory;
    elsewhere.access_count = 1;
    elsewhere.sessions = {"other"};
    CHECK(sharing::to_wire_text(elsewhere, core::Tier::long_term) == text);
}

TEST_CASE("taking the wire's content keeps the local counters", "[sharing][wire]") {
    auto local = core::parse_memory(kLocal, "local.md");
    const auto incoming = sharing::from_wire_text(wire("Deploys go out on Wednesdays", "Wednesdays now.\n"), "wire.md");
    sharing::take_wire_content(local, incoming.memory);
    CHECK(local.summary == "Deploys go out on Wednesdays");
    CHECK(local.body == "Wednesdays now.\n");
    CHECK(local.access_count == 7);
    CHECK(local.sessions == std::vector<std::string>{"s-1", "s-2"});
    CHECK(sharing::uses_elsewhere(local) == 2);
    CHECK(local.extra_field("injection_count") != nullptr);
    CHECK(local.extra_field("salience") == nullptr); // the wire no longer has it
}

TEST_CASE("a wire text without a tier is refused, naming the file", "[sharing][wire]") {
    const std::string text = "---\nid: k3f9a2q\ntype: feedback\nsummary: s\ncreated: 2026-11-20T09:00:00Z\n---\nb\n";
    CHECK_THROWS_WITH(sharing::from_wire_text(text, "memories/user/k3f9a2q.md"),
                      Catch::Contains("memories/user/k3f9a2q.md") && Catch::Contains("tier"));
}

TEST_CASE("private memories are marked by their private field", "[sharing][wire]") {
    auto memory = core::parse_memory(kLocal, "local.md");
    CHECK_FALSE(sharing::is_private(memory));
    memory.set_extra_field("private", "true");
    CHECK(sharing::is_private(memory));
}

TEST_CASE("a memory changed on one side takes that side's change", "[sharing][merge]") {
    const auto base = wire("Deploys", "Tuesdays.\n");
    const auto summary_changed = wire("Deploys go out weekly", "Tuesdays.\n");
    const auto body_changed = wire("Deploys", "Tuesdays, after the freeze.\n");
    const auto merged = sharing::merge_wire_texts(base, summary_changed, body_changed, "m.md");
    CHECK(merged == wire("Deploys go out weekly", "Tuesdays, after the freeze.\n"));
    CHECK(sharing::merge_wire_texts(base, base, body_changed, "m.md") == body_changed);
}

TEST_CASE("a memory edited on both sides keeps both texts, the same whichever side merges", "[sharing][merge]") {
    const auto base = wire("Deploys", "Tuesdays.\n");
    const auto ours = wire("Deploys", "Tuesdays after the freeze.\n");
    const auto theirs = wire("Deploys", "Wednesdays now.\n");
    const auto merged = sharing::merge_wire_texts(base, ours, theirs, "m.md");
    CHECK(merged == sharing::merge_wire_texts(base, theirs, ours, "m.md"));
    CHECK(merged.find("Tuesdays after the freeze.") != std::string::npos);
    CHECK(merged.find("Wednesdays now.") != std::string::npos);
    CHECK(merged.find(sharing::concurrent_edit_marker) != std::string::npos);
    CHECK(merged.find("<<<<<<<") == std::string::npos);

    const auto both_summaries = sharing::merge_wire_texts(base, wire("Deploys weekly", "Tuesdays.\n"),
                                                          wire("Deploys on Wednesdays", "Tuesdays.\n"), "m.md");
    CHECK(both_summaries.find("summary: Deploys on Wednesdays") != std::string::npos);
    CHECK(both_summaries.find("Deploys weekly") != std::string::npos);
}

TEST_CASE("tags and list fields take both sides' additions and either side's removals", "[sharing][merge]") {
    const auto base = wire("Deploys", "b\n", "[deploy, old]", "short", "merged_from: [a1b2c3d]\n");
    const auto ours = wire("Deploys", "b\n", "[deploy, ours]", "short", "merged_from: [a1b2c3d, e4f5g6h]\n");
    const auto theirs = wire("Deploys", "b\n", "[deploy, old, theirs]", "long", "merged_from: [a1b2c3d, j7k8m9n]\n");
    const auto merged = sharing::from_wire_text(sharing::merge_wire_texts(base, ours, theirs, "m.md"), "m.md");
    CHECK(merged.memory.tags == std::vector<std::string>{"deploy", "theirs", "ours"});
    CHECK(merged.tier == core::Tier::long_term);
    const auto merged_from = core::decode_list(*merged.memory.extra_field("merged_from"), "m.md");
    CHECK(merged_from.size() == 3);
}

TEST_CASE("a memory both sides created is merged without a base", "[sharing][merge]") {
    const auto merged = sharing::merge_wire_texts(std::nullopt, wire("Deploys", "one\n"), wire("Deploys", "two\n"), "m.md");
    CHECK(merged.find("one") != std::string::npos);
    CHECK(merged.find("two") != std::string::npos);
    CHECK_THROWS_AS(sharing::merge_wire_texts(std::nullopt, "not a memory", wire("Deploys", "two\n"), "m.md"),
                    core::StoreError);
}

namespace {

/// A body as the store's merge leaves it: the memory's text, then each folded memory's under the
/// line naming its file on the machine that folded it.
std::string folded(const std::string &own, const std::vector<std::pair<std::string, std::string>> &absorbed) {
    std::string body = own + "\n";
    for (const auto &[file, text] : absorbed) {
        body += "\n<!-- merged from memory/user/long/" + file + " -->\n" + text + "\n\n" + text + ".\n";
    }
    return body;
}

std::size_t count_of(const std::string &text, const std::string &part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

} // namespace

TEST_CASE("two sides that folded the same memory into one keep its text once, whatever they named its file",
          "[sharing][merge]") {
    const auto base = wire("Run the tests", "Run the tests.\n");
    const auto here = wire("Run the tests", folded("Run the tests.", {{"2026-11-05_my00002.md", "Run all tests"}}));
    const auto there = wire("Run the tests", folded("Run the tests.", {{"2026-11-05_run.md", "Run all tests"}}));
    for (const auto &merged : {sharing::merge_wire_texts(base, here, there, "m.md"),
                               sharing::merge_wire_texts(std::nullopt, here, there, "m.md")}) {
        CHECK(count_of(merged, "Run all tests.") == 1);
        CHECK(count_of(merged, "Run the tests.") == 1);
        CHECK(merged.find(sharing::concurrent_edit_marker) == std::string::npos);
    }
    CHECK(sharing::merge_wire_texts(base, here, there, "m.md") == sharing::merge_wire_texts(base, there, here, "m.md"));
}

TEST_CASE("overlapping folds on two sides keep every folded text once, and an edit of the memory's own text",
          "[sharing][merge]") {
    const auto base = wire("Format SQL", "Format SQL.\n");
    const auto here = wire("Format SQL", folded("Format SQL.", {{"q.md", "Format SQL each time"}}));
    const auto there = wire("Format SQL", folded("Format SQL.", {{"q2.md", "Format SQL each time"},
                                                                 {"r.md", "Format SQL before review"}}));
    const auto merged = sharing::merge_wire_texts(base, here, there, "m.md");
    CHECK(merged == sharing::merge_wire_texts(base, there, here, "m.md"));
    CHECK(merged == sharing::merge_wire_texts(std::nullopt, there, here, "m.md"));
    CHECK(count_of(merged, "Format SQL.") == 1);
    CHECK(count_of(merged, "Format SQL each time.") == 1);
    CHECK(count_of(merged, "Format SQL before review.") == 1);
    CHECK(merged.find(sharing::concurrent_edit_marker) == std::string::npos);

    // Edited on one side, folded on the other: the edit and the fold, without a marker.
    const auto edited = wire("Format SQL", "Format SQL with sqlfluff.\n");
    const auto edit_and_fold = sharing::merge_wire_texts(base, edited, here, "m.md");
    CHECK(edit_and_fold == wire("Format SQL", folded("Format SQL with sqlfluff.", {{"q.md", "Format SQL each time"}})));

    // Edited on both sides, folded on one: both texts, the marker between, the fold once.
    const auto edited_there = wire("Format SQL", folded("Format all SQL.", {{"q.md", "Format SQL each time"}}));
    const auto both = sharing::merge_wire_texts(base, edited, edited_there, "m.md");
    CHECK(both == sharing::merge_wire_texts(base, edited_there, edited, "m.md"));
    CHECK(count_of(both, "Format SQL with sqlfluff.") == 1);
    CHECK(count_of(both, "Format all SQL.") == 1);
    CHECK(count_of(both, "Format SQL each time.") == 1);
    CHECK(count_of(both, std::string{sharing::concurrent_edit_marker}) == 1);

    // A fold one side removed by hand since the base stays removed.
    const auto unfolded = sharing::merge_wire_texts(here, base, there, "m.md");
    CHECK(count_of(unfolded, "Format SQL each time.") == 0);
    CHECK(count_of(unfolded, "Format SQL before review.") == 1);
}

TEST_CASE("usage files hold a machine's uses and add up", "[sharing][usage]") {
    sharing::UsageTable first{{"user/k3f9a2q", {3, *core::parse_timestamp("2026-11-22T10:00:00Z")}}};
    const sharing::UsageTable second{{"user/k3f9a2q", {2, *core::parse_timestamp("2026-11-23T10:00:00Z")}},
                                     {"projects/app-0123456789ab/m4n5p6q", {1, *core::parse_timestamp("2026-11-21T10:00:00Z")}}};
    const auto text = sharing::serialise_usage(second);
    CHECK(sharing::parse_usage(text, "usage.tsv") == second);
    sharing::add_usage(first, second);
    CHECK(first.at("user/k3f9a2q").uses == 5);
    CHECK(first.at("user/k3f9a2q").last_used == *core::parse_timestamp("2026-11-23T10:00:00Z"));
    CHECK_THROWS_WITH(sharing::parse_usage("# c\nuser/k3f9a2q\tmany\t2026-11-22T10:00:00Z\n", "machines/m/usage.tsv"),
                      Catch::Contains("machines/m/usage.tsv:2") && Catch::Contains("many"));
    CHECK_THROWS_AS(sharing::parse_usage("user/k3f9a2q 3\n", "u.tsv"), sharing::SharingError);
}

TEST_CASE("the outgoing checks refuse secrets and user memories in team folders, naming them", "[sharing][privacy]") {
    const auto redactor = core::builtin_redactor();
    const std::string clean = wire("Deploys", "Tuesdays.\n");
    CHECK_NOTHROW(sharing::refuse_secrets(clean, "memory/user/short/a.md", "the sync repository", *redactor));
    const std::string token = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
    const std::string leaking = wire("Deploys", "Tuesdays.\nToken: " + token + "\n");
    try {
        sharing::refuse_secrets(leaking, "memory/user/short/a.md", "the sync repository", *redactor);
        FAIL("a secret went through");
    } catch (const sharing::SharingError &refused) {
        const std::string message = refused.what();
        CHECK(message.find("memory/user/short/a.md") != std::string::npos);
        CHECK(message.find("line 10") != std::string::npos);
        CHECK(message.find("github") != std::string::npos);
        CHECK(message.find(token) == std::string::npos);
    }
    CHECK_THROWS_WITH(sharing::refuse_user_scope_in_team_folder(core::Scope::user(), "memory/user/short/a.md"),
                      Catch::Contains("memory/user/short/a.md") && Catch::Contains("user memories"));
    CHECK_NOTHROW(sharing::refuse_user_scope_in_team_folder(core::Scope::project("app-0123456789ab"), "k"));
    auto memory = core::parse_memory(kLocal, "local.md");
    CHECK(sharing::may_leave_machine(memory));
    memory.set_extra_field("private", "true");
    CHECK_FALSE(sharing::may_leave_machine(memory));
}

TEST_CASE("a file git left with conflict markers splits into its versions", "[sharing][merge]") {
    const std::string text = "---\nid: k3f9a2q\n---\nfirst\n<<<<<<< HEAD\nours line\n||||||| base\nbase line\n=======\n"
                             "theirs line\n>>>>>>> origin/main\nlast\n";
    const auto sides = sharing::split_conflict_markers(text);
    REQUIRE(sides);
    CHECK(sides->ours == "---\nid: k3f9a2q\n---\nfirst\nours line\nlast\n");
    CHECK(sides->theirs == "---\nid: k3f9a2q\n---\nfirst\ntheirs line\nlast\n");
    CHECK(sides->base == std::optional<std::string>{"---\nid: k3f9a2q\n---\nfirst\nbase line\nlast\n"});
    const auto two_way = sharing::split_conflict_markers("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> x\n");
    REQUIRE(two_way);
    CHECK_FALSE(two_way->base);
    CHECK_FALSE(sharing::split_conflict_markers("no markers\n"));
    CHECK_FALSE(sharing::split_conflict_markers("<<<<<<< HEAD\nunfinished\n"));
}
