// SPDX-License-Identifier: Apache-2.0
//
// The consolidation profile through the real binaries, on the controllable clock: the
// memory-consolidation skill's documented behaviour (seed-systems.md §3.2, §3.4) step by step, and
// each of its defects fixed.
#include "support/process.hpp"
#include "support/profile_home.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::ProcessOptions;
using starling::test::ProcessResult;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";
const fs::path kClaude = fs::path{STARLING_TEST_BINARY_DIR} / "starling-claude";

/// A home on the consolidation profile, with a repository to work in. Hooks do their after-reply
/// work in the foreground, so each step sees the last one's.
class ConsolidationHome {
public:
    explicit ConsolidationHome(const std::string &name) : home_(name), repo_(home_.path().parent_path() / "repo") {
        fs::create_directories(repo_ / ".git");
        starling::test::use_profile_in_foreground(home_, "consolidation");
    }

    [[nodiscard]] ProcessOptions at(const std::string &now, std::string stdin_text = {}) const {
        return home_.options_at(now, std::move(stdin_text));
    }

    [[nodiscard]] ProcessResult run(const std::vector<std::string> &arguments, const std::string &now) const {
        return run_process(kStarling, arguments, at(now));
    }

    nlohmann::json cli(const std::vector<std::string> &arguments, const std::string &now) const {
        const auto result = run(arguments, now);
        INFO(arguments.front() << ": " << result.stderr_text);
        REQUIRE(result.exit_code == 0);
        return nlohmann::json::parse(result.stdout_text);
    }

    /// The user says `text` in a session of the repository, and the session stops: the decision
    /// policy judges it at stop, as the skill's filter ran before a learning was saved.
    void say(const std::string &text, const std::string &session, const std::string &now) const {
        hook("UserPromptSubmit",
             {{"session_id", session}, {"cwd", repo_.string()}, {"hook_event_name", "UserPromptSubmit"}, {"prompt", text}},
             now);
        hook("Stop", {{"session_id", session}, {"cwd", repo_.string()}, {"hook_event_name", "Stop"}}, now);
    }

    nlohmann::json listed(const std::string &now) const {
        return cli({"list", "--json", "--scope", "all", "--cwd", repo_.string()}, now);
    }

    nlohmann::json show(const std::string &id, const std::string &now) const { return cli({"show", "--json", id}, now); }

    nlohmann::json classify(const std::string &text, const std::string &now) const {
        return cli({"classify", "--json", "--cwd", repo_.string(), "--", text}, now);
    }

    nlohmann::json consolidate(const std::string &now) const { return cli({"consolidate", "--json"}, now); }

    nlohmann::json feedback(const std::string &id, const std::string &verdict, const std::string &now) const {
        return cli({"feedback", "--json", id, verdict}, now);
    }

    /// The id of the one listed memory whose summary starts with `start`.
    std::string id_of(const std::string &start, const std::string &now) const {
        std::vector<std::string> ids;
        for (const auto &memory : listed(now)) {
            if (memory["summary"].get<std::string>().starts_with(start)) {
                ids.push_back(memory["id"]);
            }
        }
        INFO(start);
        REQUIRE(ids.size() == 1);
        return ids.front();
    }

    [[nodiscard]] const fs::path &repo() const noexcept { return repo_; }

private:
    void hook(const std::string &event, const nlohmann::json &payload, const std::string &now) const {
        const auto result = run_process(kClaude, {event}, at(now, payload.dump()));
        INFO(result.stderr_text);
        REQUIRE(result.exit_code == 0);
    }

    ScratchHome home_;
    fs::path repo_;
};

std::string field_of(const nlohmann::json &shown, const std::string &name) {
    const auto &fields = shown["other_fields"];
    return fields.contains(name) ? fields[name].get<std::string>() : std::string{"<absent>"};
}

