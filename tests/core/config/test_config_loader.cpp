// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_error.hpp>
#include <starling/core/config/config_loader.hpp>
#include <starling/core/config/config_schema.hpp>

#include <support/config_temp_files.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

using starling::core::Config;
using starling::core::ConfigEnvironment;
using starling::core::ConfigError;
using starling::core::LogLevel;
using starling::test::config_fixture;
using starling::test::ConfigTempDir;
using starling::test::injected_environment;

namespace {

/// The error `text` raises when parsed as `name`; fails the test if it parses.
ConfigError parse_error_of(std::string_view text, const ConfigEnvironment &environment,
                           const std::string &name = "starling.toml") {
    try {
        (void)starling::core::parse_config(text, name, environment);
    } catch (const ConfigError &error) {
        return error;
    }
    FAIL("expected a ConfigError for:\n" << text);
    throw std::logic_error("unreachable");
}

/// Sets an environment variable for one test and puts the old value back afterwards.
class ScopedVariable {
public:
    ScopedVariable(const char *name, const char *value) : name_(name) {
        if (const char *old = std::getenv(name)) {
            old_value_ = old;
        }
        set(value);
    }
    ScopedVariable(const ScopedVariable &) = delete;
    ScopedVariable &operator=(const ScopedVariable &) = delete;
    ~ScopedVariable() { set(old_value_ ? old_value_->c_str() : nullptr); }

private:
    void set(const char *value) const {
        if (value == nullptr) {
            unsetenv(name_);
        } else {
            setenv(name_, value, /*overwrite=*/1);
        }
    }

    const char *name_;
    std::optional<std::string> old_value_;
};

} // namespace

TEST_CASE("The process environment supplies HOME and a non-empty STARLING_HOME", "[config]") {
    ConfigTempDir dir;
    const ScopedVariable home{"HOME", dir.path().c_str()};
    {
        const ScopedVariable starling_home{"STARLING_HOME", "~/custom"};
        const ConfigEnvironment environment = starling::core::from_process_environment();
        CHECK(environment.home_dir == dir.path());
        CHECK(environment.starling_home == dir.path() / "custom");
        CHECK(starling::core::starling_home_dir(environment) == dir.path() / "custom");
    }
    {
        const ScopedVariable starling_home{"STARLING_HOME", ""};
        const ConfigEnvironment environment = starling::core::from_process_environment();
        CHECK_FALSE(environment.starling_home.has_value());
        CHECK(starling::core::starling_home_dir(environment) == dir.path() / ".starling");
    }
}

TEST_CASE("A STARLING_HOME that cannot name the store says why, and the home directory stays usable", "[config]") {
    ConfigTempDir dir;
    const ScopedVariable home{"HOME", dir.path().c_str()};
    SECTION("relative") {
        const ScopedVariable starling_home{"STARLING_HOME", "store"};
        const ConfigEnvironment environment = starling::core::from_process_environment();
        CHECK(environment.home_dir == dir.path());
        REQUIRE(environment.starling_home_problem.has_value());
        CHECK_THROWS_WITH(starling::core::starling_home_dir(environment),
                          Catch::Contains("STARLING_HOME is the relative path 'store'") &&
                              Catch::Contains("absolute path"));
        CHECK_THROWS_AS(starling::core::default_config_file(environment), std::invalid_argument);
    }
    SECTION("a file") {
        const auto file = dir.path() / "not-a-folder";
        std::ofstream{file} << "x\n";
        const ScopedVariable starling_home{"STARLING_HOME", file.c_str()};
        const ConfigEnvironment environment = starling::core::from_process_environment();
        CHECK_THROWS_WITH(starling::core::starling_home_dir(environment),
                          Catch::Contains(file.string()) && Catch::Contains("is not a directory"));
    }
    SECTION("absent, to be created") {
        const ScopedVariable starling_home{"STARLING_HOME", (dir.path() / "new").c_str()};
        const ConfigEnvironment environment = starling::core::from_process_environment();
        CHECK_FALSE(environment.starling_home_problem.has_value());
        CHECK(starling::core::starling_home_dir(environment) == dir.path() / "new");
    }
}

