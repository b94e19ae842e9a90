// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/plugin_registry.hpp>

#include "support/temp_dir.hpp"
#include "support/test_batch.hpp"
#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using starling::plugins::LoadErrorKind;
using starling::plugins::PluginCallError;
using starling::plugins::PluginLoadError;
using starling::plugins::PluginRegistry;

using starling::test::quiet_logger;

namespace {

const fs::path kFixtures{STARLING_TEST_FIXTURE_PLUGIN_DIR};
const fs::path kModules{STARLING_TEST_PLUGIN_MODULE_DIR};

fs::path fixture(const std::string &name) { return kFixtures / (name + ".so"); }

LoadErrorKind kind_of_load_failure(const fs::path &module) {
    PluginRegistry registry{quiet_logger()};
    try {
        registry.add_module(module);
    } catch (const PluginLoadError &failure) {
        return failure.error().kind;
    }
    FAIL("loading " << module << " did not fail");
    return LoadErrorKind::cannot_open;
}

/// A private scratch directory for files the loader must see on disk.
class ScratchDirectory {
public:
    ScratchDirectory()
        : path_(fs::temp_directory_path() / ("starling-plugin-test-" + std::to_string(::getpid()) + "-" +
                                             std::to_string(counter_++))) {
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    ScratchDirectory(const ScratchDirectory &) = delete;
    ScratchDirectory &operator=(const ScratchDirectory &) = delete;
    [[nodiscard]] const fs::path &path() const { return path_; }

private:
    static inline int counter_ = 0;
    fs::path path_;
};

} // namespace

TEST_CASE("a module built with the SDK loads and runs", "[plugins][loader]") {
    PluginRegistry registry{quiet_logger()};
    const auto info = registry.add_module(kModules / "starling-collie-search.so").front();
    CHECK(info.id == "collie-search");
    CHECK_FALSE(info.is_static);
    CHECK(info.file.filename() == "starling-collie-search.so");
    CHECK(info.abi_major == STARLING_ABI_MAJOR);
    CHECK(starling::plugins::kind_name(info.kind) == "relevance");

    auto policy = registry.create_relevance_policy("collie-search", info.default_settings_json);
    starling::test::TestBatch batch;
    batch.add({"a.md", "Prefers dark mode", "", "The user wants dark mode in every editor"})
        .add({"b.md", "Uses bun", "", "bun, not pnpm"});
    const auto scores = policy.score("DARK mode editor", batch.batch());
    REQUIRE(scores.size() == 2);
    CHECK(scores[0] == 3.0);
    CHECK(scores[1] == 0.0);
}

namespace {

std::string abi_version(unsigned major, unsigned minor) { return std::to_string(major) + "." + std::to_string(minor); }
std::string host_abi() { return abi_version(STARLING_ABI_MAJOR, STARLING_ABI_MINOR); }

} // namespace

TEST_CASE("every loader failure yields its typed error naming file and both ABI versions", "[plugins][loader]") {
    SECTION("a file that is not a shared library") {
        ScratchDirectory scratch;
        const auto garbage = scratch.path() / "starling-garbage.so";
        std::ofstream(garbage) << "this is text, not ELF\n";
        PluginRegistry registry{quiet_logger()};
        try {
            registry.add_module(garbage);
            FAIL("a text file was accepted as a plugin");
        } catch (const PluginLoadError &failure) {
            CHECK(failure.error().kind == LoadErrorKind::not_a_shared_library);
            CHECK_THAT(failure.what(), Catch::Contains(garbage.string()));
            CHECK_THAT(failure.what(), Catch::Contains("host ABI " + host_abi()));
        }
    }
    SECTION("a missing file") {
        ScratchDirectory scratch;
        CHECK(kind_of_load_failure(scratch.path() / "absent.so") == LoadErrorKind::not_a_shared_library);
    }
    SECTION("a shared library without the entry point") {
        CHECK(kind_of_load_failure(fixture("no_entry")) == LoadErrorKind::missing_entry);
    }
    SECTION("another ABI major version") {
        PluginRegistry registry{quiet_logger()};
        try {
            registry.add_module(fixture("wrong_major"));
            FAIL("a plugin of ABI 2.0 was accepted");
        } catch (const PluginLoadError &failure) {
            CHECK(failure.error().kind == LoadErrorKind::abi_major_mismatch);
            REQUIRE(failure.error().plugin_abi.has_value());
            CHECK(failure.error().plugin_abi->major == 2);
            CHECK_THAT(failure.what(), Catch::Contains("wrong_major.so"));
            CHECK_THAT(failure.what(), Catch::Contains("plugin ABI 2.0, host ABI " + host_abi()));
        }
    }
    SECTION("an entry point that refuses the host") {
        CHECK(kind_of_load_failure(fixture("host_rejected")) == LoadErrorKind::host_rejected);
    }
    SECTION("a descriptor smaller than ABI 1.0 defines") {
        CHECK(kind_of_load_failure(fixture("small_descriptor")) == LoadErrorKind::invalid_descriptor);
    }
    SECTION("a malformed plugin id") {
        CHECK(kind_of_load_failure(fixture("bad_id")) == LoadErrorKind::invalid_descriptor);
    }
    SECTION("a create that throws") {
        PluginRegistry registry{quiet_logger()};
        registry.add_module(fixture("create_throws"));
        try {
            (void)registry.create_relevance_policy("create-throws", "{}");
            FAIL("create succeeded");
        } catch (const PluginLoadError &failure) {
            CHECK(failure.error().kind == LoadErrorKind::create_failed);
            CHECK_THAT(failure.what(), Catch::Contains("create_throws.so"));
            CHECK_THAT(failure.what(), Catch::Contains("plugin ABI " + host_abi() + ", host ABI " + host_abi()));
            CHECK_THAT(failure.what(), Catch::Contains("fixture refuses to start: no index directory"));
        }
    }
}

TEST_CASE("a plugin built against an older minor ABI loads and runs", "[plugins][loader]") {
    PluginRegistry registry{quiet_logger()};
    const auto info = registry.add_module(fixture("older_minor")).front();
    CHECK(info.id == "older-minor");
    CHECK(info.abi_major == STARLING_ABI_MAJOR);
    CHECK(info.abi_minor == 0);
    CHECK(registry.problems().empty());
    CHECK_NOTHROW(registry.create("older-minor", "{}"));
}

TEST_CASE("each plugin is offered a cache directory of its own under the cache root", "[plugins][cache]") {
    starling::test::TempDir scratch{"plugin-cache"};
    const starling::core::Logger logger{scratch / "starling.log", starling::core::LogLevel::info, false};
    const auto logged = [&] {
        std::ifstream log(scratch / "starling.log");
        return std::string{std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>()};
    };

    SECTION("with a cache root") {
        PluginRegistry registry{logger, {scratch / "store" / "index" / "cache", std::nullopt}};
        registry.add_module(fixture("cache_probe"));
        (void)registry.create_relevance_policy("cache-probe", "{}");
        const auto expected = scratch.path() / "store" / "index" / "cache" / "cache-probe";
        CHECK_THAT(logged(), Catch::Contains("plugin cache-probe: cache directory: " + expected.string()));
        CHECK_FALSE(fs::exists(expected)); // created by the plugin when it first writes, not by the host
    }
    SECTION("a relative cache root is made absolute") {
        PluginRegistry registry{logger, {fs::path{"relative"} / "cache", std::nullopt}};
        registry.add_module(fixture("cache_probe"));
        (void)registry.create_relevance_policy("cache-probe", "{}");
        const auto expected = fs::current_path() / "relative" / "cache" / "cache-probe";
        CHECK_THAT(logged(), Catch::Contains("cache directory: " + expected.string()));
    }
    SECTION("without a cache root") {
        PluginRegistry registry{logger};
        registry.add_module(fixture("cache_probe"));
        (void)registry.create_relevance_policy("cache-probe", "{}");
        CHECK_THAT(logged(), Catch::Contains("plugin cache-probe: cache directory: none"));
    }
}

TEST_CASE("a plugin of a kind the host does not know is listed but never instantiated", "[plugins][loader]") {
    PluginRegistry registry{quiet_logger()};
    const auto info = registry.add_module(fixture("future_kind")).front();
    CHECK(starling::plugins::kind_name(info.kind) == "unknown(99)");
    try {
        (void)registry.create_relevance_policy("future-kind", "{}");
        FAIL("a plugin of unknown kind was used as a relevance policy");
    } catch (const PluginLoadError &failure) {
        CHECK(failure.error().kind == LoadErrorKind::wrong_kind);
    }
}

TEST_CASE("asking for a plugin that is not registered is a typed error", "[plugins][loader]") {
    PluginRegistry registry{quiet_logger()};
    try {
        (void)registry.create("nowhere", "{}");
        FAIL("an unknown plugin was created");
    } catch (const PluginLoadError &failure) {
        CHECK(failure.error().kind == LoadErrorKind::unknown_plugin);
        CHECK_THAT(failure.what(), Catch::Contains("nowhere"));
    }
}

TEST_CASE("a plugin throwing inside a call does not take the host down", "[plugins][isolation]") {
    PluginRegistry registry{quiet_logger()};
    registry.add_module(fixture("throws_in_call"));
    registry.add_module(fixture("raw_throw"));
    const auto sdk_policy = registry.create_relevance_policy("throws-in-call", "{}");
    const auto raw_policy = registry.create_relevance_policy("raw-throw", "{}");
    starling::test::TestBatch batch;
    batch.add({"a.md", "four", "", ""});

    SECTION("an exception inside an SDK plugin becomes a status and a message") {
        try {
            (void)sdk_policy.score("boom", batch.batch());
            FAIL("the failure was swallowed");
        } catch (const PluginCallError &failure) {
            CHECK(failure.status() == STARLING_STATUS_INTERNAL_ERROR);
            CHECK(failure.plugin_id() == "throws-in-call");
            CHECK_THAT(failure.what(), Catch::Contains("fixture exploded while scoring"));
        }
        try {
            (void)sdk_policy.score("bad input", batch.batch());
            FAIL("the failure was swallowed");
        } catch (const PluginCallError &failure) {
            CHECK(failure.status() == STARLING_STATUS_INVALID_INPUT);
        }
        // The same instance keeps working after its failures.
        CHECK(sdk_policy.score("fine", batch.batch()) == std::vector<double>{4.0});
    }
    SECTION("an exception escaping a plugin that ignores the contract is contained") {
        try {
            (void)raw_policy.score("anything", batch.batch());
            FAIL("the failure was swallowed");
        } catch (const PluginCallError &failure) {
            CHECK(failure.plugin_id() == "raw-throw");
            CHECK_THAT(failure.what(), Catch::Contains("raw plugin threw through the C ABI"));
        }
    }
}

TEST_CASE("a second plugin with an id already registered is rejected", "[plugins][registry]") {
    SECTION("two modules") {
        PluginRegistry registry{quiet_logger()};
        registry.add_module(fixture("duplicate_one"));
        try {
            registry.add_module(fixture("duplicate_two"));
            FAIL("the second plugin was registered");
        } catch (const PluginLoadError &failure) {
            CHECK(failure.error().kind == LoadErrorKind::duplicate_id);
            CHECK_THAT(failure.what(), Catch::Contains("duplicate_two.so"));
            CHECK_THAT(failure.what(), Catch::Contains("duplicate_one.so"));
        }
        REQUIRE(registry.plugins().size() == 1);
        CHECK(registry.plugins().front().file.filename() == "duplicate_one.so");
    }
    SECTION("a module on disk with the id of a static plugin but another version is reported, not silently shadowed") {
        ScratchDirectory scratch;
        fs::copy_file(fixture("other_bm25"), scratch.path() / "starling-bm25.so");
        PluginRegistry registry{quiet_logger()};
        registry.add_static_plugins(starling::plugins::linked_static_plugins());
        registry.discover_modules({scratch.path()});
        const auto *info = registry.find("bm25");
        REQUIRE(info != nullptr);
        CHECK(info->is_static);
        REQUIRE(registry.problems().size() == 1);
        CHECK(registry.problems().front().kind == LoadErrorKind::duplicate_id);
        CHECK_THAT(registry.problems().front().message(),
                   Catch::Contains("static plugin") && Catch::Contains("this one is 0.0.1"));
        CHECK(registry.copies_of_linked_plugins().empty());
    }
}

TEST_CASE("installed copies of the linked-in plugins are no conflict", "[plugins][registry]") {
    ScratchDirectory scratch;
    std::size_t copied = 0;
    for (const auto &module : fs::directory_iterator(kModules)) {
        if (module.path().extension() == ".so") {
            fs::copy_file(module.path(), scratch.path() / module.path().filename());
            ++copied;
        }
    }
    REQUIRE(copied >= 8);
    // A module offers the plugins its manifest lists (triples offers three).
    std::size_t offered = 0;
    for (const auto &module : fs::directory_iterator(kModules)) {
        if (module.path().extension() == ".so") {
            const auto listed = starling::plugins::read_module_manifest(module.path());
            REQUIRE(listed.has_value());
            offered += listed->size();
        }
    }
    CHECK(offered > copied);
    PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    const auto linked = registry.plugins().size();
    registry.discover_modules({scratch.path()});
    CHECK(registry.problems().empty());
    CHECK(registry.plugins().size() == linked);
    REQUIRE(registry.copies_of_linked_plugins().size() == offered);
    const auto &copy = registry.copies_of_linked_plugins().front();
    const auto *info = registry.find(copy.plugin_id);
    REQUIRE(info != nullptr);
    CHECK(info->is_static);
    CHECK(copy.version == info->version);
    CHECK(copy.file.parent_path() == scratch.path());
}

TEST_CASE("registering the linked plugins of a few ids runs only their entry points", "[plugins][registry]") {
    PluginRegistry everything{quiet_logger()};
    everything.add_static_plugins(starling::plugins::linked_static_plugins());
    REQUIRE(everything.plugins().size() > 3);

    PluginRegistry few{quiet_logger()};
    few.add_static_plugins(starling::plugins::linked_static_plugins(),
                           std::vector<std::string>{"claude-code", "triples-rank", "not-linked"});
    REQUIRE(few.plugins().size() == 2);
    CHECK(few.find("claude-code") != nullptr);
    CHECK(few.find("triples-rank") != nullptr);
    CHECK(few.find("bm25") == nullptr);
    CHECK(few.problems().empty());

    PluginRegistry none{quiet_logger()};
    none.add_static_plugins(starling::plugins::linked_static_plugins(), std::vector<std::string>{});
    CHECK(none.plugins().empty());
    CHECK(starling::plugins::static_plugin_symbol("triples-rank") == "triples_rank");
}

TEST_CASE("a linked plugin whose id is not the one its entry symbol names is refused", "[plugins][registry]") {
    // triples-rank's entry, listed under bm25's symbol: registering only bm25 would find the wrong plugin.
    const auto linked = starling::plugins::linked_static_plugins();
    const auto entry = std::find_if(linked.begin(), linked.end(), [](const auto &plugin) {
        return std::string_view{plugin.symbol} == "triples_rank";
    });
    REQUIRE(entry != linked.end());
    const starling::plugins::StaticPlugin misnamed[] = {{"bm25", entry->entry}};
    PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(misnamed);
    CHECK(registry.plugins().empty());
    REQUIRE(registry.problems().size() == 1);
    CHECK(registry.problems().front().kind == LoadErrorKind::invalid_descriptor);
    CHECK_THAT(registry.problems().front().message(),
               Catch::Contains("static entry starling_plugin_entry_bm25") &&
                   Catch::Contains("registers the id 'triples-rank'") &&
                   Catch::Contains("starling_plugin_entry_triples_rank"));
}

TEST_CASE("discovery loads every module of a directory and collects failures", "[plugins][registry]") {
    ScratchDirectory scratch;
    fs::copy_file(fixture("throws_in_call"), scratch.path() / "a-good.so");
    fs::copy_file(fixture("wrong_major"), scratch.path() / "b-wrong-major.so");
    std::ofstream(scratch.path() / "c-garbage.so") << "garbage";
    std::ofstream(scratch.path() / "README.txt") << "not a module, not even looked at";
    PluginRegistry registry{quiet_logger()};
    registry.discover_modules({scratch.path(), scratch.path() / "does-not-exist"});
    REQUIRE(registry.plugins().size() == 1);
    CHECK(registry.plugins().front().id == "throws-in-call");
    REQUIRE(registry.problems().size() == 2);
    CHECK(registry.problems()[0].kind == LoadErrorKind::abi_major_mismatch);
    CHECK(registry.problems()[1].kind == LoadErrorKind::not_a_shared_library);
}

TEST_CASE("discovery for a few plugin ids loads only their modules, found by file name", "[plugins][registry]") {
    PluginRegistry registry{quiet_logger()};
    // The fixture folder holds modules that crash or hang at load: loading one would end this test.
    registry.discover_modules({kFixtures}, std::vector<std::string>{"fixture-agent", "not-installed"});
    REQUIRE(registry.plugins().size() == 1);
    CHECK(registry.plugins().front().id == "fixture-agent");
    CHECK(registry.problems().empty());
    const auto &skipped = registry.modules_not_loaded();
    CHECK(std::find(skipped.begin(), skipped.end(), kFixtures / "starling-crash-at-load.so") != skipped.end());
    CHECK(std::find(skipped.begin(), skipped.end(), kFixtures / "starling-fixture-agent.so") == skipped.end());
    CHECK(starling::plugins::module_file_name("bm25") == "starling-bm25.so");
}

TEST_CASE("a registry that probes modules first reports one that crashes or hangs at load, and lives",
          "[plugins][registry][containment]") {
    starling::plugins::PluginHostOptions options;
    options.probe_modules_within = std::chrono::milliseconds{300};
    PluginRegistry registry{quiet_logger(), options};
    for (const auto *name : {"starling-crash-at-load", "starling-hang-at-load"}) {
        INFO(name);
        try {
            registry.add_module(fixture(name));
            FAIL("loaded a module that misbehaves at load");
        } catch (const PluginLoadError &failure) {
            CHECK(failure.error().kind == LoadErrorKind::misbehaved_at_load);
            CHECK_THAT(failure.what(), Catch::Contains(name) && Catch::Contains("not loaded"));
        }
    }
    // A well-behaved module passes the probe and loads.
    CHECK(registry.add_module(fixture("throws_in_call")).front().id == "throws-in-call");
}

TEST_CASE("a registry that probes creates a plugin in a child first and says how one that crashes or hangs "
          "there misbehaved",
          "[plugins][registry][containment]") {
    starling::plugins::PluginHostOptions options;
    options.probe_modules_within = std::chrono::milliseconds{300};
    PluginRegistry registry{quiet_logger(), options};
    registry.add_module(fixture("starling-crash-in-create"));
    registry.add_module(fixture("starling-spin-in-create"));
    registry.add_module(fixture("create_throws"));
    registry.add_module(fixture("throws_in_call"));
    CHECK(registry.probe_create("crash-in-create", "{}") ==
          "crashed with fatal signal 11 (Segmentation fault) while being created");
    CHECK(registry.probe_create("spin-in-create", "{}") == "did not finish being created within 300 ms");
    // Refusing to be created is an ordinary error, which creating it here reports; so is a plugin
    // no one registered.
    CHECK_FALSE(registry.probe_create("create-throws", "{}"));
    CHECK_FALSE(registry.probe_create("no-such-plugin", "{}"));
    CHECK_FALSE(registry.probe_create("throws-in-call", "{}"));

    PluginRegistry unprobing{quiet_logger()};
    unprobing.add_module(fixture("starling-crash-in-create"));
    CHECK_FALSE(unprobing.probe_create("crash-in-create", "{}"));
}

TEST_CASE("static and module builds of the same plugin behave the same", "[plugins][static]") {
    PluginRegistry static_registry{quiet_logger()};
    static_registry.add_static_plugins(starling::plugins::linked_static_plugins());
    PluginRegistry module_registry{quiet_logger()};
    module_registry.add_module(kModules / "starling-collie-search.so");

    const auto *static_info = static_registry.find("collie-search");
    const auto *module_info = module_registry.find("collie-search");
    REQUIRE(static_info != nullptr);
    REQUIRE(module_info != nullptr);
    CHECK(static_info->is_static);
    CHECK_FALSE(module_info->is_static);
    CHECK(static_info->version == module_info->version);
    CHECK(static_info->default_settings_json == module_info->default_settings_json);

    starling::test::TestBatch batch;
    batch.add({"1.md", "Commit messages in English", "git\nstyle", "Write commit messages in English."})
        .add({"2.md", "提交信息用中文", "git", "用中文写提交信息"})
        .add({"3.md", "Team of five", "", "The user leads a team of five."});
    for (const std::string settings : {R"({"case_sensitive": false})", R"({"case_sensitive": true})",
                                       R"({"include_body": false, "include_tags": false})"}) {
        const auto from_static = static_registry.create_relevance_policy("collie-search", settings);
        const auto from_module = module_registry.create_relevance_policy("collie-search", settings);
        for (const std::string query : {"commit english", "中文 提交", "GIT five", ""}) {
            INFO("settings " << settings << ", query '" << query << "'");
            CHECK(from_static.score(query, batch.batch()) == from_module.score(query, batch.batch()));
        }
    }
}

TEST_CASE("instances keep their library alive after the registry is gone", "[plugins][lifetime]") {
    std::optional<starling::plugins::RelevancePolicyInstance> survivor;
    {
        PluginRegistry registry{quiet_logger()};
        registry.add_module(kModules / "starling-collie-search.so");
        survivor.emplace(registry.create_relevance_policy("collie-search", "{}"));
    }
    starling::test::TestBatch batch;
    batch.add({"a.md", "bun over pnpm", "", ""});
    CHECK(survivor->score("bun", batch.batch()) == std::vector<double>{1.0});
}

TEST_CASE("a plugin folder or module every user can change is never loaded", "[plugins][registry]") {
    ScratchDirectory scratch;
    fs::copy_file(fixture("throws_in_call"), scratch.path() / "a-module.so");
    SECTION("the folder") {
        fs::permissions(scratch.path(), fs::perms::others_write, fs::perm_options::add);
        PluginRegistry registry{quiet_logger()};
        registry.discover_modules({scratch.path()});
        CHECK(registry.plugins().empty());
        REQUIRE(registry.problems().size() == 1);
        CHECK(registry.problems().front().kind == LoadErrorKind::unsafe_location);
        CHECK_THAT(registry.problems().front().message(),
                   Catch::Contains(scratch.path().string()) && Catch::Contains("writable by every user"));
    }
    SECTION("the module") {
        fs::permissions(scratch.path() / "a-module.so", fs::perms::others_write, fs::perm_options::add);
        CHECK(kind_of_load_failure(scratch.path() / "a-module.so") == LoadErrorKind::unsafe_location);
    }
    SECTION("a sticky folder others cannot replace modules in is fine") {
        fs::permissions(scratch.path(), fs::perms::others_write | fs::perms::sticky_bit, fs::perm_options::add);
        PluginRegistry registry{quiet_logger()};
        registry.discover_modules({scratch.path()});
        CHECK(registry.problems().empty());
        CHECK(registry.plugins().size() == 1);
    }
}
