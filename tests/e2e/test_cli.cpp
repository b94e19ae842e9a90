// SPDX-License-Identifier: Apache-2.0
// The real `starling` binary, run as a user would run it.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <starling/sdk/abi.h>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";
const fs::path kFixtures{STARLING_TEST_FIXTURE_PLUGIN_DIR};
const fs::path kModules{STARLING_TEST_PLUGIN_MODULE_DIR};
const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

} // namespace

TEST_CASE("the version option names the release and the plugin ABI", "[cli]") {
    const auto result = run_process(kStarling, {"--version"});
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text == "starling " STARLING_TEST_PROJECT_VERSION " (plugin ABI " +
                                    std::to_string(STARLING_ABI_MAJOR) + "." + std::to_string(STARLING_ABI_MINOR) +
                                    ")\n");
}

TEST_CASE("the help option lists the commands, and a wrong command line exits 64 with a hint", "[cli]") {
    const auto help = run_process(kStarling, {"--help"});
    CHECK(help.exit_code == 0);
    CHECK_THAT(help.stdout_text, Catch::Contains("plugins") && Catch::Contains("config check"));

    const ScratchHome home{"usage"};
    const auto unknown = run_process(kStarling, {"frobnicate"}, home.options());
    CHECK(unknown.exit_code == 64);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("unknown command 'frobnicate'"));

    const auto bad_option = run_process(kStarling, {"plugins", "--jsn"}, home.options());
    CHECK(bad_option.exit_code == 64);
    CHECK_THAT(bad_option.stderr_text, Catch::Contains("unknown option --jsn"));
}

TEST_CASE("plugins lists kind, id, version and origin of every plugin", "[cli][plugins]") {
    const ScratchHome home{"plugins"};
    SECTION("only the static plugins when no module is installed") {
        const auto result = run_process(kStarling, {"plugins"}, home.options());
        CHECK(result.exit_code == 0);
        CHECK_THAT(result.stdout_text, Catch::Contains("KIND") && Catch::Contains("SOURCE"));
        CHECK_THAT(result.stdout_text, Catch::Matches("(.|\n)*relevance +collie-search +1\\.0\\.0 +static\n(.|\n)*"));
    }
    SECTION("a module in the plugin directory is listed with its path") {
        fs::create_directories(home.path() / "plugins");
        fs::copy_file(kFixtures / "throws_in_call.so", home.path() / "plugins" / "starling-throws.so");
        const auto result = run_process(kStarling, {"plugins", "--json"}, home.options());
        CHECK(result.exit_code == 0);
        CHECK_THAT(result.stdout_text, Catch::Contains("\"id\": \"throws-in-call\""));
        CHECK_THAT(result.stdout_text, Catch::Contains((home.path() / "plugins" / "starling-throws.so").string()));
    }
    SECTION("installed copies of the linked-in plugins are noted, and nothing fails") {
        fs::create_directories(home.path() / "plugins");
        for (const auto &module : fs::directory_iterator(kModules)) {
            if (module.path().extension() == ".so") {
                fs::copy_file(module.path(), home.path() / "plugins" / module.path().filename());
            }
        }
        const auto result = run_process(kStarling, {"plugins"}, home.options());
        CHECK(result.exit_code == 0);
        CHECK(result.stderr_text.empty());
        CHECK_THAT(result.stdout_text, Catch::Contains("starling-collie-search.so is a copy of collie-search"));
        const auto config = home.write_file("starling.toml", "[plugins]\ndirectories = [\"" +
                                                                 (home.path() / "plugins").string() + "\"]\n");
        const auto checked = run_process(kStarling, {"config", "check", config.string()}, home.options());
        CHECK(checked.exit_code == 0);
        CHECK_THAT(checked.stdout_text, Catch::Contains(": ok"));
        const auto hook = run_process(kBinaries / "starling-claude", {"UserPromptSubmit"},
                                      home.options(R"({"session_id":"s","hook_event_name":"UserPromptSubmit",)"
                                                   R"("cwd":"/tmp","prompt":"hello"})"));
        CHECK(hook.exit_code == 0);
        CHECK(hook.stderr_text.empty());
    }
    SECTION("another version of a linked-in plugin is reported, and plugins and config check both fail") {
        fs::create_directories(home.path() / "plugins");
        fs::copy_file(kFixtures / "other_bm25.so", home.path() / "plugins" / "starling-bm25.so");
        const auto result = run_process(kStarling, {"plugins"}, home.options());
        CHECK(result.exit_code == 1);
        CHECK_THAT(result.stdout_text, Catch::Contains("static"));
        CHECK_THAT(result.stderr_text, Catch::Contains("duplicate id") && Catch::Contains("starling-bm25.so"));
        const auto config = home.write_file("starling.toml", "[plugins]\ndirectories = [\"" +
                                                                 (home.path() / "plugins").string() + "\"]\n");
        const auto checked = run_process(kStarling, {"config", "check", config.string()}, home.options());
        CHECK(checked.exit_code == 1);
        CHECK_THAT(checked.stdout_text, Catch::Contains("error: ") && Catch::Contains("starling-bm25.so"));
    }
    SECTION("a broken module is reported with its typed error") {
        fs::create_directories(home.path() / "plugins");
        fs::copy_file(kFixtures / "wrong_major.so", home.path() / "plugins" / "starling-old.so");
        const auto result = run_process(kStarling, {"plugins"}, home.options());
        CHECK(result.exit_code == 1);
        CHECK_THAT(result.stderr_text, Catch::Contains("starling-old.so") && Catch::Contains("plugin ABI 2.0, host ABI " + std::to_string(STARLING_ABI_MAJOR) + "." +
                                                          std::to_string(STARLING_ABI_MINOR)));
        std::ifstream log(home.path() / "logs" / "starling.log");
        const std::string logged{std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>()};
        CHECK_THAT(logged, Catch::Contains("error plugin-host:") && Catch::Contains("starling-old.so"));
    }
}

