// SPDX-License-Identifier: Apache-2.0
// The real `starling` binary helping its user: the short usage, per-command help, suggestions for
// what was mistyped, shell completions run in the real shells, manual pages read by groff, and
// the hook binaries answering --help and --version.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};
const fs::path kStarling = kBinaries / "starling";

/// Writes `starling completion SHELL` into the scratch home and returns its path.
fs::path completion_file(const ScratchHome &home, const std::string &shell) {
    const auto script = run_process(kStarling, {"completion", shell}, home.options());
    REQUIRE(script.exit_code == 0);
    const fs::path file = home.path() / ("completion." + shell);
    std::ofstream{file} << script.stdout_text;
    return file;
}

/// What bash's completion offers for the command line `words`, the last word being completed.
std::vector<std::string> bash_offers(const fs::path &script, const std::vector<std::string> &words) {
    std::string line{"source '" + script.string() + "'; COMP_WORDS=("};
    for (const auto &word : words) {
        line.append(" '").append(word).append("'");
    }
    line.append(" ); COMP_CWORD=" + std::to_string(words.size() - 1) +
                "; _starling; printf '%s\\n' \"${COMPREPLY[@]}\"");
    const auto result = run_process("/bin/bash", {"--norc", "-c", line});
    REQUIRE(result.exit_code == 0);
    CHECK(result.stderr_text.empty());
    std::vector<std::string> offers;
    std::istringstream lines{result.stdout_text};
    for (std::string offer; std::getline(lines, offer);) {
        if (!offer.empty()) {
            offers.push_back(offer);
        }
    }
    return offers;
}

/// What fish's completion offers for `line` (fish prints each as "word<TAB>description").
std::string fish_offers(const fs::path &script, const std::string &line) {
    const auto result = run_process("/usr/bin/fish", {"--no-config", "-c", "source '" + script.string() +
                                                                           "'; complete -C '" + line + "'"});
    REQUIRE(result.exit_code == 0);
    CHECK(result.stderr_text.empty());
    return result.stdout_text;
}

} // namespace

TEST_CASE("starling alone prints a short usage on stderr and exits 64", "[cli][help]") {
    const ScratchHome home{"bare"};
    const auto bare = run_process(kStarling, {}, home.options());
    CHECK(bare.exit_code == 64);
    CHECK(bare.stdout_text.empty());
    CHECK_THAT(bare.stderr_text, Catch::StartsWith("usage: starling") && Catch::Contains("starling --help"));
    CHECK(bare.stderr_text.size() < 600);
}

TEST_CASE("help COMMAND is COMMAND --help: a description, options with defaults and examples", "[cli][help]") {
    const ScratchHome home{"help-command"};
    const auto by_help = run_process(kStarling, {"help", "search"}, home.options());
    const auto by_option = run_process(kStarling, {"search", "--help"}, home.options());
    CHECK(by_help.exit_code == 0);
    CHECK(by_help.stdout_text == by_option.stdout_text);
    CHECK_THAT(by_help.stdout_text, Catch::Contains("--limit N") && Catch::Contains("default: 10") &&
                                        Catch::Contains("Examples:") && Catch::Contains("starling search "));
    // The note on MEMORY only under the commands that take one.
    CHECK_THAT(run_process(kStarling, {"show", "--help"}, home.options()).stdout_text, Catch::Contains("MEMORY is"));
    CHECK_THAT(by_help.stdout_text, !Catch::Contains("MEMORY is"));

    const auto unknown = run_process(kStarling, {"help", "serch"}, home.options());
    CHECK(unknown.exit_code == 64);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("no command 'serch'; did you mean 'search'?"));
}

TEST_CASE("a mistyped option or agent name gets the closest one", "[cli][help]") {
    const ScratchHome home{"did-you-mean"};
    const auto option = run_process(kStarling, {"search", "--scpoe", "user", "tabs"}, home.options());
    CHECK(option.exit_code == 64);
    CHECK_THAT(option.stderr_text, Catch::Contains("unknown option --scpoe; did you mean '--scope'?"));

    const auto global = run_process(kStarling, {"--confg", "x.toml", "list"}, home.options());
    CHECK(global.exit_code == 64);
    CHECK_THAT(global.stderr_text, Catch::Contains("unknown option --confg; did you mean '--config'?"));

    const auto agent = run_process(kStarling, {"install", "--dry-run", "claud-code"}, home.options());
    CHECK(agent.exit_code == 64);
    CHECK_THAT(agent.stderr_text, Catch::Contains("unknown agent 'claud-code'") &&
                                      Catch::Contains("did you mean 'claude-code'?"));
}

