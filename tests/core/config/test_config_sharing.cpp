// SPDX-License-Identifier: Apache-2.0
// `[sharing]`: the team folders Starling keeps up to date by itself (docs/sharing.md). Good values
// are read into the configuration; bad ones are errors naming the file, line and key; a listed
// directory that does not exist is a warning of `config check`.
#include <starling/core/config/config_error.hpp>
#include <starling/core/config/config_loader.hpp>

#include <support/config_temp_files.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::core::Config;
using starling::core::ConfigError;
using starling::test::ConfigTempDir;
using starling::test::injected_environment;

namespace {

std::string error_of(std::string_view text, const ConfigTempDir &dir) {
    try {
        static_cast<void>(starling::core::parse_config(text, "starling.toml", injected_environment(dir)));
    } catch (const ConfigError &error) {
        return error.what();
    }
    FAIL("expected a ConfigError for:\n" << text);
    return {};
}

std::vector<std::string> check_messages(const std::filesystem::path &file, const ConfigTempDir &dir) {
    std::vector<std::string> messages;
    for (const auto &issue : starling::core::check_config_file(file, injected_environment(dir))) {
        messages.push_back((issue.is_error() ? "error: " : "warning: ") + issue.message());
    }
    return messages;
}

} // namespace

TEST_CASE("Without [sharing] no team folder is kept, and proposing is on for when one is", "[config][sharing]") {
    ConfigTempDir dir;
    const Config defaults = starling::core::default_config(injected_environment(dir));
    CHECK(defaults.sharing.projects.empty());
    CHECK(defaults.sharing.propose);
}

TEST_CASE("[sharing] reads its projects as paths, ~ and relative ones expanded, and propose as a boolean",
          "[config][sharing]") {
    ConfigTempDir dir;
    const Config config = starling::core::parse_config(
        "[sharing]\nprojects = [\"~/code/app\", \"/srv/api\", \"web\"]\npropose = false\n",
        dir.path() / "conf" / "starling.toml", injected_environment(dir));
    REQUIRE(config.sharing.projects.size() == 3);
    CHECK(config.sharing.projects[0] == dir.path() / "home" / "code" / "app");
    CHECK(config.sharing.projects[1] == "/srv/api");
    CHECK(config.sharing.projects[2] == dir.path() / "conf" / "web");
    CHECK_FALSE(config.sharing.propose);
    CHECK(config.key_positions.at("sharing.propose") == starling::core::SourcePosition{3, 1});
}

TEST_CASE("A bad [sharing] value is an error naming the file, line and key", "[config][sharing]") {
    ConfigTempDir dir;
    CHECK(error_of("[sharing]\nprojects = \"~/code/app\"\n", dir) ==
          "starling.toml:2:12: sharing.projects: expected an array of strings, got a string");
    CHECK(error_of("[sharing]\nprojects = [\"~/code/app\", 7]\n", dir) ==
          "starling.toml:2:27: sharing.projects: expected an array of strings, but item 2 is an integer");
    CHECK(error_of("[sharing]\nprojects = [\"\"]\n", dir) ==
          "starling.toml:2:12: sharing.projects: item 1 is an empty string; expected a path");
    CHECK(error_of("[sharing]\npropose = \"yes\"\n", dir) ==
          "starling.toml:2:11: sharing.propose: expected a boolean, got a string");
    CHECK(error_of("[sharing]\npropose = 1\n", dir) ==
          "starling.toml:2:11: sharing.propose: expected a boolean, got an integer");
    CHECK_THAT(error_of("[sharing]\nteam_folder = \".starling/memory\"\n", dir),
               Catch::StartsWith("starling.toml:2:1: sharing.team_folder: unknown key"));
    CHECK_THAT(error_of("[sharng]\nprojects = []\n", dir), Catch::Contains("did you mean 'sharing'"));
}

TEST_CASE("config check warns of a listed project directory that does not exist, naming it", "[config][sharing]") {
    ConfigTempDir dir;
    std::filesystem::create_directories(dir.path() / "app");
    const auto file = dir.write("starling.toml", "[sharing]\npropose = true\nprojects = [\"app\", \"gone\"]\n");
    CHECK(check_messages(file, dir) ==
          std::vector<std::string>{"warning: " + file.string() + ":3:1: sharing.projects: project directory \"" +
                                   (dir.path() / "gone").string() + "\" does not exist; no team folder is kept for it"});
    const auto fine = dir.write("fine.toml", "[sharing]\nprojects = [\"app\"]\n");
    CHECK(check_messages(fine, dir).empty());
}
