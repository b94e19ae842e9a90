// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_error.hpp>
#include <starling/core/config/config_loader.hpp>
#include <starling/core/config/plugin_settings.hpp>

#include <support/config_temp_files.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::core::Config;
using starling::core::ConfigError;
using starling::core::ConfigIssue;
using starling::core::PluginDefaults;
using starling::test::ConfigTempDir;
using starling::test::injected_environment;
using Json = nlohmann::json;

namespace {

constexpr std::string_view collie_defaults = R"({
    "max_results": 10,
    "weight": 1.5,
    "stop_words": ["the", "a"],
    "fields": {"title": 2.0, "body": 1.0},
    "aliases": {},
    "extra": null
})";

Config parse(std::string_view text, const ConfigTempDir &dir) {
    return starling::core::parse_config(text, "starling.toml", injected_environment(dir));
}

std::string settings_error(std::string_view text, const ConfigTempDir &dir) {
    const Config config = parse(text, dir);
    try {
        (void)starling::core::effective_plugin_settings(config, "collie-search", collie_defaults);
    } catch (const ConfigError &error) {
        return error.what();
    }
    FAIL("expected a ConfigError for:\n" << text);
    return {};
}

std::vector<std::string> messages_of(const std::vector<ConfigIssue> &issues) {
    std::vector<std::string> messages;
    for (const auto &issue : issues) {
        messages.push_back((issue.is_error() ? "error: " : "warning: ") + issue.message());
    }
    return messages;
}

} // namespace

TEST_CASE("Without a settings table a plugin gets its declared defaults", "[config]") {
    ConfigTempDir dir;
    const Config config = starling::core::default_config(injected_environment(dir));
    CHECK(starling::core::effective_plugin_settings(config, "collie-search", collie_defaults) ==
          Json::parse(collie_defaults));
    CHECK(starling::core::effective_plugin_settings(config, "quiet", "{}") == Json::object());
}

TEST_CASE("The user's table is overlaid on the plugin's defaults", "[config]") {
    ConfigTempDir dir;
    const Config config = parse("[settings.collie-search]\n"
                                "max_results = 3\n"
                                "weight = 2\n"
                                "stop_words = [\"an\"]\n"
                                "aliases = { k8s = \"kubernetes\" }\n"
                                "extra = [1, \"two\"]\n"
                                "[settings.collie-search.fields]\n"
                                "title = 4\n",
                                dir);

    const Json effective = starling::core::effective_plugin_settings(config, "collie-search", collie_defaults);

    CHECK(effective["max_results"] == 3);
    CHECK(effective["weight"].is_number_float());
    CHECK(effective["weight"] == 2.0);
    CHECK(effective["stop_words"] == Json::array({"an"}));
    CHECK(effective["fields"]["title"].is_number_float());
    CHECK(effective["fields"]["title"] == 4.0);
    CHECK(effective["fields"]["body"] == 1.0);
    CHECK(effective["aliases"] == Json{{"k8s", "kubernetes"}});
    CHECK(effective["extra"] == Json::array({1, "two"}));
}

TEST_CASE("An unknown plugin setting names file, line, column and key and suggests the closest", "[config]") {
    ConfigTempDir dir;
    CHECK(settings_error("[settings.collie-search]\nmax_resultz = 3\n", dir) ==
          "starling.toml:2:1: settings.collie-search.max_resultz: \"collie-search\" has no setting "
          "\"max_resultz\"; did you mean 'settings.collie-search.max_results'?");
    CHECK(settings_error("[settings.collie-search]\ncolour = \"red\"\n", dir) ==
          "starling.toml:2:1: settings.collie-search.colour: \"collie-search\" has no setting \"colour\"");
    CHECK(settings_error("[settings.collie-search.fields]\ntitel = 1.0\n", dir) ==
          "starling.toml:2:1: settings.collie-search.fields.titel: \"collie-search\" has no setting "
          "\"titel\"; did you mean 'settings.collie-search.fields.title'?");
}

TEST_CASE("A plugin setting of another type than its default is an error", "[config]") {
    ConfigTempDir dir;
    CHECK(settings_error("[settings.collie-search]\nmax_results = \"ten\"\n", dir) ==
          "starling.toml:2:1: settings.collie-search.max_results: expected an integer, got a string");
    CHECK(settings_error("[settings.collie-search]\nmax_results = 2.5\n", dir) ==
          "starling.toml:2:1: settings.collie-search.max_results: expected an integer, got a float");
    CHECK(settings_error("[settings.collie-search]\nfields = 1\n", dir) ==
          "starling.toml:2:1: settings.collie-search.fields: expected a table, got an integer");
    CHECK(settings_error("[settings.collie-search]\nstop_words = [\"x\",\n  7]\n", dir) ==
          "starling.toml:3:3: settings.collie-search.stop_words.1: item 2 is an integer; expected a string");
}

TEST_CASE("Defaults that are not a JSON object are the plugin's fault, not the user's", "[config]") {
    ConfigTempDir dir;
    const Config config = starling::core::default_config(injected_environment(dir));
    CHECK_THROWS_AS(starling::core::effective_plugin_settings(config, "broken", "[1, 2]"), std::invalid_argument);
    CHECK_THROWS_AS(starling::core::effective_plugin_settings(config, "broken", "{oops"), std::invalid_argument);
}

TEST_CASE("Settings tables for plugins that do not exist are errors with file and line", "[config]") {
    ConfigTempDir dir;
    const Config config =
        parse("[settings.collie-search]\nmax_results = 3\n\n[settings.colie-search]\nx = 1\n", dir);
    const std::vector<std::string> known{"collie-search", "cue-words"};

    const auto issues = starling::core::unknown_plugin_settings(config, known);

    REQUIRE(issues.size() == 1);
    CHECK(issues[0].is_error());
    CHECK(issues[0].message() == "starling.toml:4:11: settings.colie-search: no plugin \"colie-search\" is "
                                 "available; did you mean 'collie-search'?");
}

TEST_CASE("Plugin references are checked against the available plugins", "[config]") {
    ConfigTempDir dir;
    const Config config = parse("[policies]\n"
                                "decision = \"collie-search\"\n"
                                "decay = \"half-lif\"\n"
                                "[settings.collie-search]\n"
                                "max_results = \"x\"\n"
                                "wieght = 1.0\n"
                                "[settings.ghost]\n",
                                dir);
    const std::vector<PluginDefaults> plugins{
        {"collie-search", STARLING_KIND_RELEVANCE_POLICY, std::string{collie_defaults}},
        {"half-life", STARLING_KIND_DECAY_POLICY, "{}"},
        // policies.relevance is left at its default, which must not be reported.
        {"bm25", STARLING_KIND_RELEVANCE_POLICY, "{}"},
    };

    CHECK(messages_of(starling::core::check_plugin_references(config, plugins)) ==
          std::vector<std::string>{
              "error: starling.toml:2:1: policies.decision: \"collie-search\" is a relevance policy, not a "
              "decision policy",
              "error: starling.toml:3:1: policies.decay: no plugin \"half-lif\" is available; did you mean "
              "'half-life'?",
              "error: starling.toml:5:1: settings.collie-search.max_results: expected an integer, got a string",
              "error: starling.toml:6:1: settings.collie-search.wieght: \"collie-search\" has no setting "
              "\"wieght\"; did you mean 'settings.collie-search.weight'?",
              "error: starling.toml:7:11: settings.ghost: no plugin \"ghost\" is available",
          });
}