std::string read_text(const fs::path &path) {
    std::ifstream in{path, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

/// Adds `links: [...]` to a memory file by hand, as a user (or an import of the skill's relations) would.
void link_by_hand(const nlohmann::json &shown, const std::string &links) {
    const fs::path path = shown["path"].get<std::string>();
    std::string text = read_text(path);
    REQUIRE(text.starts_with("---\n"));
    text.insert(4, "links: [" + links + "]\n");
    std::ofstream{path, std::ios::binary | std::ios::trunc} << text;
}

const std::string kMigration = "Remember that the migration broke production: always run migrations in a transaction. "
                               "This applies to postgres, mysql and sqlite.";
const std::string kForcePush = "Never force-push main: it broke the build and we lost data that way.";
const std::string kStaging = "Keep in mind that the staging server restarts nightly; this comes up whenever we deploy.";
// User explicitly shared (+3), Common scenario (+2): exactly the threshold. The second restates the
// first's keywords but one and adds two (10 of 13 shared: about 0.77 as `usage` judges it).
const std::string kGermanLocale =
    "Keep in mind that the invoice exporter writes CSV files with semicolons whenever the locale is German.";
const std::string kFrenchOrPolishLocale =
    "Keep in mind that the invoice exporter writes CSV files with semicolons whenever the locale is French or Polish.";
const std::string kExactlyFive = "relevance score 5 >= 5: User explicitly shared (+3), Common scenario (+2)";

} // namespace

TEST_CASE("the consolidation profile: the write gate at 5, duplicates not stored twice, uses judged, promotion to "
          "core after 15 helpful uses at 30 days, forgetting after 90 unused days with an archive entry, critical, "
          "pinned and core memories kept",
          "[cli][profiles][consolidation]") {
    const ConsolidationHome home{"consolidation-scenario"};

    // §3.2: the sensory filter scores each message; only a score of 5 or more is saved.
    home.say(kMigration, "s-1", "2026-03-02T09:00:00Z");
    home.say("Thanks, that looks fine.", "s-1", "2026-03-02T09:01:00Z");
    home.say(kForcePush, "s-1", "2026-03-02T09:02:00Z");
    home.say("A minor tip about the logs.", "s-1", "2026-03-02T09:03:00Z");
    home.say(kStaging, "s-1", "2026-03-02T09:04:00Z");
    CHECK(home.classify("A minor tip about the logs.", "2026-03-02T09:05:00Z")["reason"] ==
          "relevance score 1 < 5: Severity: low (+1)");
    // Said again, it is no longer novel: the skill's −2 for a memory more than 0.6 similar.
    CHECK(home.classify(kMigration, "2026-03-02T09:05:00Z")["reason"] ==
          "relevance score 7 >= 5: Similar memory exists (-2), Broadly applicable (+3), Severity: high (+3), User "
          "explicitly shared (+3)");
    REQUIRE(home.listed("2026-03-02T09:06:00Z").size() == 3);
    const auto migration = home.id_of("Remember that the migration", "2026-03-02T09:06:00Z");
    const auto force_push = home.id_of("Never force-push", "2026-03-02T09:06:00Z");
    const auto staging = home.id_of("Keep in mind", "2026-03-02T09:06:00Z");
    const auto migration_shown = home.show(migration, "2026-03-02T09:06:00Z");
    CHECK(migration_shown["type"] == "feedback");
    CHECK(migration_shown["pinned"] == false);
    CHECK(field_of(migration_shown, "relevance_score") == "9");
    CHECK(field_of(migration_shown, "source") == "explicit_user_feedback");
    CHECK(field_of(migration_shown, "applies_to") == "[postgres, mysql, sqlite]");
    CHECK(field_of(home.show(force_push, "2026-03-02T09:06:00Z"), "critical") == "true");

    // A pinned memory: `starling remember` keeps what the user asks it to.
    const auto pinned = home.cli({"remember", "--json", "--cwd", home.repo().string(), "--",
                                  "Remember that cache keys include the user id; this comes up whenever we deploy."},
                                 "2026-03-02T10:00:00Z")["id"]
                            .get<std::string>();
    // And one more learning, judged unhelpful later but used recently.
    home.say("Remember that the api gateway must never cache errors. This applies to nginx and envoy.", "s-3",
             "2026-03-02T11:00:00Z");
    const auto gateway = home.id_of("Remember that the api gateway", "2026-03-02T11:01:00Z");
    CHECK(home.listed("2026-03-02T11:01:00Z").size() == 5);

    // Novelty: the same learning again (similarity 1 > 0.85) is no second memory.
    home.say(kMigration + " Really.", "s-2", "2026-03-03T09:00:00Z");
    CHECK(home.listed("2026-03-03T09:01:00Z").size() == 5);
    CHECK(home.show(migration, "2026-03-03T09:01:00Z")["access_count"] == 2);

    // Uses judged: fifteen helpful applications of the migration rule.
    for (int use = 0; use < 15; ++use) {
        const auto judged = home.feedback(migration, "helpful", "2026-03-" + std::to_string(10 + use) + "T12:00:00Z");
        CHECK(judged["helpful"] == use + 1);
    }
    auto shown = home.show(migration, "2026-03-20T09:00:00Z");
    CHECK(shown["access_count"] == 17); // written, restated, fifteen judged uses
    CHECK(field_of(shown, "helpful") == "15");

    // §3.4 promotion: 15 uses and effectiveness 1.0, but 29 days old — not yet.
    home.consolidate("2026-03-31T10:00:00Z");
    shown = home.show(migration, "2026-03-31T10:01:00Z");
    CHECK(field_of(shown, "core") == "<absent>");
    CHECK(shown["key"].get<std::string>().find("/short/") != std::string::npos);
    // At 30 days: core memory — long-term (in INDEX.md, which a session starts with), pinned, dated.
    const auto promoted = home.consolidate("2026-04-01T10:00:00Z");
    CHECK_THAT(promoted.dump(), Catch::Contains("core memory: used 17 times, effectiveness 1.00, 30 days old"));
    shown = home.show(migration, "2026-04-01T10:01:00Z");
    CHECK(field_of(shown, "core") == "2026-04-01");
    CHECK(shown["pinned"] == true);
    CHECK(field_of(shown, "pinned_by") == "decay");
    CHECK(shown["key"].get<std::string>().find("/long/") != std::string::npos);

    // A memory used recently is kept, however poorly judged.
    home.feedback(gateway, "unhelpful", "2026-05-20T12:00:00Z");

    // §3.4 forgetting: the staging note, never used after it was written, is kept at 90 idle days...
    home.consolidate("2026-05-31T10:00:00Z");
    CHECK(home.listed("2026-05-31T10:01:00Z").size() == 5);
    // ... and archived at 91, with why; the critical, pinned, core and recently used memories stay.
    link_by_hand(home.show(force_push, "2026-06-01T09:00:00Z"), "supersedes:" + staging + ", related_to:" + migration);
    const auto forgotten = home.consolidate("2026-06-01T10:00:00Z");
    CHECK_THAT(forgotten.dump(), Catch::Contains("unused for 91 days (> 90) and used 1 time (< 3)"));
    const auto left = home.listed("2026-06-01T10:01:00Z");
    CHECK(left.size() == 4);
    for (const auto &memory : left) {
        CHECK(memory["id"] != staging);
    }
    const auto archive = home.cli({"archive", "--json"}, "2026-06-01T10:02:00Z");
    REQUIRE(archive.size() == 1);
    CHECK_THAT(archive.dump(), Catch::Contains("unused for 91 days"));
    for (const auto &kept : {force_push, pinned, migration, gateway}) {
        CHECK(home.show(kept, "2026-06-01T10:03:00Z")["id"] == kept);
    }

    // The typed link to the forgotten memory now names no memory: the next consolidation records it
    // and `starling health` reports it.
    const auto orphans = home.consolidate("2026-06-02T10:00:00Z");
    CHECK_THAT(orphans.dump(), Catch::Contains("links naming no memory: supersedes:" + staging));
    CHECK(field_of(home.show(force_push, "2026-06-02T10:01:00Z"), "orphaned_links") == "[supersedes:" + staging + "]");
    const auto health = run_process(kStarling, {"health", "--json"}, home.at("2026-06-02T10:02:00Z"));
    CHECK_THAT(health.stdout_text, Catch::Contains("supersedes:" + staging));

    // A year on, nothing that is critical, pinned or core is forgotten.
    home.consolidate("2027-06-02T10:00:00Z");
    for (const auto &kept : {force_push, pinned, migration}) {
        CHECK(home.show(kept, "2027-06-02T10:01:00Z")["id"] == kept);
    }
}

TEST_CASE("the consolidation profile's novelty: a learning scoring exactly 5 is stored when novel, and not when a "
          "memory more than 0.6 (and less than 0.85) similar exists",
          "[cli][profiles][consolidation][novelty]") {
    const ConsolidationHome home{"consolidation-novelty"};
    // §3.2: nothing in the store to compare it with, so nothing to take off: 5 >= 5.
    CHECK(home.classify(kFrenchOrPolishLocale, "2026-03-02T08:59:00Z")["reason"] == kExactlyFive);
    home.say(kGermanLocale, "s-1", "2026-03-02T09:00:00Z");
    const auto german = home.id_of("Keep in mind that the invoice exporter", "2026-03-02T09:01:00Z");

    // Now the most similar memory is about 0.77 similar (> 0.6): −2, and 3 < 5.
    CHECK(home.classify(kFrenchOrPolishLocale, "2026-03-02T09:02:00Z")["reason"] ==
          "relevance score 3 < 5: Similar memory exists (-2), User explicitly shared (+3), Common scenario (+2)");
    home.say(kFrenchOrPolishLocale, "s-2", "2026-03-02T09:03:00Z");
    const auto listed = home.listed("2026-03-02T09:04:00Z");
    REQUIRE(listed.size() == 1);
    CHECK(listed[0]["id"] == german);
    // Discarded by the gate, not folded in as a duplicate (that takes 0.85): the memory is untouched.
    const auto shown = home.show(german, "2026-03-02T09:04:00Z");
    CHECK(shown["access_count"] == 1);
    CHECK(shown["body"].get<std::string>().find("French") == std::string::npos);

    // The same message in a store without the similar memory is novel, and stored.
    const ConsolidationHome fresh{"consolidation-novelty-fresh"};
    fresh.say(kFrenchOrPolishLocale, "s-1", "2026-03-02T09:00:00Z");
    const auto stored = fresh.listed("2026-03-02T09:01:00Z");
    REQUIRE(stored.size() == 1);
    CHECK(field_of(fresh.show(stored[0]["id"].get<std::string>(), "2026-03-02T09:01:00Z"), "relevance_score") == "5");
}

TEST_CASE("consolidation defect fixed: 'NOT HELPFUL' is no helpful use — unhelpful uses make a memory forgettable",
          "[cli][profiles][consolidation]") {
    const ConsolidationHome home{"consolidation-not-helpful"};
    home.say(kMigration, "s-1", "2026-03-02T09:00:00Z");
    const auto id = home.id_of("Remember that the migration", "2026-03-02T09:01:00Z");

    // The skill's own words are no verdict here: refused, and nothing is counted.
    const auto refused = home.run({"feedback", id, "NOT HELPFUL"}, "2026-03-03T09:00:00Z");
    CHECK(refused.exit_code == 64);
    CHECK_THAT(refused.stderr_text, Catch::Contains("'helpful' or 'unhelpful', not 'NOT HELPFUL'"));
    CHECK(field_of(home.show(id, "2026-03-03T09:01:00Z"), "helpful") == "<absent>");

    // Fifteen unhelpful uses: the skill counted each as helpful and promoted the memory at 30 days.
    for (int use = 0; use < 15; ++use) {
        home.feedback(id, "unhelpful", "2026-03-04T12:00:00Z");
    }
    const auto judged = home.feedback(id, "helpful", "2026-03-05T12:00:00Z");
    CHECK(judged["helpful"] == 1);
    CHECK(judged["unhelpful"] == 15);
    CHECK(judged["effectiveness"].get<double>() == Approx(1.0 / 16));
    home.consolidate("2026-04-10T10:00:00Z");
    CHECK(field_of(home.show(id, "2026-04-10T10:01:00Z"), "core") == "<absent>");
    // Unused for 91 days and 6 % effective: forgotten, though used 17 times.
    const auto forgotten = home.consolidate("2026-06-05T10:00:00Z");
    CHECK_THAT(forgotten.dump(), Catch::Contains("judged helpful 1 of 16 times (effectiveness 0.06 < 0.30)"));
    CHECK(home.listed("2026-06-05T10:01:00Z").empty());
}

TEST_CASE("consolidation: feedback names what is wrong — an unknown memory, a missing verdict, a counter that is no "
          "number", "[cli][profiles][consolidation]") {
    const ConsolidationHome home{"consolidation-feedback-errors"};
    const auto unknown = home.run({"feedback", "zzzzzzz", "helpful"}, "2026-03-02T09:00:00Z");
    CHECK(unknown.exit_code == 1);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("zzzzzzz"));
    CHECK(home.run({"feedback", "zzzzzzz"}, "2026-03-02T09:00:00Z").exit_code == 64);

    home.say(kMigration, "s-1", "2026-03-02T09:00:00Z");
    const auto id = home.id_of("Remember that the migration", "2026-03-02T09:01:00Z");
    const auto shown = home.show(id, "2026-03-02T09:01:00Z");
    const fs::path path = shown["path"].get<std::string>();
    std::string text = read_text(path);
    text.insert(4, "helpful: lots\n");
    std::ofstream{path, std::ios::binary | std::ios::trunc} << text;
    const auto broken = home.run({"feedback", id, "helpful"}, "2026-03-02T09:02:00Z");
    CHECK(broken.exit_code == 1);
    CHECK_THAT(broken.stderr_text, Catch::Contains("field 'helpful' is 'lots', not a whole number"));
    CHECK(read_text(path) == text); // nothing written
}

TEST_CASE("consolidation defect fixed: concurrent feedback is all counted (the skill's graph file lost updates)",
          "[cli][profiles][consolidation]") {
    const ConsolidationHome home{"consolidation-concurrent"};
    home.say(kMigration, "s-1", "2026-03-02T09:00:00Z");
    const auto id = home.id_of("Remember that the migration", "2026-03-02T09:01:00Z");
    std::vector<std::future<ProcessResult>> judges;
    for (int judge = 0; judge < 6; ++judge) {
        judges.push_back(std::async(std::launch::async, [&, judge] {
            return home.run({"feedback", id, judge % 3 == 0 ? "unhelpful" : "helpful"}, "2026-03-03T09:00:00Z");
        }));
    }
    for (auto &judge : judges) {
        CHECK(judge.get().exit_code == 0);
    }
    const auto shown = home.show(id, "2026-03-03T09:01:00Z");
    CHECK(field_of(shown, "helpful") == "4");
    CHECK(field_of(shown, "unhelpful") == "2");
    CHECK(shown["access_count"] == 7);
}