TEST_CASE("Without a configuration file the embedded defaults apply", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    const auto home = dir.path() / "home";

    const Config config = starling::core::load_config(environment);

    CHECK(config.source_file.empty());
    CHECK(config.store.root == home / ".starling");
    REQUIRE(config.plugins.directories.size() == 1);
    CHECK(config.plugins.directories[0] == home / ".starling" / "plugins");
    CHECK(config.policies.decision == "collie-tree");
    CHECK(config.policies.decay == "collie-tiers");
    CHECK(config.policies.relevance == "bm25");
    CHECK(config.capture.review_every == 20);
    CHECK(config.capture.on_stop);
    CHECK(config.consolidation.enabled);
    CHECK(config.injection.min_relevance == 0.28);
    CHECK(config.injection.max_memories == 5);
    CHECK(config.remember.duplicate_similarity == 0.6);
    CHECK(config.remember.duplicate_candidates == 8);
    CHECK(config.budgets.inject_tokens == 1500);
    CHECK(config.budgets.index_lines == 200);
    CHECK(config.log.level == LogLevel::info);
    CHECK(config.log.file == home / ".starling" / "logs" / "starling.log");
    CHECK(config.plugin_settings.empty());
    CHECK(config.key_positions.empty());
}

TEST_CASE("The default file is read from STARLING_HOME when it exists", "[config]") {
    ConfigTempDir dir;
    const auto starling_home = dir.path() / "elsewhere";
    const auto file = dir.write("elsewhere/starling.toml", "[budgets]\nindex_lines = 7\n");
    const ConfigEnvironment environment{dir.path() / "home", starling_home, std::nullopt};

    const Config config = starling::core::load_config(environment);

    CHECK(config.source_file == file);
    CHECK(config.budgets.index_lines == 7);
    CHECK(config.store.root == starling_home);
    CHECK(config.log.file == starling_home / "logs" / "starling.log");
}

TEST_CASE("Without STARLING_HOME the default file is ~/.starling/starling.toml", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    dir.write("home/.starling/starling.toml", "[log]\nlevel = \"error\"\n");

    CHECK(starling::core::default_config_file(environment) == dir.path() / "home" / ".starling" / "starling.toml");
    CHECK(starling::core::load_config(environment).log.level == LogLevel::error);
}

TEST_CASE("A missing --config file is an error", "[config]") {
    ConfigTempDir dir;
    const auto missing = dir.path() / "nowhere.toml";

    CHECK_THROWS_WITH(starling::core::load_config(injected_environment(dir), missing),
                      missing.string() + ": configuration file not found");
}

TEST_CASE("an explicit config file wins over the default file", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    dir.write("home/.starling/starling.toml", "[budgets]\nindex_lines = 7\n");
    const auto chosen = dir.write("chosen.toml", "[budgets]\nindex_lines = 9\n");

    CHECK(starling::core::load_config(environment, chosen).budgets.index_lines == 9);
}