TEST_CASE("config check names file, line and key of a typo", "[cli][config]") {
    const ScratchHome home{"config-check"};
    const auto file = home.write_file("typo.toml", "[budgets]\ninject_tokenz = 10\n");
    const auto result = run_process(kStarling, {"config", "check", file.string()}, home.options());
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.stdout_text, Catch::Contains(file.string() + ":2:1: budgets.inject_tokenz"));
    CHECK_THAT(result.stdout_text, Catch::Contains("did you mean 'budgets.inject_tokens'"));

    const auto good = home.write_file("good.toml", "[budgets]\ninject_tokens = 900\n[settings.collie-search]\n"
                                                   "case_sensitive = true\n");
    const auto ok = run_process(kStarling, {"config", "check", good.string()}, home.options());
    CHECK(ok.exit_code == 0);
    CHECK_THAT(ok.stdout_text, Catch::Contains(": ok"));

    const auto bad_setting = home.write_file("setting.toml", "[settings.collie-search]\ncase_sensitive = 3\n");
    const auto rejected = run_process(kStarling, {"config", "check", bad_setting.string()}, home.options());
    CHECK(rejected.exit_code == 1);
    CHECK_THAT(rejected.stdout_text, Catch::Contains(":2:") && Catch::Contains("settings.collie-search.case_sensitive"));
}

TEST_CASE("config show prints the effective configuration, the file's values and plugin settings", "[cli][config]") {
    const ScratchHome home{"config-show"};
    home.write_file("home/starling.toml", "[budgets]\ninject_tokens = 321\n[settings.collie-search]\ninclude_body = false\n");
    const auto result = run_process(kStarling, {"config", "show"}, home.options());
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.stdout_text, Catch::Contains("inject_tokens = 321"));
    CHECK_THAT(result.stdout_text, Catch::Contains("[settings.collie-search]"));
    CHECK_THAT(result.stdout_text, Catch::Contains("include_body = false"));
    CHECK_THAT(result.stdout_text, Catch::Contains("case_sensitive = false"));
}

TEST_CASE("an explicit --config that does not exist is an error, not silently the defaults", "[cli][config]") {
    const ScratchHome home{"config-missing"};
    const auto result = run_process(kStarling, {"--config", (home.path() / "nope.toml").string(), "config", "show"},
                                    home.options());
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.stderr_text, Catch::Contains("nope.toml"));
}


