// SPDX-License-Identifier: Apache-2.0
//
// The skill-master profile through the real binaries, on the controllable clock: skill_master's
// documented behaviour (seed-systems.md §4.1) step by step, and each of its defects fixed.
#include "support/process.hpp"
#include "support/profile_home.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::ProcessOptions;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";
const fs::path kClaude = fs::path{STARLING_TEST_BINARY_DIR} / "starling-claude";

/// A home on the skill-master profile, with a repository: skill_master's local memory is the
/// project's. Hooks do their after-reply work in the foreground, so each step sees the last one's.
class SkillMasterHome {
public:
    explicit SkillMasterHome(const std::string &name) : home_(name), repo_(home_.path().parent_path() / "repo") {
        fs::create_directories(repo_ / ".git");
        starling::test::use_profile_in_foreground(home_, "skill-master");
    }

    [[nodiscard]] ProcessOptions at(const std::string &now, std::string stdin_text = {}) const {
        return home_.options_at(now, std::move(stdin_text));
    }

    nlohmann::json cli(const std::vector<std::string> &arguments, const std::string &now) const {
        const auto result = run_process(kStarling, arguments, at(now));
        INFO(arguments.front() << ": " << result.stderr_text);
        REQUIRE(result.exit_code == 0);
        return nlohmann::json::parse(result.stdout_text);
    }

    /// `starling remember` in the repository: the decision policy judges the text.
    nlohmann::json remember(const std::string &text, const std::string &now) const {
        return cli({"remember", "--json", "--cwd", repo_.string(), "--", text}, now);
    }

    nlohmann::json show(const std::string &id, const std::string &now) const { return cli({"show", "--json", id}, now); }

    nlohmann::json listed(const std::string &now) const { return cli({"list", "--json", "--scope", "all", "--cwd", repo_.string()}, now); }

    /// The ids of the memories a prompt in the repository is given, best first.
    std::vector<std::string> injected(const std::string &prompt, const std::string &now) const {
        const auto injection = cli({"inject", "--json", "--event", "prompt", "--cwd", repo_.string(), "--prompt", prompt}, now);
        std::vector<std::string> ids;
        for (const auto &memory : injection["memories"]) {
            ids.push_back(cli({"show", "--json", memory["key"].get<std::string>()}, now)["id"]);
        }
        return ids;
    }

    void consolidate(const std::string &now) const { static_cast<void>(cli({"consolidate", "--json"}, now)); }

    void hook(const std::string &event, const nlohmann::json &payload, const std::string &now) const {
        const auto result = run_process(kClaude, {event}, at(now, payload.dump()));
        INFO(result.stderr_text);
        REQUIRE(result.exit_code == 0);
    }

    [[nodiscard]] const fs::path &repo() const noexcept { return repo_; }
    [[nodiscard]] fs::path store() const { return home_.path(); }

private:
    ScratchHome home_;
    fs::path repo_;
};

std::string id_of_claim(const nlohmann::json &remembered, std::size_t claim = 0) {
    INFO(remembered.dump());
    REQUIRE(remembered.contains("claims"));
    return remembered["claims"].at(claim)["id"];
}

std::string field_of(const nlohmann::json &shown, const std::string &name) {
    const auto &fields = shown["other_fields"];
    return fields.contains(name) ? fields[name].get<std::string>() : std::string{"<absent>"};
}

} // namespace

