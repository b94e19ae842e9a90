// SPDX-License-Identifier: Apache-2.0
// What a person asked to keep stays, by a name that stays: ids, pinning, and injections that are
// not reads — through the real binaries.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::ProcessOptions;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};
const fs::path kStarling = kBinaries / "starling";

nlohmann::json json_of(const std::vector<std::string> &arguments, const ProcessOptions &options) {
    const auto result = run_process(kStarling, arguments, options);
    INFO(result.stderr_text);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.stdout_text);
}

nlohmann::json remembered(const ScratchHome &home, const std::vector<std::string> &words) {
    std::vector<std::string> arguments{"remember", "--force", "--json"};
    arguments.insert(arguments.end(), words.begin(), words.end());
    return json_of(arguments, home.options());
}

} // namespace

TEST_CASE("a memory is named by its short id, a prefix of it, its key or the path remember printed",
          "[e2e][memory-id]") {
    const ScratchHome home{"memory-id"};
    const auto stored = remembered(home, {"Deploys go out on Tuesdays."});
    const std::string id = stored["id"];
    const std::string key = stored["key"];
    const std::string path = stored["path"];
    REQUIRE(id.size() == 7);

    const auto text = run_process(kStarling, {"remember", "--force", "Reviews need two approvals."}, home.options());
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(text.stdout_text, Catch::Contains("  id ") && Catch::Contains("pinned"));

    for (const std::string &reference : {id, id.substr(0, 4), key, path}) {
        INFO(reference);
        const auto shown = json_of({"show", "--json", reference}, home.options());
        CHECK(shown["id"] == id);
        CHECK(shown["key"] == key);
        CHECK(shown["summary"] == "Deploys go out on Tuesdays.");
        CHECK(shown["pinned"] == true);
        CHECK(shown["injection_count"] == 0);
    }
    const auto listed = run_process(kStarling, {"list"}, home.options());
    CHECK_THAT(listed.stdout_text, Catch::Contains(id + "  " + key) && Catch::Contains("pinned"));

    const auto missing = run_process(kStarling, {"show", "zzzzzzz"}, home.options());
    CHECK(missing.exit_code == 1);
    CHECK_THAT(missing.stderr_text, Catch::Contains("no memory has the id zzzzzzz"));

    // A summary without a word to name the file by is named after its id, not `_memory.md`.
    const auto chinese = remembered(home, {"以后提交信息都用英文写"});
    CHECK_THAT(chinese["key"].get<std::string>(), Catch::EndsWith("_" + chinese["id"].get<std::string>() + ".md"));

    const auto forgotten = json_of({"forget", "--json", id}, home.options());
    CHECK(forgotten["key"] == key);
    CHECK_FALSE(fs::exists(path));
}

TEST_CASE("what remember stores is pinned and survives months unread, and unpinned the default still keeps role, "
          "preferences and project notes",
          "[e2e][pinning]") {
    const ScratchHome home{"pinning"};
    const std::string role = remembered(home, {"--type", "user", "I am the staff engineer on the payments team."})["id"];
    const std::string note = remembered(home, {"--type", "project", "The staging cluster is called blue."})["id"];
    const std::string preference = remembered(home, {"--type", "feedback", "Answer in short paragraphs."})["id"];

    const auto months_later = home.options_at("2027-03-01T09:00:00Z");
    const auto kept = json_of({"consolidate", "--json"}, months_later);
    for (const auto &action : kept["actions"]) {
        CHECK(action["applied"] == false);
    }
    for (const auto &id : {role, note, preference}) {
        CHECK(json_of({"show", "--json", id}, months_later)["pinned"] == true);
    }

    for (const auto &id : {role, note, preference}) {
        const auto unpinned = json_of({"unpin", "--json", id}, months_later);
        CHECK(unpinned["pinned"] == false);
    }
    static_cast<void>(json_of({"consolidate", "--json"}, months_later));
    for (const auto &id : {role, note, preference}) {
        CHECK(run_process(kStarling, {"show", id}, months_later).exit_code == 0);
    }
    // A configuration that keeps only who the user is and how they work lets the note expire.
    std::ofstream{home.path() / "starling.toml"} << "[settings.collie-tiers]\nkeep.types = [\"user\", \"feedback\"]\n";
    static_cast<void>(json_of({"consolidate", "--json"}, months_later));
    CHECK(run_process(kStarling, {"show", role}, months_later).exit_code == 0);
    CHECK(run_process(kStarling, {"show", preference}, months_later).exit_code == 0);
    const auto archived = run_process(kStarling, {"show", note}, months_later);
    CHECK(archived.exit_code == 1);
    CHECK_THAT(run_process(kStarling, {"archive"}, months_later).stdout_text, Catch::Contains("staging"));

    const auto pinned = json_of({"pin", "--json", role.substr(0, 5)}, months_later);
    CHECK(pinned["pinned"] == true);
    CHECK(pinned["id"] == role);
}

TEST_CASE("being injected is not being read: it is counted apart and promotes nothing", "[e2e][injection]") {
    const ScratchHome home{"injection-not-read"};
    const auto stored = remembered(home, {"--tags", "kubernetes", "kubectl contexts are named after regions."});
    const std::string id = stored["id"];
    const std::string key = stored["key"];
    for (int session = 1; session <= 4; ++session) {
        const std::string payload = R"({"session_id":"s-)" + std::to_string(session) +
                                    R"(","transcript_path":"/t","cwd":"/work/app","hook_event_name":"UserPromptSubmit",)"
                                    R"("prompt":"which kubectl contexts exist?"})";
        const auto hook = run_process(kBinaries / "starling-claude", {"UserPromptSubmit"},
                                      home.options_at("2026-11-2" + std::to_string(2 + session) + "T09:00:00Z", payload));
        REQUIRE(hook.exit_code == 0);
        CHECK_THAT(hook.stdout_text, Catch::Contains("kubectl contexts are named after regions"));
    }
    REQUIRE(home.wait_for_background_work() == 0);
    const auto shown = json_of({"show", "--json", id}, home.options());
    CHECK(shown["injection_count"] == 4);
    CHECK(shown["last_injected"] == "2026-11-26T09:00:00Z");
    CHECK(shown["access_count"] == 1);
    CHECK(shown["sessions"].empty());
    const auto consolidated = json_of({"consolidate", "--json"}, home.options_at("2026-11-27T09:00:00Z"));
    for (const auto &action : consolidated["actions"]) {
        CHECK(action["kind"] != "promote");
    }
    CHECK(json_of({"show", "--json", id}, home.options())["key"] == key);
}

TEST_CASE("show and config show answer --json with the whole record", "[e2e][json]") {
    const ScratchHome home{"json-records"};
    const auto config = json_of({"config", "show", "--json"}, home.options());
    CHECK(config["policies"]["decay"] == "collie-tiers");
    CHECK(config["settings"]["collie-tiers"]["keep"]["types"] ==
          nlohmann::json::array({"user", "feedback", "project", "reference"}));
    const std::string id = remembered(home, {"--tags", "git", "Commit messages are in English."})["id"];
    const auto shown = json_of({"show", "--json", id}, home.options());
    CHECK(shown["tags"] == nlohmann::json::array({"git"}));
    CHECK(shown["type"] == "feedback");
    CHECK_THAT(shown["body"].get<std::string>(), Catch::Contains("Commit messages are in English."));
    CHECK(shown["other_fields"].is_object());
}