TEST_CASE("every command explains itself with --help, and nothing is stored or created for it", "[cli][help]") {
    const ScratchHome home{"command-help"};
    for (const char *command : {"remember", "classify", "search", "list", "show", "forget", "archive", "restore",
                                "consolidate", "index", "inject", "wait", "install", "uninstall", "plugins",
                                "config", "doctor", "scan", "import", "export", "health", "profile"}) {
        INFO(command);
        const auto help = run_process(kStarling, {command, "--help"}, home.options());
        CHECK(help.exit_code == 0);
        CHECK_THAT(help.stdout_text, Catch::StartsWith(std::string{"Usage: starling "} + command));
    }
    const auto short_form = run_process(kStarling, {"remember", "-h"}, home.options());
    CHECK(short_form.exit_code == 0);
    CHECK_THAT(short_form.stdout_text, Catch::Contains("--force") && Catch::Contains("--cwd DIR"));
    CHECK_FALSE(fs::exists(home.path() / "memory"));
}

TEST_CASE("a double dash ends the options, a type is one Starling knows, and a misspelt command gets a suggestion",
          "[cli][help]") {
    const ScratchHome home{"command-line"};
    const auto stored = run_process(kStarling, {"remember", "--force", "--json", "--", "-----BEGIN NOTE----- keep it"},
                                    home.options());
    REQUIRE(stored.exit_code == 0);
    CHECK(nlohmann::json::parse(stored.stdout_text)["action"] == "created");
    const auto literal_help = run_process(kStarling, {"remember", "--force", "--", "-h"}, home.options());
    CHECK(literal_help.exit_code == 0);
    CHECK_THAT(literal_help.stdout_text, Catch::StartsWith("created "));

    const auto banana = run_process(kStarling, {"remember", "--force", "--type", "banana", "bananas are yellow"},
                                    home.options());
    CHECK(banana.exit_code == 64);
    CHECK_THAT(banana.stderr_text, Catch::Contains("--type must be feedback, user, project or reference, not 'banana'"));

    const auto misspelt = run_process(kStarling, {"lisst"}, home.options());
    CHECK(misspelt.exit_code == 64);
    CHECK_THAT(misspelt.stderr_text, Catch::Contains("unknown command 'lisst'; did you mean 'list'?"));
}

TEST_CASE("inject takes the prompt as typed, as search takes its query, or as --prompt, never both", "[cli]") {
    const ScratchHome home{"inject-words"};
    REQUIRE(run_process(kStarling, {"remember", "--force", "Always run golangci-lint before committing Go code."},
                        home.options())
                .exit_code == 0);
    const auto as_words = run_process(kStarling, {"inject", "lint", "the", "code"}, home.options());
    CHECK(as_words.exit_code == 0);
    CHECK_THAT(as_words.stdout_text, Catch::Contains("Always run golangci-lint before committing Go code."));
    const auto as_option = run_process(kStarling, {"inject", "--prompt", "lint the code"}, home.options());
    CHECK(as_option.exit_code == 0);
    CHECK(as_option.stdout_text == as_words.stdout_text);

    const auto both = run_process(kStarling, {"inject", "--prompt", "lint the code", "again"}, home.options());
    CHECK(both.exit_code == 64);
    CHECK_THAT(both.stderr_text, Catch::Contains("--prompt TEXT or as its words, not both (unexpected 'again')"));
    const auto none = run_process(kStarling, {"inject"}, home.options());
    CHECK(none.exit_code == 64);
    CHECK_THAT(none.stderr_text, Catch::Contains("needs the prompt: starling inject TEXT, or --prompt TEXT"));
    const auto start_with_words = run_process(kStarling, {"inject", "--event", "session-start", "lint"}, home.options());
    CHECK(start_with_words.exit_code == 64);
    CHECK_THAT(start_with_words.stderr_text, Catch::Contains("unexpected argument 'lint'"));
    const auto start_with_prompt =
        run_process(kStarling, {"inject", "--event", "session-start", "--prompt", "lint"}, home.options());
    CHECK(start_with_prompt.exit_code == 64);
    CHECK_THAT(start_with_prompt.stderr_text, Catch::Contains("--prompt is for --event prompt"));
}

TEST_CASE("a project is its repository: memories remembered at its root are seen from any folder inside",
          "[cli][project]") {
    const ScratchHome home{"project-repository"};
    const auto repo = home.path().parent_path() / "repo";
    fs::create_directories(repo / ".git");
    fs::create_directories(repo / "src" / "net");
    const auto stored = run_process(kStarling,
                                    {"remember", "--force", "--scope", "project", "--cwd", repo.string(),
                                     "This project builds with CMake presets."},
                                    home.options());
    REQUIRE(stored.exit_code == 0);
    const auto listed = run_process(kStarling, {"list", "--scope", "project", "--cwd", (repo / "src" / "net").string()},
                                    home.options());
    CHECK(listed.exit_code == 0);
    CHECK_THAT(listed.stdout_text, Catch::Contains("CMake presets"));
}