TEST_CASE("A file setting every key is read into every field", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    const auto file = config_fixture("full.toml");

    const Config config = starling::core::load_config_file(file, environment);

    CHECK(config.source_file == file);
    CHECK(config.store.root == dir.path() / "home" / "memories");
    REQUIRE(config.plugins.directories.size() == 2);
    CHECK(config.plugins.directories[0] == std::filesystem::absolute(file).parent_path() / "plugins");
    CHECK(config.plugins.directories[1] == "/opt/starling/plugins");
    CHECK(config.policies.decision == "cue-words");
    CHECK(config.policies.decay == "half-life");
    CHECK(config.policies.relevance.empty());
    CHECK(config.capture.review_every == 0);
    CHECK_FALSE(config.capture.on_stop);
    CHECK_FALSE(config.consolidation.enabled);
    CHECK(config.injection.min_relevance == 0.25);
    CHECK(config.injection.max_memories == 12);
    CHECK(config.remember.duplicate_similarity == 1.0);
    CHECK(config.remember.duplicate_candidates == 3);
    CHECK(config.budgets.inject_tokens == 0);
    CHECK(config.budgets.index_lines == 50);
    CHECK(config.log.level == LogLevel::debug);
    CHECK(config.log.file == dir.path() / "home" / ".starling" / "custom.log");
    CHECK(config.sharing.projects == std::vector<std::filesystem::path>{dir.path() / "home" / "code" / "app"});
    CHECK_FALSE(config.sharing.propose);

    REQUIRE(config.plugin_settings.count("collie-search") == 1);
    const auto &collie = config.plugin_settings.at("collie-search");
    CHECK(collie.values["max_results"] == 5);
    CHECK(collie.values["fields"]["title"] == 3.5);
    CHECK(collie.values["stop_words"] == nlohmann::json::array({"and", "or"}));
    CHECK(collie.position == starling::core::SourcePosition{36, 11});
    CHECK(collie.positions.at("/max_results") == starling::core::SourcePosition{37, 1});
    CHECK(collie.positions.at("/stop_words/1") == starling::core::SourcePosition{39, 22});
    CHECK(collie.positions.at("/fields/title") == starling::core::SourcePosition{42, 1});
    CHECK(config.plugin_settings.count("not-installed") == 1);

    CHECK(config.key_positions.at("capture.on_stop") == starling::core::SourcePosition{15, 1});
    CHECK(config.key_positions.at("injection.min_relevance") == starling::core::SourcePosition{21, 1});
    CHECK(config.key_positions.at("budgets.index_lines") == starling::core::SourcePosition{30, 1});
}

TEST_CASE("STARLING_HOME and ~ in paths use the injected environment", "[config]") {
    ConfigTempDir dir;
    const ConfigEnvironment environment{"/users/ada", std::filesystem::path{"/data/starling"}, std::nullopt};

    const Config config = starling::core::parse_config(
        "[store]\nroot = \"~\"\n[plugins]\ndirectories = [\"~/p\", \"$STARLING_HOME/q\", \"~other/r\"]\n"
        "[log]\nfile = \"$STARLING_HOME\"\n",
        dir.path() / "conf" / "starling.toml", environment);

    CHECK(config.store.root == "/users/ada");
    REQUIRE(config.plugins.directories.size() == 3);
    CHECK(config.plugins.directories[0] == "/users/ada/p");
    CHECK(config.plugins.directories[1] == "/data/starling/q");
    // Only a bare leading ~ means home; ~other is an ordinary relative name.
    CHECK(config.plugins.directories[2] == dir.path() / "conf" / "~other" / "r");
    CHECK(config.log.file == "/data/starling");
    CHECK(starling::core::default_config(environment).store.root == "/data/starling");
}

TEST_CASE("A misspelt key names file, line, column and key and suggests the right key", "[config]") {
    ConfigTempDir dir;
    const auto file = config_fixture("typo_key.toml");
    try {
        (void)starling::core::load_config_file(file, injected_environment(dir));
        FAIL("a misspelt key was accepted");
    } catch (const ConfigError &error) {
        CHECK(std::string{error.what()} ==
              file.string() + ":2:1: budgets.inject_tokenz: unknown key; did you mean 'budgets.inject_tokens'?");
        CHECK(error.file() == file);
        CHECK(error.line() == 2);
        CHECK(error.column() == 1);
        CHECK(error.key() == "budgets.inject_tokenz");
    }
}

TEST_CASE("A syntax error reports toml++'s description at its position", "[config]") {
    ConfigTempDir dir;
    const auto file = config_fixture("syntax_error.toml");
    try {
        (void)starling::core::load_config_file(file, injected_environment(dir));
        FAIL("a syntax error was accepted");
    } catch (const ConfigError &error) {
        CHECK_THAT(error.what(), Catch::StartsWith(file.string() + ":3:15: "));
        CHECK(error.line() == 3);
        CHECK(error.column() == 15);
        CHECK(error.key().empty());
        CHECK_FALSE(error.problem().empty());
    }
}

