// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_loader.hpp>
#include <starling/core/config/config_render.hpp>
#include <starling/core/config/config_schema.hpp>
#include <starling/core/config/plugin_settings.hpp>

#include <support/config_temp_files.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using starling::core::Config;
using starling::core::ConfigIssue;
using starling::core::PluginDefaults;
using starling::test::config_fixture;
using starling::test::ConfigTempDir;
using starling::test::injected_environment;

namespace {

const std::vector<PluginDefaults> &available_plugins() {
    static const std::vector<PluginDefaults> plugins{
        {"collie-search", STARLING_KIND_RELEVANCE_POLICY,
         R"({"max_results": 10, "weight": 1.5, "stop_words": ["the"], "fields": {"title": 2.0},
             "aliases": {}, "label": "tab\there \"quoted\" \\ end", "unset": null, "tiny": 1e-300})"},
        {"cue-words", STARLING_KIND_DECISION_POLICY, "{}"},
        {"half-life", STARLING_KIND_DECAY_POLICY, R"({"thresholds": {"short_days": 7, "long_days": 90}})"},
        // The default policies, so that a file which leaves them alone checks clean.
        {"collie-tree", STARLING_KIND_DECISION_POLICY, "{}"},
        {"collie-tiers", STARLING_KIND_DECAY_POLICY, "{}"},
        {"bm25", STARLING_KIND_RELEVANCE_POLICY, "{}"},
    };
    return plugins;
}

/// Everything a Config says, except where it was read from.
void require_same_configuration(const Config &expected, const Config &actual) {
    for (const auto &key : starling::core::config_schema()) {
        INFO(key.name);
        CHECK(starling::core::toml_literal(key.read(actual, key)) ==
              starling::core::toml_literal(key.read(expected, key)));
    }
    for (const auto &plugin : available_plugins()) {
        INFO(plugin.id);
        CHECK(starling::core::effective_plugin_settings(actual, plugin.id, plugin.default_settings_json) ==
              starling::core::effective_plugin_settings(expected, plugin.id, plugin.default_settings_json));
    }
    // Tables of plugins that are not available have no defaults to overlay: they must survive as written.
    for (const auto &[plugin_id, table] : expected.plugin_settings) {
        const bool available = std::any_of(available_plugins().begin(), available_plugins().end(),
                                           [&](const PluginDefaults &plugin) { return plugin.id == plugin_id; });
        if (available) {
            continue;
        }
        INFO(plugin_id);
        REQUIRE(actual.plugin_settings.count(plugin_id) == 1);
        CHECK(actual.plugin_settings.at(plugin_id).values == table.values);
    }
}

std::string read_text(const std::filesystem::path &file) {
    std::ifstream stream{file};
    REQUIRE(stream);
    std::ostringstream contents;
    contents << stream.rdbuf();
    return contents.str();
}

std::vector<std::string> messages_of(const std::vector<ConfigIssue> &issues) {
    std::vector<std::string> messages;
    for (const auto &issue : issues) {
        messages.push_back((issue.is_error() ? "error: " : "warning: ") + issue.message());
    }
    return messages;
}

} // namespace

TEST_CASE("The rendered embedded defaults parse back to the same configuration", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    const Config defaults = starling::core::default_config(environment);

    const std::string rendered = starling::core::render_effective_config(defaults, available_plugins());
    INFO(rendered);

    CHECK_THAT(rendered, Catch::StartsWith("# Starling effective configuration"));
    CHECK_THAT(rendered, Catch::Contains("# Source: the embedded defaults"));
    CHECK_THAT(rendered, Catch::Contains("\n[budgets]\n"));
    CHECK_THAT(rendered, Catch::Contains("\ninject_tokens = 1500\n"));
    CHECK_THAT(rendered, Catch::Contains("\n[injection]\n"));
    CHECK_THAT(rendered, Catch::Contains("\nmin_relevance = 0.28\n"));
    CHECK_THAT(rendered, Catch::Contains("\nduplicate_similarity = 0.6\n"));
    CHECK_THAT(rendered, Catch::Contains("\non_stop = true\n"));
    CHECK_THAT(rendered, Catch::Contains("\ndecision = \"collie-tree\"\n"));
    CHECK_THAT(rendered, Catch::Contains("\n[settings.half-life.thresholds]\nlong_days = 90\nshort_days = 7\n"));
    const Config reparsed = starling::core::parse_config(rendered, dir.path() / "shown.toml", environment);
    require_same_configuration(defaults, reparsed);
}

TEST_CASE("A rendered file configuration parses back to the same configuration", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    const auto file = dir.write("conf/starling.toml",
                                "[store]\nroot = \"~/m\"\n"
                                "[plugins]\ndirectories = [\"p\", \"/q\"]\n"
                                "[policies]\ndecision = \"cue-words\"\nrelevance = \"\"\n"
                                "[capture]\nreview_every = 7\non_stop = false\n"
                                "[consolidation]\nenabled = false\n"
                                "[injection]\nmin_relevance = 0.30000000000000004\nmax_memories = 0\n"
                                "[remember]\nduplicate_similarity = 1\nduplicate_candidates = 2\n"
                                "[budgets]\ninject_tokens = 0\n"
                                "[log]\nlevel = \"warning\"\nfile = \"logs/x.log\"\n"
                                "[settings.collie-search]\nweight = 3\nlabel = \"new\\nline\"\n"
                                "[settings.half-life.thresholds]\nshort_days = 3\n"
                                "[settings.\"someone's.plugin\"]\nlist = [1, 2.5, \"x\", { a = true }]\n");
    const Config original = starling::core::load_config_file(file, environment);

    const std::string rendered = starling::core::render_effective_config(original, available_plugins());
    INFO(rendered);

    CHECK_THAT(rendered, Catch::Contains("# Source: " + file.string()));
    CHECK_THAT(rendered, Catch::Contains("# No available plugin has this id"));
    const Config reparsed = starling::core::parse_config(rendered, "/elsewhere/shown.toml", environment);
    require_same_configuration(original, reparsed);
    CHECK(reparsed.plugins.directories.at(0) == dir.path() / "conf" / "p");
    CHECK(reparsed.injection.min_relevance == 0.30000000000000004);
    CHECK(reparsed.remember.duplicate_similarity == 1.0);
    CHECK_FALSE(reparsed.capture.on_stop);
    CHECK_FALSE(reparsed.consolidation.enabled);
}