TEST_CASE("the skill-master profile: rules stored as triples, reinforced when repeated, ranked by kind, "
          "conflicts won by the newer rule but not over an older constraint, ambiguous ones flagged, "
          "nothing forgotten",
          "[cli][profiles][skill-master]") {
    const SkillMasterHome home{"skill-master-scenario"};

    // skill_master's example, told to the agent: judged at stop, stored as one triple (§4.1 write flow).
    const nlohmann::json prompt{{"session_id", "s-1"}, {"cwd", home.repo().string()}, {"hook_event_name", "UserPromptSubmit"},
                                {"prompt", "add to memory that never run build repeatedly because it is heavy"}};
    home.hook("UserPromptSubmit", prompt, "2026-03-02T09:00:00Z");
    home.hook("Stop", {{"session_id", "s-1"}, {"cwd", home.repo().string()}, {"hook_event_name", "Stop"}},
              "2026-03-02T09:01:00Z");
    auto memories = home.listed("2026-03-02T09:02:00Z");
    REQUIRE(memories.size() == 1);
    const std::string build_id = memories[0]["id"];
    CHECK(memories[0]["scope"] == "project");
    auto build = home.show(build_id, "2026-03-02T09:02:00Z");
    CHECK(field_of(build, "kind") == "constraint");
    CHECK(field_of(build, "subject") == "build");
    CHECK(field_of(build, "predicate") == "not run");
    CHECK(field_of(build, "object") == "repeatedly");
    CHECK(field_of(build, "source") == "user_direct");
    CHECK(field_of(build, "dedupe_key") == "build|not run|repeatedly");
    CHECK(build["summary"] == "Never run build repeatedly.");
    CHECK(build["access_count"] == 1); // strength: a new rule's is 1

    // The same rule again: skill_master's `strength + 1` on the same dedupe key, not a second line.
    const auto again = home.remember("Never run build repeatedly.", "2026-03-03T09:00:00Z");
    CHECK(again["claims"][0]["action"] == "updated");
    CHECK(id_of_claim(again) == build_id);
    CHECK(home.listed("2026-03-03T09:01:00Z").size() == 1);
    CHECK(home.show(build_id, "2026-03-03T09:01:00Z")["access_count"] == 2); // strength 2

    // Ranking: constraint > rule > preference; an explicit tag match first (§4.1 retrieval).
    const auto pnpm_id = id_of_claim(home.remember("Use pnpm for installs", "2026-03-04T09:00:00Z"));
    const auto tabs_id = id_of_claim(home.remember("I prefer tabs", "2026-03-04T09:01:00Z"));
    const auto english_id = id_of_claim(home.remember("Commit messages must be in English", "2026-03-04T09:02:00Z"));
    CHECK(home.injected("plan the next change", "2026-03-05T09:00:00Z") ==
          std::vector<std::string>{build_id, english_id, pnpm_id, tabs_id});
    CHECK(home.injected("indent the file with tabs", "2026-03-05T09:00:00Z").front() == tabs_id);

    // A newer rule on the same subject and predicate supersedes the older rule...
    const auto npm_id = id_of_claim(home.remember("Use npm for installs", "2026-03-06T09:00:00Z"));
    // ...but not an older constraint: the newer rule loses to it.
    const auto german_id = id_of_claim(home.remember("Commit messages should be in German", "2026-03-06T09:01:00Z"));
    home.consolidate("2026-03-06T10:00:00Z");
    CHECK_THAT(home.show(npm_id, "2026-03-06T10:01:00Z")["other_fields"]["links"].get<std::string>(),
               Catch::Contains("supersedes:" + pnpm_id));
    CHECK_THAT(home.show(english_id, "2026-03-06T10:01:00Z")["other_fields"]["links"].get<std::string>(),
               Catch::Contains("supersedes:" + german_id));
    CHECK(home.injected("plan the next change", "2026-03-06T10:02:00Z") ==
          std::vector<std::string>{build_id, english_id, npm_id, tabs_id});

    // Two constraints in conflict: skill_master's "ambiguous: keep both, add a conflict tag".
    const auto main_id = id_of_claim(home.remember("Releases must be tagged on main", "2026-03-07T09:00:00Z"));
    const auto develop_id = id_of_claim(home.remember("Releases must be tagged on develop", "2026-03-07T09:01:00Z"));
    home.consolidate("2026-03-07T10:00:00Z");
    CHECK(field_of(home.show(main_id, "2026-03-07T10:01:00Z"), "conflict") == develop_id);
    CHECK(field_of(home.show(develop_id, "2026-03-07T10:01:00Z"), "conflict") == main_id);
    const auto with_both = home.injected("plan the next change", "2026-03-07T10:02:00Z");
    CHECK(std::count(with_both.begin(), with_both.end(), main_id) == 1);
    CHECK(std::count(with_both.begin(), with_both.end(), develop_id) == 1);
    // Resolved by forgetting one: the other's flag goes at the next consolidation.
    REQUIRE(run_process(kStarling, {"forget", develop_id}, home.at("2026-03-08T09:00:00Z")).exit_code == 0);
    home.consolidate("2026-03-08T10:00:00Z");
    CHECK(field_of(home.show(main_id, "2026-03-08T10:01:00Z"), "conflict") == "<absent>");

    // skill_master forgets nothing: a year later every rule is there and nothing was archived.
    home.consolidate("2027-03-08T10:00:00Z");
    CHECK(home.listed("2027-03-08T10:01:00Z").size() == 7);
    CHECK(home.cli({"archive", "--json"}, "2027-03-08T10:02:00Z").size() == 1); // only the one forgotten by hand

    // Global only when asked: the user's memory, seen from every project.
    const auto global = home.remember("global: add to memory that I prefer short answers", "2027-03-09T09:00:00Z");
    CHECK(global["decision"]["scope"] == "user");
    CHECK(home.remember("How do I run the tests?", "2027-03-09T09:01:00Z")["action"] == "discarded");
}