TEST_CASE("A character that is not ASCII outside strings and comments is an error, never toml++'s undefined "
          "behaviour",
          "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    // Found by `make fuzz`: toml++ 3.3.0 reached __builtin_unreachable() on this input.
    const std::string fuzz_finding{"\xef\xbb\xb7&gdets]\ninject_nTez\0\0\0" "0\n", 27};
    CHECK_THAT(parse_error_of(fuzz_finding, environment).what(),
               Catch::StartsWith("starling.toml:1:1: ") && Catch::Contains("not ASCII outside a quoted string"));
    CHECK_THAT(parse_error_of("[store]\n\xc3\xa9root = \"/x\"\n", environment).what(),
               Catch::StartsWith("starling.toml:2:1: "));
    CHECK_THAT(parse_error_of("[store]\nroot = \"/x\" \xc2\xa0\n", environment).what(),
               Catch::StartsWith("starling.toml:2:13: "));
    // Inside strings of every kind and in comments it is text, as TOML says.
    const auto accepted = starling::core::parse_config(
        "# caf\xc3\xa9\n[store]\nroot = \"/caf\xc3\xa9 \\\" \xc3\xa9\" # \xc3\xa9\n"
        "[redaction]\nextra_patterns = ['\xc3\xa9+', \"\"\"\n\xc3\xa9\"\"\"\"\", \'\'\'\xc3\xa9\n\'\'\']\n",
        "starling.toml", environment);
    CHECK(accepted.store.root == "/caf\xc3\xa9 \" \xc3\xa9");
    CHECK(starling::core::parse_config("\xef\xbb\xbf[store]\nroot = \"/bom\"\n", "starling.toml", environment)
              .store.root == "/bom");
}

TEST_CASE("A value of the wrong type is an error", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    CHECK(std::string{parse_error_of("[budgets]\ninject_tokens = \"many\"\n", environment).what()} ==
          "starling.toml:2:17: budgets.inject_tokens: expected an integer, got a string");
    CHECK(std::string{parse_error_of("[budgets]\nindex_lines = 2.5\n", environment).what()} ==
          "starling.toml:2:15: budgets.index_lines: expected an integer, got a float");
    CHECK(std::string{parse_error_of("[store]\nroot = 3\n", environment).what()} ==
          "starling.toml:2:8: store.root: expected a string, got an integer");
    CHECK(std::string{parse_error_of("[plugins]\ndirectories = \"/p\"\n", environment).what()} ==
          "starling.toml:2:15: plugins.directories: expected an array of strings, got a string");
    CHECK(std::string{parse_error_of("[plugins]\ndirectories = [\"/p\", 4]\n", environment).what()} ==
          "starling.toml:2:22: plugins.directories: expected an array of strings, but item 2 is an integer");
    CHECK(std::string{parse_error_of("budgets = 3\n", environment).what()} ==
          "starling.toml:1:11: budgets: expected a table, got an integer");
    CHECK(std::string{parse_error_of("[settings]\ncollie-search = 1\n", environment).what()} ==
          "starling.toml:2:17: settings.collie-search: expected a table of the plugin's settings, got an integer");
}

TEST_CASE("A number key takes a float, or an integer as the same float", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    const Config from_floats = starling::core::parse_config(
        "[injection]\nmin_relevance = 2.75\n[remember]\nduplicate_similarity = 0.125\n", "starling.toml", environment);
    CHECK(from_floats.injection.min_relevance == 2.75);
    CHECK(from_floats.remember.duplicate_similarity == 0.125);

    const Config from_integers = starling::core::parse_config(
        "[injection]\nmin_relevance = 3\n[remember]\nduplicate_similarity = 0\n", "starling.toml", environment);
    CHECK(from_integers.injection.min_relevance == 3.0);
    CHECK(from_integers.remember.duplicate_similarity == 0.0);
    CHECK(from_integers.key_positions.at("injection.min_relevance") == starling::core::SourcePosition{2, 1});
}