TEST_CASE("a STARLING_HOME that is relative or a file is refused with what is wrong, and nothing is created",
          "[cli][home]") {
    const ScratchHome home{"home-unusable"};
    fs::create_directories(home.path());
    auto options = home.options();
    options.working_directory = home.path();
    options.environment["STARLING_HOME"] = "relative-store";
    const auto relative = run_process(kStarling, {"remember", "--force", "keep the store in one place"}, options);
    CHECK(relative.exit_code == 1);
    CHECK_THAT(relative.stderr_text, Catch::Contains("STARLING_HOME is the relative path 'relative-store'"));
    CHECK_FALSE(fs::exists(home.path() / "relative-store"));

    const auto file = home.write_file("a-file", "not a store\n");
    options.environment["STARLING_HOME"] = file.string();
    const auto listed = run_process(kStarling, {"list"}, options);
    CHECK(listed.exit_code == 1);
    CHECK_THAT(listed.stderr_text, Catch::Contains("STARLING_HOME '" + file.string() + "' is not a directory"));
}

TEST_CASE("commands that only read never create a project folder", "[cli][project]") {
    const ScratchHome home{"project-read-only"};
    const auto repo = home.path().parent_path() / "read-only-repo";
    fs::create_directories(repo / ".git");
    REQUIRE(run_process(kStarling, {"remember", "--force", "a memory for the user scope"}, home.options()).exit_code ==
            0);
    const std::vector<std::vector<std::string>> readers = {
        {"list", "--cwd", repo.string()},
        {"list", "--scope", "project", "--cwd", repo.string()},
        {"search", "memory", "--cwd", repo.string()},
        {"index", "--cwd", repo.string()},
        {"inject", "--event", "session-start", "--cwd", repo.string()},
        {"inject", "--event", "prompt", "--prompt", "a memory", "--cwd", repo.string()},
    };
    for (const auto &command : readers) {
        INFO(command.front());
        CHECK(run_process(kStarling, command, home.options()).exit_code == 0);
    }
    const auto projects = home.path() / "memory" / "projects";
    CHECK((!fs::exists(projects) || fs::is_empty(projects)));
    REQUIRE(run_process(kStarling,
                        {"remember", "--force", "--scope", "project", "--cwd", repo.string(), "a project rule"},
                        home.options())
                .exit_code == 0);
    CHECK(fs::exists(projects));
    CHECK_FALSE(fs::is_empty(projects));
}

TEST_CASE("a memory whose frontmatter a hand edit broke is named, with why, by every command that skips it",
          "[cli][store]") {
    const ScratchHome home{"broken-frontmatter"};
    const auto stored =
        run_process(kStarling, {"remember", "--force", "--json", "deploys go out on tuesdays"}, home.options());
    REQUIRE(stored.exit_code == 0);
    const std::string key = nlohmann::json::parse(stored.stdout_text)["key"];
    {
        std::ofstream broken(home.path() / key, std::ios::trunc);
        broken << "---\nname: deploys\ndescription: [unclosed\n---\ndeploys go out on tuesdays\n";
    }
    const std::vector<std::vector<std::string>> commands = {
        {"list"},
        {"search", "deploys"},
        {"inject", "--event", "prompt", "--prompt", "when do deploys go out"},
        {"index"},
        {"consolidate", "--dry-run"},
    };
    for (const auto &command : commands) {
        INFO(command.front());
        const auto result = run_process(kStarling, command, home.options());
        CHECK(result.exit_code == 0);
        CHECK_THAT(result.stderr_text, Catch::Contains("skipped " + key) && Catch::Contains("cannot be read as a memory"));
    }
    const auto log = starling::test::read_text(home.path() / "logs" / "starling.log");
    CHECK_THAT(log, Catch::Contains("skipped " + key));
}

