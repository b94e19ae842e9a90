// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/plugin.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <string>

using starling::sdk::HostServices;

namespace {

/// A host whose cache extension each test shapes.
struct FakeHost {
    starling_host_cache_v1 table{sizeof(starling_host_cache_v1), &FakeHost::directory};
    bool offer_cache = true;
    std::string directory_text = "/home/dev/.starling/index/cache/my-plugin";
    starling_host host{STARLING_ABI_MAJOR, STARLING_ABI_MINOR, sizeof(starling_host), this, nullptr,
                       &FakeHost::get_extension};

    static const void *get_extension(void *context, const char *id) {
        auto *self = static_cast<FakeHost *>(context);
        return self->offer_cache && std::strcmp(id, STARLING_HOST_CACHE_EXTENSION_V1) == 0 ? &self->table : nullptr;
    }
    static starling_bytes directory(void *context) {
        return starling::sdk::as_bytes(static_cast<FakeHost *>(context)->directory_text);
    }
};

} // namespace

TEST_CASE("the cache directory is the one the host offers", "[sdk][host]") {
    FakeHost fake;
    const auto directory = HostServices{&fake.host}.cache_directory();
    REQUIRE(directory.has_value());
    CHECK(*directory == std::filesystem::path{"/home/dev/.starling/index/cache/my-plugin"});
}

TEST_CASE("without a usable cache extension there is no cache directory", "[sdk][host]") {
    FakeHost fake;
    SECTION("no host at all") { CHECK_FALSE(HostServices{nullptr}.cache_directory()); }
    SECTION("a host without get_extension") {
        fake.host.get_extension = nullptr;
        CHECK_FALSE(HostServices{&fake.host}.cache_directory());
    }
    SECTION("a host that does not offer the extension") {
        fake.offer_cache = false;
        CHECK_FALSE(HostServices{&fake.host}.cache_directory());
    }
    SECTION("a table too small to hold the directory function") {
        fake.table.struct_size = sizeof(std::uint32_t);
        CHECK_FALSE(HostServices{&fake.host}.cache_directory());
    }
    SECTION("a table without the directory function") {
        fake.table.directory = nullptr;
        CHECK_FALSE(HostServices{&fake.host}.cache_directory());
    }
    SECTION("an empty directory") {
        fake.directory_text.clear();
        CHECK_FALSE(HostServices{&fake.host}.cache_directory());
    }
}