TEST_CASE("the bash completion offers commands, subcommands, options and their values", "[cli][completion]") {
    const ScratchHome home{"bash-completion"};
    const auto script = completion_file(home, "bash");
    using Catch::Matchers::VectorContains;
    CHECK_THAT(bash_offers(script, {"starling", "sea"}), VectorContains(std::string{"search"}));
    CHECK_THAT(bash_offers(script, {"starling", "search", "--sc"}), VectorContains(std::string{"--scope"}));
    CHECK(bash_offers(script, {"starling", "search", "--scope", ""}) ==
          std::vector<std::string>{"user", "project", "all"});
    CHECK(bash_offers(script, {"starling", "config", ""}) == std::vector<std::string>{"show", "check"});
    CHECK_THAT(bash_offers(script, {"starling", "config", "show", "--"}), VectorContains(std::string{"--json"}));
    CHECK_THAT(bash_offers(script, {"starling", "install", "co"}),
               VectorContains(std::string{"codex"}) && VectorContains(std::string{"copilot"}));
    CHECK_THAT(bash_offers(script, {"starling", "--config", "x.toml", "inject", "--event", "s"}),
               VectorContains(std::string{"session-start"}));
    CHECK_THAT(bash_offers(script, {"starling", "import", ""}), VectorContains(std::string{"history"}));
    CHECK_THAT(bash_offers(script, {"starling", "import", "history", "--"}), VectorContains(std::string{"--since"}));
}

TEST_CASE("the fish completion offers what the bash one does, and the zsh one is valid zsh", "[cli][completion]") {
    const ScratchHome home{"fish-zsh-completion"};
    const auto fish = completion_file(home, "fish");
    CHECK_THAT(fish_offers(fish, "starling sea"), Catch::Contains("search\tmemories relevant to QUERY"));
    CHECK_THAT(fish_offers(fish, "starling search --sc"), Catch::Contains("--scope"));
    CHECK_THAT(fish_offers(fish, "starling search --scope "), Catch::Contains("user") && Catch::Contains("all"));
    CHECK_THAT(fish_offers(fish, "starling config "), Catch::Contains("show") && Catch::Contains("check"));
    CHECK_THAT(fish_offers(fish, "starling profile use "), Catch::Contains("collie"));
    CHECK_THAT(fish_offers(fish, "starling config show --"), Catch::Contains("--json"));

    const auto zsh = completion_file(home, "zsh");
    const auto parsed = run_process("/usr/bin/zsh", {"-n", zsh.string()});
    CHECK(parsed.exit_code == 0);
    CHECK(parsed.stderr_text.empty());

    const auto unknown = run_process(kStarling, {"completion", "powershell"}, home.options());
    CHECK(unknown.exit_code == 64);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("expected bash, zsh or fish"));
}

TEST_CASE("the manual pages render without a groff warning", "[cli][man]") {
    const ScratchHome home{"man-pages"};
    const fs::path directory = home.path() / "man";
    const auto written = run_process(kStarling, {"man-pages", directory.string()}, home.options());
    REQUIRE(written.exit_code == 0);
    std::size_t pages = 0;
    for (const auto &file : fs::directory_iterator{directory}) {
        ++pages;
        INFO(file.path());
        const auto rendered = run_process("/usr/bin/groff", {"-man", "-ww", "-Tutf8", "-P-bou", file.path().string()});
        CHECK(rendered.exit_code == 0);
        CHECK(rendered.stderr_text.empty());
        CHECK_THAT(rendered.stdout_text, Catch::Contains("NAME"));
        // A request that reached the text instead of groff (".fi" guarded by mistake) shows as a line.
        CHECK_FALSE(std::regex_search(rendered.stdout_text, std::regex{R"(\n\s*\.[A-Za-z]{1,2}\n)"}));
    }
    CHECK(pages == 7);
    const auto main_page = run_process("/usr/bin/groff", {"-man", "-Tutf8", "-P-bou", (directory / "starling.1").string()});
    CHECK_THAT(main_page.stdout_text, Catch::Contains("starling-memories(1)"));
}

TEST_CASE("a hook binary run by hand answers --help and --version instead of waiting for a payload",
          "[cli][help][hooks]") {
    const ScratchHome home{"hook-help"};
    for (const char *hook : {"starling-claude", "starling-codex", "starling-hook"}) {
        INFO(hook);
        const auto help = run_process(kBinaries / hook, {"--help"}, home.options());
        CHECK(help.exit_code == 0);
        CHECK_THAT(help.stdout_text, Catch::StartsWith(std::string{"Usage: "} + hook) &&
                                         Catch::Contains("starling install AGENT"));
        const auto version = run_process(kBinaries / hook, {"--version"}, home.options());
        CHECK(version.exit_code == 0);
        CHECK(version.stdout_text == std::string{hook} + " (starling) " STARLING_TEST_PROJECT_VERSION "\n");
    }
    CHECK_FALSE(fs::exists(home.path() / "memory"));
}