TEST_CASE("A boolean key takes true and false", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    const Config switched_off = starling::core::parse_config(
        "[capture]\non_stop = false\n[consolidation]\nenabled = false\n", "starling.toml", environment);
    CHECK_FALSE(switched_off.capture.on_stop);
    CHECK_FALSE(switched_off.consolidation.enabled);

    const Config switched_on = starling::core::parse_config(
        "[capture]\non_stop = true\n[consolidation]\nenabled = true\n", "starling.toml", environment);
    CHECK(switched_on.capture.on_stop);
    CHECK(switched_on.consolidation.enabled);
}

TEST_CASE("A number or boolean of the wrong type is an error at its position", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    CHECK(std::string{parse_error_of("[injection]\nmin_relevance = \"high\"\n", environment).what()} ==
          "starling.toml:2:17: injection.min_relevance: expected a number, got a string");
    CHECK(std::string{parse_error_of("[injection]\nmin_relevance = true\n", environment).what()} ==
          "starling.toml:2:17: injection.min_relevance: expected a number, got a boolean");
    CHECK(std::string{parse_error_of("[remember]\nduplicate_similarity = [0.5]\n", environment).what()} ==
          "starling.toml:2:24: remember.duplicate_similarity: expected a number, got an array");
    CHECK(std::string{parse_error_of("[capture]\non_stop = 1\n", environment).what()} ==
          "starling.toml:2:11: capture.on_stop: expected a boolean, got an integer");
    CHECK(std::string{parse_error_of("[capture]\non_stop = 0.0\n", environment).what()} ==
          "starling.toml:2:11: capture.on_stop: expected a boolean, got a float");
    CHECK(std::string{parse_error_of("[consolidation]\nenabled = \"true\"\n", environment).what()} ==
          "starling.toml:2:11: consolidation.enabled: expected a boolean, got a string");
    CHECK(std::string{parse_error_of("[capture]\nreview_every = false\n", environment).what()} ==
          "starling.toml:2:16: capture.review_every: expected an integer, got a boolean");
    CHECK(std::string{parse_error_of("[injection]\nmax_memories = 2.0\n", environment).what()} ==
          "starling.toml:2:16: injection.max_memories: expected an integer, got a float");
}

TEST_CASE("A number outside its range, or not finite, is an error, and the bounds are allowed", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    CHECK(std::string{parse_error_of("[injection]\nmin_relevance = -0.5\n", environment).what()} ==
          "starling.toml:2:17: injection.min_relevance: -0.5 is too small; the least allowed value is 0.0");
    CHECK(std::string{parse_error_of("[remember]\nduplicate_similarity = 1.5\n", environment).what()} ==
          "starling.toml:2:24: remember.duplicate_similarity: 1.5 is too large; the greatest allowed value is 1.0");
    CHECK(std::string{parse_error_of("[remember]\nduplicate_similarity = 2\n", environment).what()} ==
          "starling.toml:2:24: remember.duplicate_similarity: 2.0 is too large; the greatest allowed value is 1.0");
    CHECK(std::string{parse_error_of("[remember]\nduplicate_similarity = -1e-300\n", environment).what()} ==
          "starling.toml:2:24: remember.duplicate_similarity: -1e-300 is too small; the least allowed value "
          "is 0.0");
    CHECK(std::string{parse_error_of("[injection]\nmin_relevance = nan\n", environment).what()} ==
          "starling.toml:2:17: injection.min_relevance: nan is not allowed; expected a finite number");
    CHECK(std::string{parse_error_of("[injection]\nmin_relevance = +inf\n", environment).what()} ==
          "starling.toml:2:17: injection.min_relevance: inf is not allowed; expected a finite number");

    const Config at_bounds = starling::core::parse_config(
        "[injection]\nmin_relevance = 0.0\n[remember]\nduplicate_similarity = 1.0\n", "starling.toml", environment);
    CHECK(at_bounds.injection.min_relevance == 0.0);
    CHECK(at_bounds.remember.duplicate_similarity == 1.0);
}