TEST_CASE("A rendered number reads back as exactly the same double", "[config]") {
    ConfigTempDir dir;
    const auto environment = injected_environment(dir);
    const double third = 1.0 / 3.0;
    const std::vector<double> values{0.0, 0.1, third, 0.30000000000000004, 2.0, 1e22, 123456.789e-5,
                                     std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                                     std::numeric_limits<double>::max()};
    for (const double value : values) {
        Config config = starling::core::default_config(environment);
        config.injection.min_relevance = value;
        // duplicate_similarity must lie in [0, 1]: map the value into that range.
        config.remember.duplicate_similarity = value / (1.0 + value);

        const std::string rendered = starling::core::render_effective_config(config, available_plugins());
        INFO(rendered);
        const Config reparsed = starling::core::parse_config(rendered, dir.path() / "shown.toml", environment);

        CHECK(reparsed.injection.min_relevance == config.injection.min_relevance);
        CHECK(reparsed.remember.duplicate_similarity == config.remember.duplicate_similarity);
    }
}

TEST_CASE("docs/config.md documents every key with its type and default", "[config]") {
    const std::string doc = read_text(std::filesystem::path{STARLING_SOURCE_DIR} / "docs" / "config.md");
    for (const auto &key : starling::core::config_schema()) {
        INFO(key.name);
        const std::string row_start = "| `" + std::string{key.name} + "` |";
        const auto row = doc.find(row_start);
        REQUIRE(row != std::string::npos);
        const std::string line = doc.substr(row, doc.find('\n', row) - row);
        std::string default_cell = "`";
        default_cell += starling::core::toml_literal(key.default_value);
        default_cell += '`';
        CHECK_THAT(line, Catch::Contains(default_cell));
        CHECK_THAT(line, Catch::Contains(starling::core::describe_type(key)));
    }
    for (const auto &table : starling::core::config_table_names()) {
        INFO(table);
        CHECK_THAT(doc, Catch::Contains("`[" + table));
    }
}

TEST_CASE("config check reports every problem, warnings apart from errors", "[config]") {
    ConfigTempDir dir;
    const auto file = config_fixture("many_problems.toml");
    const std::string name = file.string();
    const std::string missing_directory = (file.parent_path() / "does-not-exist").string();

    const auto issues = starling::core::check_config_file(file, injected_environment(dir));

    CHECK(messages_of(issues) ==
          std::vector<std::string>{
              "error: " + name + ":3:17: budgets.inject_tokens: expected an integer, got a string",
              "error: " + name + ":4:15: budgets.index_lines: 0 is too small; the least allowed value is 1",
              "error: " + name + ":7:9: log.level: \"verbose\" is not allowed; expected one of \"debug\", "
                                 "\"info\", \"warning\", \"error\"",
              "error: " + name + ":8:1: log.fille: unknown key; did you mean 'log.file'?",
              "warning: " + name + ":11:1: plugins.directories: plugin directory \"" + missing_directory +
                  "\" does not exist; no plugins will be loaded from it",
              "error: " + name + ":13:2: sesttings: unknown table; did you mean 'settings'?",
          });
}

TEST_CASE("config check with the available plugins also checks plugin references", "[config]") {
    ConfigTempDir dir;
    const auto file = dir.write("starling.toml", "[settings.collie-search]\nmax_results = 2\nmax_resultz = 3\n");

    const auto issues = starling::core::check_config_file(file, injected_environment(dir), available_plugins());

    CHECK(messages_of(issues) ==
          std::vector<std::string>{"error: " + file.string() +
                                   ":3:1: settings.collie-search.max_resultz: \"collie-search\" has no setting "
                                   "\"max_resultz\"; did you mean 'settings.collie-search.max_results'?"});
}

TEST_CASE("config check of a missing file or a syntax error is one error", "[config]") {
    ConfigTempDir dir;
    const auto missing = dir.path() / "missing.toml";
    CHECK(messages_of(starling::core::check_config_file(missing, injected_environment(dir))) ==
          std::vector<std::string>{"error: " + missing.string() + ": configuration file not found"});

    const auto issues =
        starling::core::check_config_file(config_fixture("syntax_error.toml"), injected_environment(dir));
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].location.line == 3);
}

TEST_CASE("A clean file checks clean", "[config]") {
    ConfigTempDir dir;
    const auto file = dir.write("starling.toml", "[budgets]\nindex_lines = 20\n");
    CHECK(starling::core::check_config_file(file, injected_environment(dir), available_plugins()).empty());
}
