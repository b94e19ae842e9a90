// SPDX-License-Identifier: Apache-2.0
// The store is the user's alone: what Starling creates is private whatever the umask, and a store,
// configuration or plugin folder that every user can change is refused — through the real binaries.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

namespace {

/// A group other than the one the user's files get by default, that this process may give a folder:
/// any group when it runs as root, else one of its supplementary groups. Nothing if there is none.
std::optional<gid_t> foreign_group() {
    if (::geteuid() == 0) {
        const group *entry = ::getgrnam("nogroup");
        return entry != nullptr ? std::optional<gid_t>{entry->gr_gid} : std::nullopt;
    }
    std::vector<gid_t> groups(static_cast<std::size_t>(::getgroups(0, nullptr)));
    groups.resize(static_cast<std::size_t>(::getgroups(static_cast<int>(groups.size()), groups.data())));
    for (const gid_t candidate : groups) {
        if (candidate != ::getegid()) {
            return candidate;
        }
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("a store, a folder of it or a configuration that its group can write or another user owns is refused, "
          "and hooks ignore it with a warning",
          "[e2e][privacy]") {
    const ScratchHome home{"privacy-group"};
    REQUIRE(run_process(kStarling, {"remember", "--force", "Deploys go out on Tuesdays."}, home.options()).exit_code ==
            0);
    const auto gid = foreign_group();
    if (!gid) {
        WARN("no group to give a folder but the user's own: group-writable folders are not tested");
        return;
    }
    const auto short_folder = home.path() / "memory/user/short";
    REQUIRE(::chown(short_folder.c_str(), static_cast<uid_t>(-1), *gid) == 0);
    fs::permissions(short_folder, fs::perms::group_write, fs::perm_options::add);
    const auto listed = run_process(kStarling, {"list"}, home.options());
    CHECK(listed.exit_code == 1);
    CHECK_THAT(listed.stderr_text, Catch::Contains("memory/user/short") && Catch::Contains("writable by its group") &&
                                       Catch::Contains("chmod g-w"));
    const std::string prompt = R"({"conversation_id":"c-1","generation_id":"g-1","hook_event_name":"beforeSubmitPrompt",)"
                               R"("workspace_roots":["/work/app"],"prompt":"when do deploys go out?","attachments":[]})";
    const auto hook = run_process(kBinaries / "starling-cursor", {"beforeSubmitPrompt"}, home.options(prompt));
    CHECK(hook.exit_code == 0);
    CHECK_THAT(hook.stdout_text, !Catch::Contains("Tuesdays")); // nothing of a store others can change is injected
    CHECK_THAT(hook.stderr_text, Catch::Contains("writable by its group"));
    const auto doctor = run_process(kStarling, {"doctor"}, home.options());
    CHECK(doctor.exit_code == 1);
    CHECK_THAT(doctor.stdout_text, Catch::Contains("chmod g-w '" + short_folder.string() + "'"));
    fs::permissions(short_folder, fs::perms::group_write, fs::perm_options::remove);
    CHECK(run_process(kStarling, {"list"}, home.options()).exit_code == 0);

    // A configuration its group can write is refused the same way.
    const auto config = home.write_file("home/starling.toml", "[log]\nlevel = \"info\"\n");
    REQUIRE(::chown(config.c_str(), static_cast<uid_t>(-1), *gid) == 0);
    fs::permissions(config, fs::perms::group_write, fs::perm_options::add);
    const auto configured = run_process(kStarling, {"list"}, home.options());
    CHECK(configured.exit_code == 1);
    CHECK_THAT(configured.stderr_text, Catch::Contains("starling.toml") && Catch::Contains("writable by its group"));
    fs::permissions(config, fs::perms::group_write, fs::perm_options::remove);

    if (::geteuid() != 0) {
        WARN("not root: a folder owned by another user is not tested");
        return;
    }
    const passwd *nobody = ::getpwnam("nobody");
    REQUIRE(nobody != nullptr);
    REQUIRE(::chown(short_folder.c_str(), nobody->pw_uid, static_cast<gid_t>(-1)) == 0);
    const auto owned = run_process(kStarling, {"list"}, home.options());
    CHECK(owned.exit_code == 1);
    CHECK_THAT(owned.stderr_text, Catch::Contains("owned by another user") && Catch::Contains("chown -R"));
}

TEST_CASE("a folder its owner's private group can write is no one else's, and is used", "[e2e][privacy]") {
    // A user-private-group system's umask 002 makes every folder group-writable, by a group of one.
    const ScratchHome home{"privacy-private-group"};
    REQUIRE(run_process(kStarling, {"remember", "--force", "Deploys go out on Tuesdays."}, home.options()).exit_code ==
            0);
    const passwd *me = ::getpwuid(::geteuid());
    const group *mine = me != nullptr ? ::getgrgid(me->pw_gid) : nullptr;
    if (mine == nullptr || std::string{mine->gr_name} != me->pw_name || (mine->gr_mem != nullptr && mine->gr_mem[0] != nullptr)) {
        WARN("the user's primary group is not a private group here: not tested");
        return;
    }
    const auto short_folder = home.path() / "memory/user/short";
    REQUIRE(::chown(short_folder.c_str(), static_cast<uid_t>(-1), me->pw_gid) == 0);
    fs::permissions(short_folder, fs::perms::group_write, fs::perm_options::add);
    const auto listed = run_process(kStarling, {"list"}, home.options());
    CHECK(listed.exit_code == 0);
    CHECK_THAT(listed.stdout_text, Catch::Contains("Tuesdays"));
}
