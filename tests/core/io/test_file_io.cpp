// SPDX-License-Identifier: Apache-2.0
#include "support/temp_dir.hpp"

#include "core/src/io/posix_io.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fs = std::filesystem;
using starling::core::ensure_directories_beneath;
using starling::core::refuse_if_others_can_change_store;
using starling::core::StoreError;
using starling::test::TempDir;

TEST_CASE("folders inside the store are made beneath its root, never through a symbolic link", "[io][containment]") {
    const TempDir directory{"beneath"};
    const fs::path root = directory.path() / "store";
    const fs::path outside = directory.path() / "outside";
    fs::create_directories(outside);

    ensure_directories_beneath(root, root / "memory/user/short");
    CHECK(fs::is_directory(root / "memory/user/short"));
    struct stat status {};
    REQUIRE(::stat((root / "memory/user/short").c_str(), &status) == 0);
    CHECK((status.st_mode & 0777) == 0700);
    ensure_directories_beneath(root, root / "memory/user/short"); // there already: nothing to do

    fs::create_directory_symlink(outside, root / "memory/user/long");
    CHECK_THROWS_WITH(ensure_directories_beneath(root, root / "memory/user/long"),
                      Catch::Contains("memory/user/long: is a symbolic link"));
    fs::create_directory_symlink(outside, root / "linked");
    CHECK_THROWS_WITH(ensure_directories_beneath(root, root / "linked/sessions"),
                      Catch::Contains("linked: is a symbolic link"));
    CHECK(fs::is_empty(outside)); // nothing was made through either link

    std::ofstream{root / "index"} << "a file where a folder belongs";
    CHECK_THROWS_WITH(ensure_directories_beneath(root, root / "index/cache"), Catch::Contains("index: is not a folder"));
    CHECK_THROWS_AS(ensure_directories_beneath(root, directory.path() / "elsewhere"), StoreError);
}

TEST_CASE("a store whose own path goes through a symbolic link is used as it is", "[io][containment]") {
    // What lies above the store's root is the system's business (a linked home, /tmp on macOS).
    const TempDir directory{"beneath-linked-root"};
    fs::create_directories(directory.path() / "real");
    fs::create_directory_symlink(directory.path() / "real", directory.path() / "home");
    ensure_directories_beneath(directory.path() / "home", directory.path() / "home/sessions");
    CHECK(fs::is_directory(directory.path() / "real/sessions"));
}

TEST_CASE("every folder of the store's layout that every user may write is refused, a tier's included",
          "[io][privacy]") {
    const TempDir directory{"others-can-change"};
    const fs::path root = directory.path() / "store";
    for (const char *folder : {"memory/user/short", "memory/user/long", "memory/projects/p1/short",
                               "memory/projects/p1/long", "sessions", "index"}) {
        fs::create_directories(root / folder);
    }
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::replace);
    refuse_if_others_can_change_store(root);

    for (const char *folder : {"", "memory", "memory/user", "memory/user/short", "memory/projects", "memory/projects/p1",
                               "memory/projects/p1/long", "sessions", "index"}) {
        const fs::path path = *folder == '\0' ? root : root / folder;
        const auto before = fs::status(path).permissions();
        fs::permissions(path, fs::perms::others_write, fs::perm_options::add);
        CHECK_THROWS_WITH(refuse_if_others_can_change_store(root),
                          Catch::Contains(path.string()) && Catch::Contains("chmod o-w"));
        fs::permissions(path, before, fs::perm_options::replace);
    }
    refuse_if_others_can_change_store(root);
}

TEST_CASE("map_stamped_file maps a file whole, as read_stamped_file reads it, and refuses what it refuses", "[io]") {
    TempDir directory;
    const fs::path file = directory.path() / "snapshot.bin";
    // More than a page, with every byte value, so that a short or shifted mapping shows.
    std::string content;
    for (int index = 0; index < 70000; ++index) {
        content += static_cast<char>(index * 7 % 256);
    }
    std::ofstream{file, std::ios::binary} << content;

    auto bytes = starling::core::detail::map_stamped_file(file, content.size());
    REQUIRE(bytes);
    CHECK(bytes->bytes.mapped());
    CHECK(bytes->bytes.view() == content);
    CHECK(bytes->stamp == starling::core::read_stamped_file(file)->stamp);

    SECTION("the mapping keeps the bytes it was made from when the file is replaced by rename") {
        const fs::path replacement = directory.path() / "snapshot.bin.new";
        std::ofstream{replacement, std::ios::binary} << std::string(content.size(), 'x');
        fs::rename(replacement, file);
        CHECK(bytes->bytes.view() == content);
    }
    SECTION("a moved mapping is still whole, and the one it was moved from is empty") {
        starling::core::detail::FileBytes moved = std::move(bytes->bytes);
        CHECK(moved.view() == content);
        CHECK(bytes->bytes.view().empty());
    }

    std::ofstream{directory.path() / "empty.bin", std::ios::binary};
    const auto empty = starling::core::detail::map_stamped_file(directory.path() / "empty.bin", 10);
    REQUIRE(empty);
    CHECK(empty->bytes.view().empty());

    CHECK_FALSE(starling::core::detail::map_stamped_file(directory.path() / "missing.bin", 10));
    CHECK_THROWS_WITH(starling::core::detail::map_stamped_file(file, content.size() - 1),
                      Catch::Contains("file is larger than"));
    fs::create_symlink(file, directory.path() / "link.bin");
    CHECK_THROWS_WITH(starling::core::detail::map_stamped_file(directory.path() / "link.bin", content.size()),
                      Catch::Contains("symbolic link"));
    CHECK_THROWS_WITH(starling::core::detail::map_stamped_file(directory.path(), 10),
                      Catch::Contains("not a regular file"));
}

TEST_CASE("map_stamped_file reads a file its file system cannot map", "[io]") {
    // sysfs attributes are regular files that cannot be mapped (ENODEV), and say they are a page long.
    const fs::path unmappable = "/sys/kernel/uevent_seqnum";
    if (!fs::is_regular_file(unmappable)) {
        WARN("no " << unmappable << " here: the fallback to reading is not exercised");
        return;
    }
    const auto bytes = starling::core::detail::map_stamped_file(unmappable, 4096);
    REQUIRE(bytes);
    CHECK_FALSE(bytes->bytes.mapped());
    std::ifstream stream(unmappable, std::ios::binary);
    const std::string expected{std::istreambuf_iterator<char>(stream), {}};
    REQUIRE_FALSE(expected.empty());
    // A counter: it may have moved between the two reads, but it is a number on one line either way.
    CHECK(bytes->bytes.view().size() > 1);
    CHECK(bytes->bytes.view().back() == '\n');
}
