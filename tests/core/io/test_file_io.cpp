// SPDX-License-Identifier: Apache-2.0
#include "support/temp_dir.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using starling::core::ensure_directories_beneath;
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