TEST_CASE("A value out of range is an error", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    CHECK(std::string{parse_error_of("[budgets]\nindex_lines = 0\n", environment).what()} ==
          "starling.toml:2:15: budgets.index_lines: 0 is too small; the least allowed value is 1");
    CHECK(std::string{parse_error_of("[budgets]\ninject_tokens = -1\n", environment).what()} ==
          "starling.toml:2:17: budgets.inject_tokens: -1 is too small; the least allowed value is 0");
    CHECK(std::string{parse_error_of("[store]\nroot = \"\"\n", environment).what()} ==
          "starling.toml:2:8: store.root: expected a path, got an empty string");
    CHECK(std::string{parse_error_of("[capture]\nreview_every = -1\n", environment).what()} ==
          "starling.toml:2:16: capture.review_every: -1 is too small; the least allowed value is 0");
    CHECK(std::string{parse_error_of("[injection]\nmax_memories = -3\n", environment).what()} ==
          "starling.toml:2:16: injection.max_memories: -3 is too small; the least allowed value is 0");
    CHECK(std::string{parse_error_of("[remember]\nduplicate_candidates = 0\n", environment).what()} ==
          "starling.toml:2:24: remember.duplicate_candidates: 0 is too small; the least allowed value is 1");
}

TEST_CASE("The budgets of plugin calls are read in milliseconds and refused outside their range", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    const auto defaults = starling::core::parse_config("", "starling.toml", environment);
    CHECK(defaults.hooks.budget_ms == 800);
    CHECK(defaults.plugins.call_budget_ms == 60000);
    const auto set = starling::core::parse_config("[hooks]\nbudget_ms = 50\n[plugins]\ncall_budget_ms = 100\n",
                                                  "starling.toml", environment);
    CHECK(set.hooks.budget_ms == 50);
    CHECK(set.plugins.call_budget_ms == 100);

    CHECK(std::string{parse_error_of("[hooks]\nbudget_ms = 49\n", environment).what()} ==
          "starling.toml:2:13: hooks.budget_ms: 49 is too small; the least allowed value is 50");
    CHECK(std::string{parse_error_of("[hooks]\nbudget_ms = 60001\n", environment).what()} ==
          "starling.toml:2:13: hooks.budget_ms: 60001 is too large; the greatest allowed value is 60000");
    CHECK_THAT(parse_error_of("[hooks]\nbudget_ms = \"1s\"\n", environment).what(),
               Catch::Contains("hooks.budget_ms") && Catch::Contains("expected an integer"));
    CHECK_THAT(parse_error_of("[hooks]\nbudget_ms = 0.5\n", environment).what(),
               Catch::Contains("hooks.budget_ms") && Catch::Contains("expected an integer"));
    CHECK(std::string{parse_error_of("[plugins]\ncall_budget_ms = 0\n", environment).what()} ==
          "starling.toml:2:18: plugins.call_budget_ms: 0 is too small; the least allowed value is 100");
}

TEST_CASE("A value outside an enumeration lists the allowed values", "[config]") {
    ConfigTempDir dir;
    CHECK(std::string{parse_error_of("[log]\nlevel = \"verbose\"\n", injected_environment(dir)).what()} ==
          "starling.toml:2:9: log.level: \"verbose\" is not allowed; expected one of \"debug\", \"info\", "
          "\"warning\", \"error\"");
}

TEST_CASE("Unknown tables and keys are errors with the closest known name", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    CHECK(std::string{parse_error_of("[budget]\ninject_tokens = 1\n", environment).what()} ==
          "starling.toml:1:2: budget: unknown table; did you mean 'budgets'?");
    CHECK(std::string{parse_error_of("[telemetry]\nenabled = true\n", environment).what()} ==
          "starling.toml:1:2: telemetry: unknown table");
    CHECK(std::string{parse_error_of("index_lines = 3\n", environment).what()} ==
          "starling.toml:1:1: index_lines: unknown key; did you mean 'budgets.index_lines'?");
    CHECK(std::string{parse_error_of("[log]\nlevel = \"info\"\nfiles = \"x\"\n", environment).what()} ==
          "starling.toml:3:1: log.files: unknown key; did you mean 'log.file'?");
}