TEST_CASE("skill-master defect fixed: a paraphrase of a rule reinforces it instead of adding a duplicate",
          "[cli][profiles][skill-master]") {
    const SkillMasterHome home{"skill-master-paraphrase"};
    const auto first = id_of_claim(home.remember("Never run the build repeatedly", "2026-03-02T09:00:00Z"));
    for (const char *paraphrase : {"Don't run builds repeatedly!", "You must not run the builds repeatedly."}) {
        const auto restated = home.remember(paraphrase, "2026-03-02T10:00:00Z");
        CHECK(restated["claims"][0]["action"] == "updated");
        CHECK(id_of_claim(restated) == first);
    }
    CHECK(home.listed("2026-03-02T11:00:00Z").size() == 1);
    CHECK(home.show(first, "2026-03-02T11:00:00Z")["access_count"] == 3); // strength 3
}

TEST_CASE("skill-master defect fixed: concurrent restatements are all counted (an in-place rewrite without a lock "
          "lost them)",
          "[cli][profiles][skill-master]") {
    const SkillMasterHome home{"skill-master-concurrent"};
    const auto id = id_of_claim(home.remember("Use pnpm for installs", "2026-03-02T09:00:00Z"));
    std::vector<std::future<starling::test::ProcessResult>> writers;
    for (int writer = 0; writer < 4; ++writer) {
        writers.push_back(std::async(std::launch::async, [&] {
            return run_process(kStarling, {"remember", "--cwd", home.repo().string(), "Use pnpm for installs."},
                               home.at("2026-03-02T10:00:00Z"));
        }));
    }
    for (auto &writer : writers) {
        CHECK(writer.get().exit_code == 0);
    }
    CHECK(home.listed("2026-03-02T11:00:00Z").size() == 1);
    CHECK(home.show(id, "2026-03-02T11:00:00Z")["access_count"] == 5); // strength 1 + 4
}

TEST_CASE("skill-master defect fixed: a secret is never stored, whatever the rule around it (advisory text in "
          "skill_master)",
          "[cli][profiles][skill-master]") {
    const SkillMasterHome home{"skill-master-secret"};
    const auto remembered =
        home.remember("The deploy token is ghp_0123456789abcdefABCDEF0123456789abcd, never commit it. Use pnpm.",
                      "2026-03-02T09:00:00Z");
    const auto memories = home.listed("2026-03-02T09:01:00Z");
    REQUIRE(memories.size() == 1);
    CHECK(memories[0]["summary"] == "Use pnpm.");
    CHECK_THAT(remembered.dump(), !Catch::Contains("ghp_0123456789"));
}

TEST_CASE("skill-master defect fixed: the prompt gets the seven best rules, however many there are (no size cap "
          "in skill_master)",
          "[cli][profiles][skill-master]") {
    const SkillMasterHome home{"skill-master-top-seven"};
    const std::vector<std::string> tools{"ruff", "mypy", "black", "pytest", "tox", "nox", "uv", "pdm", "hatch"};
    for (const auto &tool : tools) {
        static_cast<void>(home.remember("Use " + tool, "2026-03-02T09:00:00Z"));
    }
    CHECK(home.listed("2026-03-02T09:01:00Z").size() == tools.size());
    CHECK(home.injected("plan the next change", "2026-03-02T09:02:00Z").size() == 7);
}

TEST_CASE("skill-master defect fixed: a damaged memory file is reported and skipped, the other rules still apply "
          "(skill_master never validated its NDJSON lines)",
          "[cli][profiles][skill-master]") {
    const SkillMasterHome home{"skill-master-damaged"};
    const auto pnpm = home.remember("Use pnpm for installs", "2026-03-02T09:00:00Z");
    const auto build_id = id_of_claim(home.remember("Never run the build repeatedly", "2026-03-02T09:01:00Z"));
    const fs::path folder = (home.store() / pnpm["claims"][0]["key"].get<std::string>()).parent_path();
    std::ofstream{folder / "2026-03-02_damaged.md"} << R"({"k":"rule","t":["npm","use")";

    const auto again = home.remember("Never run the build repeatedly", "2026-03-02T10:00:00Z");
    CHECK(again["claims"][0]["action"] == "updated");
    CHECK(home.show(build_id, "2026-03-02T10:01:00Z")["access_count"] == 2);
    CHECK(home.injected("plan the next change", "2026-03-02T10:02:00Z") ==
          std::vector<std::string>{build_id, id_of_claim(pnpm)});
    const auto doctor = run_process(kStarling, {"doctor", "--json"}, home.at("2026-03-02T10:03:00Z"));
    CHECK_THAT(doctor.stdout_text, Catch::Contains("2026-03-02_damaged.md") && Catch::Contains("cannot be read"));
}
