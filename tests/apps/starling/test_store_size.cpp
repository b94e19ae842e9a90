// SPDX-License-Identifier: Apache-2.0
#include "store_size.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace starling;

namespace {

void write(const std::filesystem::path &file, std::size_t bytes) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << std::string(bytes, 'x');
}

} // namespace

TEST_CASE("store size counts files and bytes per scope of memory/ and per top-level folder", "[health][size]") {
    test::TempDir root{"store-size"};
    const auto &store = root.path();
    write(store / "memory/user/short/a.md", 10);
    write(store / "memory/user/INDEX.md", 5);
    write(store / "memory/projects/p1/long/b.md", 20);
    write(store / "memory/projects/p1/PROJECT_PATH", 9);
    write(store / "sessions/s-1.jsonl", 100);
    write(store / "archive/x/memory/user/short/c.md", 7);
    write(store / ".lock", 0);
    std::filesystem::create_symlink("/etc/passwd", store / "memory/user/short/planted.md");

    const auto size = app::measure_store(store);
    CHECK(size.total.files == 8);
    CHECK(size.total.bytes == 151);
    REQUIRE(size.folders.size() == 5);
    CHECK(size.folders.at("memory/user").files == 3); // the link counts as a file of no size
    CHECK(size.folders.at("memory/user").bytes == 15);
    CHECK(size.folders.at("memory/projects/p1").bytes == 29);
    CHECK(size.folders.at("sessions").bytes == 100);
    CHECK(size.folders.at("archive").files == 1);
    CHECK(size.folders.at(".").files == 1);
}

TEST_CASE("a store that does not exist measures nothing", "[health][size]") {
    test::TempDir root{"store-size-none"};
    const auto size = app::measure_store(root.path() / "not-yet");
    CHECK(size.total.files == 0);
    CHECK(size.folders.empty());
}
