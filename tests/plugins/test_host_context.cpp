// SPDX-License-Identifier: Apache-2.0
#include "plugins/src/host_context.hpp"

#include <starling/sdk/bytes.hpp>

#include <catch2/catch.hpp>

#include "support/quiet_logger.hpp"

#include <filesystem>
#include <string>

using starling::plugins::HostContext;

using starling::test::quiet_logger;

namespace {

const starling_host_cache_v1 *cache_extension(const starling_host *host,
                                              const char *id = STARLING_HOST_CACHE_EXTENSION_V1) {
    return static_cast<const starling_host_cache_v1 *>(host->get_extension(host->context, id));
}

} // namespace

TEST_CASE("the host announces the ABI it was built with", "[plugins][host]") {
    const HostContext context{quiet_logger(), "plugin test"};
    CHECK(context.host()->abi_major == STARLING_ABI_MAJOR);
    CHECK(context.host()->abi_minor == STARLING_ABI_MINOR);
    CHECK(context.host()->struct_size == sizeof(starling_host));
}

TEST_CASE("the cache extension hands out the plugin's directory", "[plugins][host][cache]") {
    const std::filesystem::path directory{"/store/index/cache/bm25"};
    const HostContext context{quiet_logger(), "plugin bm25", directory};
    const auto *cache = cache_extension(context.host());
    REQUIRE(cache != nullptr);
    CHECK(cache->struct_size == sizeof(starling_host_cache_v1));
    CHECK(starling::sdk::as_string_view(cache->directory(context.host()->context)) == directory.string());
}

TEST_CASE("the cache extension is offered only with a directory", "[plugins][host][cache]") {
    const HostContext without{quiet_logger(), "plugin bm25"};
    CHECK(cache_extension(without.host()) == nullptr);
    const HostContext empty{quiet_logger(), "plugin bm25", std::filesystem::path{}};
    CHECK(cache_extension(empty.host()) == nullptr);
}

TEST_CASE("unknown extensions are not offered", "[plugins][host]") {
    const HostContext context{quiet_logger(), "plugin bm25", std::filesystem::path{"/cache"}};
    CHECK(cache_extension(context.host(), "starling.host.cache/2") == nullptr);
    CHECK(cache_extension(context.host(), "starling.host.other/1") == nullptr);
    CHECK(context.host()->get_extension(context.host()->context, nullptr) == nullptr);
}

TEST_CASE("two plugins' hosts share the table but not the directory", "[plugins][host][cache]") {
    const HostContext first{quiet_logger(), "plugin a", std::filesystem::path{"/cache/a"}};
    const HostContext second{quiet_logger(), "plugin b", std::filesystem::path{"/cache/b"}};
    const auto *table = cache_extension(first.host());
    REQUIRE(table == cache_extension(second.host()));
    CHECK(starling::sdk::as_string_view(table->directory(first.host()->context)) == "/cache/a");
    CHECK(starling::sdk::as_string_view(table->directory(second.host()->context)) == "/cache/b");
}
