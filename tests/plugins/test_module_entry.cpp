// SPDX-License-Identifier: Apache-2.0
//
// Modules of ABI 1.7 on (starling_module): init with the module's path, a factory of several
// plugins, deinit once everything lets the module go — and a module built against a minor this
// host does not have yet, which loads and runs as long as it needs nothing new.
#include <starling/plugins/module_files.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include "support/quiet_logger.hpp"
#include "support/scoped_environment.hpp"
#include "support/temp_dir.hpp"
#include "support/test_batch.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::plugins::LoadErrorKind;
using starling::plugins::PluginInfo;
using starling::plugins::PluginLoadError;
using starling::plugins::PluginRegistry;
using starling::test::quiet_logger;

namespace {

const fs::path kFixtures{STARLING_TEST_FIXTURE_PLUGIN_DIR};
const fs::path kModules{STARLING_TEST_PLUGIN_MODULE_DIR};

fs::path fixture(const std::string &name) { return kFixtures / (name + ".so"); }

std::vector<std::string> ids_of(const std::vector<PluginInfo> &plugins) {
    std::vector<std::string> ids;
    for (const auto &info : plugins) {
        ids.push_back(info.id);
    }
    return ids;
}

std::string read_text(const fs::path &file) {
    std::ifstream stream(file);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

starling::test::TestBatch two_memories() {
    starling::test::TestBatch batch;
    batch.add({"a.md", "pnpm in every monorepo", "", ""}).add({"b.md", "tabs", "", ""});
    return batch;
}

} // namespace

TEST_CASE("a module built against a newer minor that uses nothing new loads and runs", "[plugins][abi][module]") {
    starling::test::TempDir scratch{"module-entry"};
    const starling::core::Logger logger{scratch / "starling.log", starling::core::LogLevel::info, false};
    const starling::test::ScopedEnvironment deinit_record{"STARLING_FIXTURE_DEINIT_FILE", (scratch / "deinit.txt").string()};
    {
        PluginRegistry registry{logger};
        const auto plugins = registry.add_module(fixture("future_minor_module"));
        CHECK(ids_of(plugins) == std::vector<std::string>{"future-one", "future-two"});
        CHECK(plugins.front().abi_minor == STARLING_ABI_MINOR + 1);
        CHECK(registry.problems().empty());
        CHECK_THAT(read_text(scratch / "starling.log"),
                   Catch::Contains("module entry fixture initialised from " + fixture("future_minor_module").string()));

        auto batch = two_memories();
        const auto one = registry.create_relevance_policy("future-one", "{}");
        const auto two = registry.create_relevance_policy("future-two", "{}");
        CHECK(one.score("anything", batch.batch()) == std::vector<double>{1.0, 1.0});
        CHECK(two.score("anything", batch.batch()) == std::vector<double>{2.0, 2.0});
        CHECK_FALSE(fs::exists(scratch / "deinit.txt")); // not while instances and the registry hold it
    }
    CHECK(read_text(scratch / "deinit.txt") == "future deinit\n");
}

TEST_CASE("a plugin built against an older SDK's minor still loads", "[plugins][abi][module]") {
    // The one-plugin entry of ABI 1.0 to 1.6 (starling_plugin_entry), with a newer minor too.
    PluginRegistry registry{quiet_logger()};
    const auto newer = registry.add_module(fixture("newer_minor")).front();
    CHECK(newer.id == "newer-minor");
    CHECK(newer.abi_minor == STARLING_ABI_MINOR + 1);
    CHECK(registry.problems().empty());
    CHECK_NOTHROW(registry.create("newer-minor", "{}"));
}

TEST_CASE("a module that says it needs a newer host is refused, naming the minor it needs", "[plugins][abi][module]") {
    PluginRegistry registry{quiet_logger()};
    try {
        registry.add_module(fixture("needs_newer_host"));
        FAIL("a module that needs a newer host was loaded");
    } catch (const PluginLoadError &failure) {
        CHECK(failure.error().kind == LoadErrorKind::needs_newer_host);
        const std::string needed = "1." + std::to_string(STARLING_ABI_MINOR + 1);
        CHECK_THAT(failure.what(), Catch::Contains("needs host ABI " + needed + " or newer"));
        CHECK_THAT(failure.what(), Catch::Contains("needs-newer-one"));
    }
    CHECK(registry.plugins().empty());
    // Both of its plugins fail alike: one is thrown, the other recorded.
    REQUIRE(registry.problems().size() == 1);
    CHECK(registry.problems().front().plugin_id == "needs-newer-two");
}

TEST_CASE("a module whose init refuses the host offers nothing", "[plugins][abi][module]") {
    PluginRegistry registry{quiet_logger()};
    try {
        registry.add_module(fixture("init_refuses"));
        FAIL("a module whose init refused was loaded");
    } catch (const PluginLoadError &failure) {
        CHECK(failure.error().kind == LoadErrorKind::host_rejected);
        CHECK_THAT(failure.what(), Catch::Contains("init refused this host"));
    }
    CHECK(registry.plugins().empty());
}

TEST_CASE("one SDK module offers several plugins, and finds data shipped beside it", "[plugins][module]") {
    PluginRegistry registry{quiet_logger()};
    const auto plugins = registry.add_module(kFixtures / "starling-two-plugins.so");
    CHECK(ids_of(plugins) == std::vector<std::string>{"shipped-words", "summary-length"});
    auto batch = two_memories();
    // shipped-words.txt beside the module holds "pnpm" and "monorepo".
    CHECK(registry.create_relevance_policy("shipped-words", "{}").score("q", batch.batch()) ==
          std::vector<double>{2.0, 0.0});
    CHECK(registry.create_relevance_policy("summary-length", "{}").score("q", batch.batch()) ==
          std::vector<double>{22.0, 4.0});
}

TEST_CASE("a module of several plugins is found by any of their ids through its manifest", "[plugins][module]") {
    CHECK(starling::plugins::read_module_manifest(kFixtures / "starling-two-plugins.so") ==
          std::vector<std::string>{"shipped-words", "summary-length"});
    CHECK(starling::plugins::module_found_by_id(kFixtures / "starling-two-plugins.so", "summary-length"));
    CHECK_FALSE(starling::plugins::module_found_by_id(kFixtures / "starling-two-plugins.so", "bm25"));

    starling::test::TempDir scratch{"manifest"};
    for (const auto *name : {"starling-two-plugins.so", "starling-two-plugins.json", "shipped-words.txt"}) {
        fs::copy_file(kFixtures / name, scratch / name);
    }
    PluginRegistry registry{quiet_logger()};
    registry.discover_modules({scratch.path()}, std::vector<std::string>{"summary-length"});
    CHECK(registry.find("summary-length") != nullptr);
    CHECK(registry.find("shipped-words") != nullptr);
    CHECK(registry.modules_not_loaded().empty());

    SECTION("a malformed manifest is reported, and the module is not loaded by id") {
        std::ofstream(scratch / "starling-two-plugins.json") << R"({"plugins": "summary-length"})";
        PluginRegistry later{quiet_logger()};
        later.discover_modules({scratch.path()}, std::vector<std::string>{"summary-length"});
        CHECK(later.find("summary-length") == nullptr);
        REQUIRE(later.problems().size() == 1);
        CHECK_THAT(later.problems().front().message(),
                   Catch::Contains("starling-two-plugins.json") && Catch::Contains("no \"plugins\" list"));
        CHECK_THROWS_WITH(starling::plugins::read_module_manifest(scratch / "starling-two-plugins.so"),
                          Catch::Contains("expected {\"plugins\""));
    }
}

TEST_CASE("triples is one module of three plugins", "[plugins][module]") {
    PluginRegistry registry{quiet_logger()};
    const auto plugins = registry.add_module(kModules / "starling-triples.so");
    CHECK(ids_of(plugins) == std::vector<std::string>{"triples", "triples-rank", "triples-conflicts"});
    CHECK(starling::plugins::read_module_manifest(kModules / "starling-triples.so") ==
          std::vector<std::string>{"triples", "triples-rank", "triples-conflicts"});
    CHECK_FALSE(fs::exists(kModules / "starling-triples-rank.so"));
    const auto defaults = [&](const char *id) { return registry.find(id)->default_settings_json; };
    CHECK_NOTHROW(registry.create_decision_policy("triples", defaults("triples")));
    CHECK_NOTHROW(registry.create_relevance_policy("triples-rank", defaults("triples-rank")));
    CHECK_NOTHROW(registry.create_decay_policy("triples-conflicts", defaults("triples-conflicts")));
}