TEST_CASE("remember - reads the text from standard input", "[cli][remember]") {
    const ScratchHome home{"remember-stdin"};
    const auto stored = run_process(kStarling, {"remember", "--force", "-"},
                                    home.options("Always run the linter before committing.\n"));
    REQUIRE(stored.exit_code == 0);
    const auto listed = run_process(kStarling, {"list"}, home.options());
    CHECK_THAT(listed.stdout_text, Catch::Contains("Always run the linter before committing."));
    CHECK_THAT(listed.stdout_text, !Catch::Contains("\n    -\n"));

    const auto empty = run_process(kStarling, {"remember", "-"}, home.options(""));
    CHECK(empty.exit_code == 64);
    CHECK_THAT(empty.stderr_text, Catch::Contains("read no TEXT from standard input"));
}

TEST_CASE("restore takes the id forget printed, as well as the archive id", "[cli][restore]") {
    const ScratchHome home{"restore-by-id"};
    REQUIRE(run_process(kStarling, {"remember", "--force", "Deploys go through ArgoCD."}, home.options()).exit_code == 0);
    const auto listed = run_process(kStarling, {"list", "--json"}, home.options());
    const auto id = listed.stdout_text.substr(listed.stdout_text.find("\"id\": \"") + 7, 7);
    REQUIRE(run_process(kStarling, {"forget", id}, home.options()).exit_code == 0);
    CHECK_THAT(run_process(kStarling, {"list"}, home.options()).stdout_text, Catch::Contains("no memories"));

    const auto restored = run_process(kStarling, {"restore", id.substr(0, 5)}, home.options());
    CHECK(restored.exit_code == 0);
    CHECK_THAT(restored.stdout_text, Catch::StartsWith("restored "));
    CHECK_THAT(run_process(kStarling, {"list"}, home.options()).stdout_text, Catch::Contains("ArgoCD"));

    // Restored once, the id names no archived memory any more.
    const auto again = run_process(kStarling, {"restore", id}, home.options());
    CHECK(again.exit_code == 1);
    CHECK_THAT(again.stderr_text, Catch::Contains("no archived memory '" + id + "'"));
}

TEST_CASE("list --all shows every project's memories, list alone only this project's", "[cli][list]") {
    const ScratchHome home{"list-all"};
    const fs::path shop = home.path() / "shop";
    const fs::path blog = home.path() / "blog";
    fs::create_directories(shop);
    fs::create_directories(blog);
    for (const auto &[project, text] : {std::pair{shop, "The shop deploys with Helm."},
                                        std::pair{blog, "The blog is built with Hugo."}}) {
        REQUIRE(run_process(kStarling, {"remember", "--force", "--scope", "project", "--cwd", project.string(), text},
                            home.options())
                    .exit_code == 0);
    }
    const auto here = run_process(kStarling, {"list", "--cwd", shop.string()}, home.options());
    CHECK_THAT(here.stdout_text, Catch::Contains("Helm") && !Catch::Contains("Hugo"));
    const auto every = run_process(kStarling, {"list", "--all", "--cwd", shop.string()}, home.options());
    CHECK(every.exit_code == 0);
    CHECK_THAT(every.stdout_text, Catch::Contains("Helm") && Catch::Contains("Hugo"));

    const auto both = run_process(kStarling, {"list", "--all", "--scope", "user"}, home.options());
    CHECK(both.exit_code == 64);
    CHECK_THAT(both.stderr_text, Catch::Contains("--all lists every scope"));
}

TEST_CASE("config check without a file checks the active configuration", "[cli][config]") {
    const ScratchHome home{"config-check-active"};
    const auto none = run_process(kStarling, {"config", "check"}, home.options());
    CHECK(none.exit_code == 0);
    CHECK_THAT(none.stdout_text, Catch::Contains("starling.toml: no such file; the embedded defaults are in use"));

    std::ofstream{home.path() / "starling.toml"} << "[injection]\nmin_relevanse = 0.3\n";
    const auto typo = run_process(kStarling, {"config", "check"}, home.options());
    CHECK(typo.exit_code == 1);
    CHECK_THAT(typo.stdout_text + typo.stderr_text, Catch::Contains("starling.toml") && Catch::Contains("min_relevanse"));

    std::ofstream{home.path() / "other.toml"} << "[injection]\nmin_relevance = 0.3\n";
    const auto given =
        run_process(kStarling, {"--config", (home.path() / "other.toml").string(), "config", "check"}, home.options());
    CHECK(given.exit_code == 0);
    CHECK_THAT(given.stdout_text, Catch::Contains("other.toml: ok"));
}
