// SPDX-License-Identifier: Apache-2.0
#include <starling/app/configured_plugin.hpp>
#include <starling/core/config/config_loader.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include "support/config_temp_files.hpp"
#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using starling::app::create_configured_plugin;
using starling::app::RefusedSettings;
using starling::core::Config;
using starling::core::ConfigError;
using starling::plugins::LoadError;
using starling::plugins::LoadErrorKind;
using starling::plugins::PluginLoadError;
using starling::plugins::PluginRegistry;
using starling::test::ConfigTempDir;
using starling::test::injected_environment;
using starling::test::quiet_logger;

namespace {

Config parse(std::string_view text, const ConfigTempDir &dir) {
    return starling::core::parse_config(text, "starling.toml", injected_environment(dir));
}

const PluginRegistry &bm25_registry() {
    static PluginRegistry registry{quiet_logger()};
    static const bool added = [] {
        registry.add_static_plugins(starling::plugins::linked_static_plugins(), std::vector<std::string>{"bm25"});
        return true;
    }();
    static_cast<void>(added);
    return registry;
}

std::string bm25_defaults() { return bm25_registry().find("bm25")->default_settings_json; }

/// Creates bm25 and says which settings it got.
struct RecordingCreate {
    std::vector<std::string> *calls;
    auto operator()(const std::string &settings) const {
        calls->push_back(settings);
        return bm25_registry().create_relevance_policy("bm25", settings);
    }
};

/// The ConfigError the starling command gets for bm25 configured by `config`.
ConfigError refusal_for_the_command(const Config &config, std::vector<std::string> &calls) {
    try {
        static_cast<void>(create_configured_plugin(config, "bm25", bm25_defaults(), RefusedSettings::throw_config_error,
                                                   RecordingCreate{&calls}));
    } catch (const ConfigError &error) {
        return error;
    }
    FAIL("expected a ConfigError");
    throw std::logic_error{"unreachable: FAIL throws"};
}

/// What a hook gets for bm25 configured by `config`: the plugin, and why its settings were refused.
auto created_for_a_hook(const Config &config, std::vector<std::string> &calls) {
    return create_configured_plugin(config, "bm25", bm25_defaults(), RefusedSettings::use_declared_defaults,
                                    RecordingCreate{&calls});
}

PluginLoadError create_failure(std::string detail) {
    LoadError error;
    error.kind = LoadErrorKind::create_failed;
    error.plugin_id = "bm25";
    error.detail = std::move(detail);
    return PluginLoadError{error};
}

} // namespace

TEST_CASE("Settings a plugin accepts are used as configured", "[app][config]") {
    const ConfigTempDir dir;
    const Config config = parse("[settings.bm25]\nprior.length = 0.5\n", dir);
    std::vector<std::string> calls;
    auto created = create_configured_plugin(config, "bm25", bm25_defaults(), RefusedSettings::throw_config_error,
                                            RecordingCreate{&calls});
    CHECK_FALSE(created.refused_settings);
    REQUIRE(calls.size() == 1);
    CHECK(nlohmann::json::parse(calls[0])["prior"]["length"] == 0.5);
}

TEST_CASE("A value out of the plugin's range is a configuration error at its settings table", "[app][config]") {
    const ConfigTempDir dir;
    const Config config = parse("[store]\n\n[settings.bm25]\nk1 = 1.5\nprior.length = 3\n", dir);
    std::vector<std::string> calls;

    SECTION("the starling command refuses, naming file, line, table and the plugin's reason") {
        const auto error = refusal_for_the_command(config, calls);
        CHECK(error.file() == "starling.toml");
        CHECK(error.line() == 3);
        CHECK(error.key() == "settings.bm25");
        CHECK(error.problem() ==
              "\"bm25\" refuses these settings: bm25 setting 'prior.length' must be between 0 and 2, got 3");
    }
    SECTION("a hook runs the plugin on its declared defaults and keeps the reason") {
        const auto created = created_for_a_hook(config, calls);
        REQUIRE(created.refused_settings);
        CHECK(created.refused_settings->line() == 3);
        CHECK_THAT(created.refused_settings->what(),
                   Catch::StartsWith("starling.toml:3:") && Catch::Contains("settings.bm25: \"bm25\" refuses these settings"));
        REQUIRE(calls.size() == 2);
        CHECK(nlohmann::json::parse(calls[1]) == nlohmann::json::parse(bm25_defaults()));
    }
}

TEST_CASE("A value of the wrong type is refused before the plugin sees it", "[app][config]") {
    const ConfigTempDir dir;
    const Config config = parse("[settings.bm25]\nprior.length = \"long\"\n", dir);
    std::vector<std::string> calls;

    SECTION("the starling command gets the host's error, at the key") {
        const auto error = refusal_for_the_command(config, calls);
        CHECK(error.line() == 2);
        CHECK(error.key() == "settings.bm25.prior.length");
        CHECK(calls.empty());
    }
    SECTION("a hook creates the plugin once, on its defaults") {
        const auto created = created_for_a_hook(config, calls);
        REQUIRE(created.refused_settings);
        CHECK(created.refused_settings->key() == "settings.bm25.prior.length");
        REQUIRE(calls.size() == 1);
        CHECK(nlohmann::json::parse(calls[0]) == nlohmann::json::parse(bm25_defaults()));
    }
}

TEST_CASE("A plugin that refuses its own defaults too is broken: its own error stands", "[app][config]") {
    const ConfigTempDir dir;
    const Config config = parse("[settings.bm25]\nk1 = 1.5\n", dir);
    int calls = 0;
    const auto always_fails = [&](const std::string &) -> int {
        ++calls;
        throw create_failure(calls == 1 ? "first refusal" : "second refusal");
    };
    for (const auto refused : {RefusedSettings::throw_config_error, RefusedSettings::use_declared_defaults}) {
        calls = 0;
        try {
            static_cast<void>(create_configured_plugin(config, "bm25", "{\"k1\": 1.2}", refused, always_fails));
            FAIL("expected the plugin's error");
        } catch (const PluginLoadError &error) {
            CHECK(error.error().detail == "first refusal");
        }
        CHECK(calls == 2);
    }
}

TEST_CASE("Without a settings table a refusal is the plugin's, not the configuration's", "[app][config]") {
    const ConfigTempDir dir;
    const Config config = parse("", dir);
    int calls = 0;
    const auto fails = [&](const std::string &) -> int {
        ++calls;
        throw create_failure("no index directory");
    };
    CHECK_THROWS_AS(create_configured_plugin(config, "bm25", "{}", RefusedSettings::use_declared_defaults, fails),
                    PluginLoadError);
    CHECK(calls == 1);
}