TEST_CASE("a link or a FIFO planted in the store is reported, never followed, shown or archived", "[cli][store]") {
    const ScratchHome home{"planted-link"};
    const auto stored = run_process(kStarling, {"remember", "--force", "--json", "the staging host is stg-1"}, home.options());
    REQUIRE(stored.exit_code == 0);
    const fs::path folder = (home.path() / nlohmann::json::parse(stored.stdout_text)["key"].get<std::string>()).parent_path();
    const fs::path secret = home.path() / "outside-the-store.txt";
    std::ofstream(secret) << "---\nname: planted\ndescription: not a memory\n---\nroot:x:0:0:the target of the link\n";
    fs::create_symlink(secret, folder / "2026-01-01_planted.md");
    REQUIRE(::mkfifo((folder / "2026-01-02_fifo.md").c_str(), 0600) == 0);
    const std::string link_key = "memory/user/" + folder.filename().string() + "/2026-01-01_planted.md";
    const std::string fifo_key = "memory/user/" + folder.filename().string() + "/2026-01-02_fifo.md";

    for (const std::vector<std::string> &command : std::vector<std::vector<std::string>>{
             {"list"}, {"search", "root"}, {"inject", "--event", "prompt", "--prompt", "root target link"}}) {
        INFO(command.front());
        const auto result = run_process(kStarling, command, home.options());
        CHECK(result.exit_code == 0);
        CHECK_THAT(result.stdout_text, !Catch::Contains("planted") && !Catch::Contains("the target of the link"));
        CHECK_THAT(result.stderr_text, Catch::Contains("skipped " + link_key) && Catch::Contains("symbolic link"));
        CHECK_THAT(result.stderr_text, Catch::Contains("skipped " + fifo_key) && Catch::Contains("not a regular file"));
    }
    const auto show = run_process(kStarling, {"show", link_key}, home.options());
    CHECK(show.exit_code != 0);
    CHECK_THAT(show.stdout_text, !Catch::Contains("the target of the link"));
    CHECK_THAT(show.stderr_text, Catch::Contains("symbolic link"));

    const auto forget = run_process(kStarling, {"forget", link_key}, home.options());
    CHECK(forget.exit_code != 0);
    CHECK(fs::is_symlink(folder / "2026-01-01_planted.md"));
    const auto archive = home.path() / "archive";
    if (fs::exists(archive)) {
        for (const auto &entry : fs::recursive_directory_iterator(archive)) {
            if (entry.is_regular_file()) {
                CHECK_THAT(starling::test::read_text(entry.path()), !Catch::Contains("the target of the link"));
            }
        }
    }
    const auto doctor = run_process(kStarling, {"doctor"}, home.options());
    CHECK(doctor.exit_code == 1);
    CHECK_THAT(doctor.stdout_text, Catch::Contains(link_key) && Catch::Contains(fifo_key));
}