TEST_CASE("injection.min_score, renamed when its scale changed, is an error naming the new key", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    const std::string message{parse_error_of("[injection]\nmax_memories = 3\nmin_score = 0.2\n", environment).what()};
    CHECK_THAT(message, Catch::StartsWith("starling.toml:3:1: injection.min_score: renamed to injection.min_relevance, "
                                          "on a new scale"));
    CHECK_THAT(message, Catch::Contains("set injection.min_relevance instead (default "));
    CHECK(starling::core::renamed_key_problem("injection.min_relevance") == std::nullopt);
    CHECK(starling::core::renamed_key_problem("injection.max_memories") == std::nullopt);
}

TEST_CASE("A suggestion is offered within two edits, a swap of neighbours counting as one", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);

    CHECK(std::string{parse_error_of("[budgets]\ninejct_tokns = 1\n", environment).what()} ==
          "starling.toml:2:1: budgets.inejct_tokns: unknown key; did you mean 'budgets.inject_tokens'?");
    CHECK(std::string{parse_error_of("[budgets]\ninjct_tokn = 1\n", environment).what()} ==
          "starling.toml:2:1: budgets.injct_tokn: unknown key");
}

TEST_CASE("Several errors are reported in file order, the first one thrown", "[config]") {
    ConfigTempDir dir;
    const auto error =
        parse_error_of("[log]\nlevel = \"loud\"\n[budgets]\nindex_lines = 0\n", injected_environment(dir));
    CHECK(error.line() == 2);
    CHECK(error.key() == "log.level");
}

TEST_CASE("Plugin settings may not hold dates, which JSON cannot carry", "[config]") {
    ConfigTempDir dir;
    const auto error = parse_error_of("[settings.decay-x]\nsince = 2024-01-02\n", injected_environment(dir));
    CHECK(std::string{error.what()} ==
          "starling.toml:2:9: settings.decay-x.since: plugin settings cannot be a date; write it as a string");
}

TEST_CASE("The schema's log level names are LogLevel's names", "[config]") {
    const auto *level = starling::core::find_config_key("log.level");
    REQUIRE(level != nullptr);
    REQUIRE(level->choices.size() == 4);
    for (std::size_t index = 0; index < level->choices.size(); ++index) {
        CHECK(level->choices[index] == starling::core::to_string(static_cast<LogLevel>(index)));
    }
}

TEST_CASE("The documented type of a number or boolean key shows its range", "[config]") {
    const auto type_of = [](std::string_view name) {
        const auto *key = starling::core::find_config_key(name);
        REQUIRE(key != nullptr);
        return starling::core::describe_type(*key);
    };
    CHECK(type_of("injection.min_relevance") == "number >= 0.0");
    CHECK(type_of("remember.duplicate_similarity") == "number in [0.0, 1.0]");
    CHECK(type_of("capture.on_stop") == "boolean");
    CHECK(type_of("remember.duplicate_candidates") == "integer >= 1");
}

TEST_CASE("Every schema default is a valid value of its key", "[config]") {
    for (const auto &key : starling::core::config_schema()) {
        INFO(key.name);
        CHECK_FALSE(starling::core::value_problem(key, key.default_value).has_value());
        CHECK_FALSE(key.description.empty());
        CHECK(key.name.find('.') != std::string_view::npos);
    }
}

TEST_CASE("redaction.extra_patterns takes regular expressions and names one that does not compile", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    const auto config = starling::core::parse_config("[redaction]\nextra_patterns = [\"ACME-[0-9]{6}\"]\n",
                                                     "starling.toml", environment);
    CHECK(config.redaction.extra_patterns == std::vector<std::string>{"ACME-[0-9]{6}"});
    const std::string message = parse_error_of("[redaction]\nextra_patterns = [\"ok\", \"(unclosed\"]\n", environment).what();
    CHECK_THAT(message, Catch::StartsWith("starling.toml:2:"));
    CHECK_THAT(message, Catch::Contains("redaction.extra_patterns: item 2 (\"(unclosed\") is not a valid ECMAScript "
                                        "regular expression"));
}
