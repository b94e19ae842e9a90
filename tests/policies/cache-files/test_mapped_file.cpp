// SPDX-License-Identifier: Apache-2.0
#include "policies/cache-files/mapped_file.hpp"

#include "policies/cache-files/cache_file_io.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using starling::cache_files::MappedFile;
namespace fs = std::filesystem;

namespace {

std::string text_of(const MappedFile &file) {
    const auto bytes = file.bytes();
    return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

void write_file(const fs::path &path, const std::string &text) {
    std::ofstream{path, std::ios::binary} << text;
}

} // namespace

TEST_CASE("a mapped cache file holds the file's bytes, every byte value included", "[cache-files]") {
    starling::test::TempDir scratch{"mapped-file"};
    std::string text;
    for (int round = 0; round < 40; ++round) { // past a page, so the mapping spans several
        for (int value = 0; value < 256; ++value) {
            text.push_back(static_cast<char>(value));
        }
    }
    write_file(scratch / "index.bin", text);
    MappedFile file;
    std::string problem;
    REQUIRE(MappedFile::open(scratch / "index.bin", file, problem) == MappedFile::Outcome::opened);
    CHECK(file.mapped());
    CHECK(text_of(file) == text);
    CHECK(problem.empty());

    SECTION("moved, it keeps them") {
        MappedFile moved = std::move(file);
        CHECK(text_of(moved) == text);
        CHECK(file.bytes().empty());
    }
    SECTION("replaced by rename, as every cache file is, the mapping keeps the bytes it opened") {
        CHECK(starling::cache_files::stamp_of(scratch / "index.bin") == file.stamp());
        const std::string replacement(text.size(), 'x');
        REQUIRE_FALSE(starling::cache_files::replace_file(
            scratch / "index.bin", std::as_bytes(std::span{replacement.data(), replacement.size()})));
        CHECK(text_of(file) == text);
        CHECK(starling::cache_files::stamp_of(scratch / "index.bin") != file.stamp()); // another inode
    }
    SECTION("changed in place, the file's stamp is no longer the mapping's") {
        std::ofstream{scratch / "index.bin", std::ios::binary | std::ios::app} << "more";
        CHECK(starling::cache_files::stamp_of(scratch / "index.bin") != file.stamp());
    }
}

TEST_CASE("an empty cache file opens with no bytes, a missing one is missing", "[cache-files]") {
    starling::test::TempDir scratch{"mapped-file"};
    write_file(scratch / "empty.bin", "");
    MappedFile file;
    std::string problem;
    CHECK(MappedFile::open(scratch / "empty.bin", file, problem) == MappedFile::Outcome::opened);
    CHECK(file.bytes().empty());
    CHECK(MappedFile::open(scratch / "absent.bin", file, problem) == MappedFile::Outcome::missing);
    CHECK(problem.empty());
    CHECK_FALSE(starling::cache_files::stamp_of(scratch / "absent.bin"));
}

TEST_CASE("a cache file that is a folder fails and says so", "[cache-files]") {
    starling::test::TempDir scratch{"mapped-file"};
    fs::create_directory(scratch / "index.bin");
    MappedFile file;
    std::string problem;
    CHECK(MappedFile::open(scratch / "index.bin", file, problem) == MappedFile::Outcome::failed);
    CHECK(problem.find("index.bin") != std::string::npos);
    CHECK(problem.find("not a regular file") != std::string::npos);
}

TEST_CASE("a file its file system cannot map is read to its end instead", "[cache-files]") {
    // sysfs attributes are regular files that cannot be mapped (ENODEV), and say they are a page long.
    const fs::path unmappable = "/sys/kernel/uevent_seqnum";
    if (!fs::is_regular_file(unmappable)) {
        WARN("no " << unmappable << " here: the fallback to reading is not exercised");
        return;
    }
    MappedFile file;
    std::string problem;
    REQUIRE(MappedFile::open(unmappable, file, problem) == MappedFile::Outcome::opened);
    CHECK_FALSE(file.mapped());
    // A counter: a number on one line, far shorter than the page the file claims.
    const std::string text = text_of(file);
    CHECK(text.size() > 1);
    CHECK(text.size() < 4096);
    CHECK(text.back() == '\n');
}