TEST_CASE("doctor says what is healthy, what is not and what to do, and exits 1 on a problem", "[cli][doctor]") {
    const ScratchHome home{"doctor"};
    SECTION("a fresh home is healthy") {
        const auto result = run_process(kStarling, {"doctor"}, home.options());
        CHECK(result.exit_code == 0);
        CHECK_THAT(result.stdout_text, Catch::Contains("embedded defaults") && Catch::Contains("0 memories readable") &&
                                           Catch::EndsWith("healthy\n"));
        REQUIRE(run_process(kStarling, {"remember", "--force", "tabs, not spaces"}, home.options()).exit_code == 0);
        CHECK_THAT(run_process(kStarling, {"doctor"}, home.options()).stdout_text, Catch::Contains("1 memory readable"));
    }
    SECTION("a broken configuration, a broken memory and a store others can write are each reported") {
        const auto stored = run_process(kStarling, {"remember", "--force", "--json", "tabs, not spaces"}, home.options());
        REQUIRE(stored.exit_code == 0);
        const std::string key = nlohmann::json::parse(stored.stdout_text)["key"];
        std::ofstream(home.path() / key, std::ios::trunc) << "---\nname: [broken\n---\ntabs\n";
        std::ofstream(home.path() / "starling.toml") << "[store]\nroot_typo = 1\n";
        fs::permissions(home.path() / "memory", fs::perms::others_write, fs::perm_options::add);

        const auto result = run_process(kStarling, {"doctor", "--json"}, home.options());
        CHECK(result.exit_code == 1);
        auto report = nlohmann::json::parse(result.stdout_text);
        CHECK(report["healthy"] == false);
        const auto problem_about = [&report](const std::string &area, const std::string &needle) {
            for (const auto &finding : report["findings"]) {
                if (finding["severity"] == "problem" && finding["area"] == area &&
                    (finding["subject"].get<std::string>() + finding["detail"].get<std::string>()).find(needle) !=
                        std::string::npos) {
                    return !finding["remedy"].get<std::string>().empty();
                }
            }
            return false;
        };
        CHECK(problem_about("configuration", "root_typo"));
        CHECK(problem_about("store", "every user can write"));
        // Starling refuses a store others can write, so its memories are looked at once that is mended.
        CHECK_FALSE(problem_about("memory", key));
        const auto text = run_process(kStarling, {"doctor"}, home.options());
        CHECK(text.exit_code == 1);
        CHECK_THAT(text.stdout_text, Catch::Contains("problem") && Catch::Contains("→ ") &&
                                         Catch::Contains("2 problem(s) to fix"));

        fs::permissions(home.path() / "memory", fs::perms::others_write, fs::perm_options::remove);
        report = nlohmann::json::parse(run_process(kStarling, {"doctor", "--json"}, home.options()).stdout_text);
        CHECK(problem_about("memory", key));
        CHECK_FALSE(problem_about("store", "every user can write"));
    }
    SECTION("what a dead process left is a problem until doctor --repair repairs it") {
        REQUIRE(run_process(kStarling, {"remember", "--force", "tabs, not spaces"}, home.options()).exit_code == 0);
        fs::create_directories(home.path() / "sessions");
        std::ofstream(home.path() / "sessions" / "s-1.jsonl", std::ios::binary) << "{\"text\":\"always use pn";
        fs::create_directories(home.path() / "archive" / "20261122T080000Z-aaaaaa");
        const auto found = run_process(kStarling, {"doctor"}, home.options());
        CHECK(found.exit_code == 1);
        CHECK_THAT(found.stdout_text, Catch::Contains("sessions/s-1.jsonl") && Catch::Contains("torn tail") &&
                                          Catch::Contains("empty archive folder") &&
                                          Catch::Contains("starling doctor --repair"));
        const auto repaired = run_process(kStarling, {"doctor", "--repair"}, home.options());
        CHECK(repaired.exit_code == 0);
        CHECK(run_process(kStarling, {"doctor"}, home.options()).exit_code == 0);
        CHECK_FALSE(fs::exists(home.path() / "archive" / "20261122T080000Z-aaaaaa"));
    }
    SECTION("a folder of memories that the group can write, or that another user owns, is a problem named with "
            "its remedy") {
        const auto stored = run_process(kStarling, {"remember", "--force", "--json", "tabs, not spaces"}, home.options());
        REQUIRE(stored.exit_code == 0);
        const auto folder = (home.path() / nlohmann::json::parse(stored.stdout_text)["key"].get<std::string>()).parent_path();
        fs::permissions(folder, fs::perms::group_write, fs::perm_options::add);
        auto report = nlohmann::json::parse(run_process(kStarling, {"doctor", "--json"}, home.options()).stdout_text);
        const auto problem_with = [&](const std::string &remedy) {
            return std::any_of(report["findings"].begin(), report["findings"].end(), [&](const nlohmann::json &finding) {
                return finding["severity"] == "problem" && finding["subject"] == folder.string() &&
                       finding["remedy"].get<std::string>().find(remedy) != std::string::npos;
            });
        };
        CHECK(report["healthy"] == false);
        CHECK(problem_with("chmod g-w '" + folder.string() + "'"));
        fs::permissions(folder, fs::perms::group_write, fs::perm_options::remove);
        if (::geteuid() == 0) { // only root can give a folder away
            REQUIRE(::chown(folder.c_str(), 65534, static_cast<gid_t>(-1)) == 0);
            report = nlohmann::json::parse(run_process(kStarling, {"doctor", "--json"}, home.options()).stdout_text);
            CHECK(problem_with("chown -R"));
            REQUIRE(::chown(folder.c_str(), 0, static_cast<gid_t>(-1)) == 0);
        }
        CHECK(run_process(kStarling, {"doctor"}, home.options()).exit_code == 0);
    }
    SECTION("an unusable STARLING_HOME is the one problem reported") {
        auto options = home.options();
        options.environment["STARLING_HOME"] = "relative";
        const auto result = run_process(kStarling, {"doctor"}, options);
        CHECK(result.exit_code == 1);
        CHECK_THAT(result.stdout_text, Catch::Contains("STARLING_HOME is the relative path 'relative'"));
    }
}
