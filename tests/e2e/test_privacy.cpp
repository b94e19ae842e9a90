// SPDX-License-Identifier: Apache-2.0
// The store is the user's alone: what Starling creates is private whatever the umask, and a store,
// configuration or plugin folder that every user can change is refused — through the real binaries.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};
const fs::path kStarling = kBinaries / "starling";

/// Runs with the loosest umask there is, as a user with `umask 000` in their shell would.
starling::test::ProcessResult run_with_open_umask(const fs::path &program, const std::vector<std::string> &arguments,
                                                  const starling::test::ProcessOptions &options) {
    const mode_t previous = ::umask(0);
    auto result = run_process(program, arguments, options);
    ::umask(previous);
    return result;
}

mode_t mode_of(const fs::path &path) {
    struct stat status {};
    REQUIRE(::stat(path.c_str(), &status) == 0);
    return status.st_mode & 07777;
}

} // namespace

TEST_CASE("everything Starling creates in its store is private, whatever the umask", "[e2e][privacy]") {
    const ScratchHome home{"privacy-umask"};
    const std::string prompt = R"({"session_id":"s-1","transcript_path":"/t","cwd":"/work/app",)"
                               R"("hook_event_name":"UserPromptSubmit","prompt":"Always write commit messages in English."})";
    REQUIRE(run_with_open_umask(kBinaries / "starling-claude", {"UserPromptSubmit"}, home.options(prompt)).exit_code ==
            0);
    const std::string stop = R"({"session_id":"s-1","cwd":"/work/app","hook_event_name":"Stop"})";
    REQUIRE(run_with_open_umask(kBinaries / "starling-claude", {"Stop"}, home.options(stop)).exit_code == 0);
    REQUIRE(home.wait_for_background_work() == 0);
    REQUIRE(run_with_open_umask(kStarling, {"remember", "--force", "Deploys go out on Tuesdays."}, home.options())
                .exit_code == 0);
    REQUIRE(run_with_open_umask(kStarling, {"index"}, home.options()).exit_code == 0);
    std::size_t files = 0;
    for (const auto &entry : fs::recursive_directory_iterator(home.path())) {
        INFO(entry.path());
        CHECK((mode_of(entry.path()) & 077) == 0);
        files += entry.is_regular_file() ? 1 : 0;
    }
    CHECK(files >= 6); // memories, session log and state, index, journal, log: all checked above
}

TEST_CASE("a store or configuration every user can write is refused, and hooks still reply", "[e2e][privacy]") {
    const ScratchHome home{"privacy-refused"};
    REQUIRE(run_process(kStarling, {"remember", "--force", "Deploys go out on Tuesdays."}, home.options()).exit_code ==
            0);
    fs::permissions(home.path(), fs::perms::others_write, fs::perm_options::add);
    const auto listed = run_process(kStarling, {"list"}, home.options());
    CHECK(listed.exit_code == 1);
    CHECK_THAT(listed.stderr_text, Catch::Contains("writable by every user") && Catch::Contains("chmod o-w"));
    const std::string prompt = R"({"conversation_id":"c-1","generation_id":"g-1","hook_event_name":"beforeSubmitPrompt",)"
                               R"("workspace_roots":["/work/app"],"prompt":"deploy?","attachments":[]})";
    const auto hook = run_process(kBinaries / "starling-cursor", {"beforeSubmitPrompt"}, home.options(prompt));
    CHECK(hook.exit_code == 0);
    CHECK(nlohmann::json::parse(hook.stdout_text)["continue"] == true);
    CHECK_THAT(hook.stderr_text, Catch::Contains("writable by every user"));
    const auto doctor = run_process(kStarling, {"doctor"}, home.options());
    CHECK(doctor.exit_code == 1);
    CHECK_THAT(doctor.stdout_text, Catch::Contains("every user can write"));
    fs::permissions(home.path(), fs::perms::others_write, fs::perm_options::remove);

    const auto config = home.path() / "starling.toml";
    home.write_file("home/starling.toml", "[log]\nlevel = \"info\"\n");
    fs::permissions(config, fs::perms::others_write, fs::perm_options::add);
    const auto configured = run_process(kStarling, {"list"}, home.options());
    CHECK(configured.exit_code == 1);
    CHECK_THAT(configured.stderr_text, Catch::Contains("starling.toml") && Catch::Contains("writable by every user"));
}
