// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/plugin.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

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

namespace {

/// A host whose similarity extension answers from a fixed value, or fails.
struct FakeSimilarityHost {
    starling_host_similarity_v1 table{sizeof(starling_host_similarity_v1), &FakeSimilarityHost::memories,
                                      &FakeSimilarityHost::text};
    bool fail = false;
    starling_host host{STARLING_ABI_MAJOR, STARLING_ABI_MINOR, sizeof(starling_host), this, nullptr,
                       &FakeSimilarityHost::get_extension};

    static const void *get_extension(void *context, const char *id) {
        auto *self = static_cast<FakeSimilarityHost *>(context);
        return std::strcmp(id, STARLING_HOST_SIMILARITY_EXTENSION_V1) == 0 ? &self->table : nullptr;
    }
    static starling_status memories(void *context, const starling_memory_batch *batch, double *out,
                                    starling_sink error) {
        auto *self = static_cast<FakeSimilarityHost *>(context);
        if (self->fail) {
            starling::sdk::write_to(error, "bm25 failed");
            return STARLING_STATUS_INTERNAL_ERROR;
        }
        for (std::size_t index = 0; index < batch->count * batch->count; ++index) {
            out[index] = 0.25;
        }
        return STARLING_STATUS_OK;
    }
    static starling_status text(void *context, starling_bytes text, const starling_memory_batch *batch, double *out,
                                starling_sink error) {
        auto *self = static_cast<FakeSimilarityHost *>(context);
        if (self->fail) {
            return STARLING_STATUS_INTERNAL_ERROR; // and no reason
        }
        static_cast<void>(error);
        for (std::size_t index = 0; index < batch->count; ++index) {
            out[index] = static_cast<double>(text.size);
        }
        return STARLING_STATUS_OK;
    }
};

starling_memory_batch two_memory_batch(std::vector<starling_memory_view> &views,
                                       std::vector<const starling_memory_view *> &items) {
    views.assign(2, starling_memory_view{});
    items = {&views[0], &views[1]};
    return starling_memory_batch{sizeof(starling_memory_batch), 0, 0, items.size(), items.data()};
}

} // namespace

TEST_CASE("the host's similarities reach the plugin through HostServices", "[sdk][host][similarity]") {
    FakeSimilarityHost fake;
    std::vector<starling_memory_view> views;
    std::vector<const starling_memory_view *> items;
    const auto raw = two_memory_batch(views, items);
    const starling::sdk::MemoryBatch batch{raw};
    const HostServices host{&fake.host};
    REQUIRE(host.offers_similarity());
    CHECK(host.similarities(batch) == std::vector<double>(4, 0.25));
    CHECK(host.similarity_to("abc", batch) == std::vector<double>{3.0, 3.0});

    fake.fail = true;
    CHECK_THROWS_WITH(host.similarities(batch), "the host's similarity failed: bm25 failed");
    CHECK_THROWS_WITH(host.similarity_to("abc", batch), "the host's similarity failed: status 2");
}

TEST_CASE("without a usable similarity extension the plugin is offered none", "[sdk][host][similarity]") {
    FakeSimilarityHost fake;
    std::vector<starling_memory_view> views;
    std::vector<const starling_memory_view *> items;
    const auto raw = two_memory_batch(views, items);
    const starling::sdk::MemoryBatch batch{raw};
    SECTION("no host") {
        CHECK_FALSE(HostServices{nullptr}.offers_similarity());
        CHECK_FALSE(HostServices{nullptr}.similarities(batch));
    }
    SECTION("a table of a smaller size than ABI 1.5's") {
        fake.table.struct_size = sizeof(std::uint32_t);
        CHECK_FALSE(HostServices{&fake.host}.offers_similarity());
        CHECK_FALSE(HostServices{&fake.host}.similarity_to("x", batch));
    }
    SECTION("a table without a function") {
        fake.table.text = nullptr;
        CHECK_FALSE(HostServices{&fake.host}.similarities(batch));
    }
}
