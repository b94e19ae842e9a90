// SPDX-License-Identifier: Apache-2.0
#include "policies/cache-files/cache_file_io.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using starling::cache_files::FileRead;
using starling::cache_files::read_whole_file;
using starling::cache_files::replace_file;
namespace fs = std::filesystem;

namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
    const auto *first = reinterpret_cast<const std::byte *>(text.data());
    return {first, first + text.size()};
}

std::vector<fs::path> files_in(const fs::path &directory) {
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(directory)) {
        files.push_back(entry.path().filename());
    }
    return files;
}

/// Lowers the file size limit of this process for one scope, so that writes fail with EFBIG.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &saved_);
        previous_handler_ = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of the signal
        rlimit lowered = saved_;
        lowered.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &lowered);
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previous_handler_);
    }

private:
    rlimit saved_{};
    void (*previous_handler_)(int) = nullptr;
};

} // namespace

TEST_CASE("a cache file is read whole", "[policy][cache-files][io]") {
    starling::test::TempDir scratch{"cache-io"};
    std::ofstream(scratch / "cache.bin") << "cached bytes";
    const auto read = read_whole_file(scratch / "cache.bin", 1024);
    CHECK(read.outcome == FileRead::Outcome::read);
    CHECK(read.bytes == bytes_of("cached bytes"));
}

TEST_CASE("a file that cannot be read says why", "[policy][cache-files][io]") {
    starling::test::TempDir scratch{"cache-io"};
    SECTION("missing") {
        CHECK(read_whole_file(scratch / "absent.bin", 1024).outcome == FileRead::Outcome::missing);
    }
    SECTION("larger than allowed, without reading it") {
        {
            std::ofstream sparse(scratch / "huge.bin");
        }
        fs::resize_file(scratch / "huge.bin", std::uintmax_t{1} << 40); // sparse: no disk used
        const auto read = read_whole_file(scratch / "huge.bin", std::size_t{1} << 30);
        CHECK(read.outcome == FileRead::Outcome::too_large);
        CHECK_THAT(read.error, Catch::Contains("huge.bin") && Catch::Contains("1099511627776 bytes"));
        CHECK(read.bytes.empty());
    }
    SECTION("a directory") {
        fs::create_directory(scratch / "cache.bin");
        const auto read = read_whole_file(scratch / "cache.bin", 1024);
        CHECK(read.outcome == FileRead::Outcome::failed);
        CHECK_THAT(read.error, Catch::Contains("not a regular file"));
    }
    SECTION("a path through a file") {
        std::ofstream(scratch / "file") << "x";
        const auto read = read_whole_file(scratch / "file" / "cache.bin", 1024);
        CHECK(read.outcome == FileRead::Outcome::failed);
        CHECK_THAT(read.error, Catch::Contains("cannot open"));
    }
}

TEST_CASE("replacing a file creates its directory and leaves nothing else behind", "[policy][cache-files][io]") {
    starling::test::TempDir scratch{"cache-io"};
    const auto path = scratch / "index" / "cache" / "bm25" / "tokens.bin";
    CHECK_FALSE(replace_file(path, bytes_of("first")));
    CHECK(read_whole_file(path, 1024).bytes == bytes_of("first"));
    CHECK_FALSE(replace_file(path, bytes_of("second, longer")));
    CHECK(read_whole_file(path, 1024).bytes == bytes_of("second, longer"));
    CHECK(files_in(path.parent_path()) == std::vector<fs::path>{"tokens.bin"});
}

TEST_CASE("a file that cannot be replaced says why and leaves no partial file", "[policy][cache-files][io]") {
    starling::test::TempDir scratch{"cache-io"};
    SECTION("the directory cannot be created") {
        std::ofstream(scratch / "index") << "a file where the directory should be";
        const auto failure = replace_file(scratch / "index" / "cache" / "tokens.bin", bytes_of("x"));
        REQUIRE(failure.has_value());
        CHECK_THAT(*failure, Catch::Contains("cannot create the directory"));
    }
    SECTION("the temporary file cannot be created") {
        const auto failure = replace_file(scratch / std::string(250, 'n'), bytes_of("x"));
        REQUIRE(failure.has_value());
        CHECK_THAT(*failure, Catch::Contains("cannot create"));
        CHECK(files_in(scratch.path()).empty());
    }
    SECTION("the write fails") {
        std::optional<std::string> failure;
        {
            const FileSizeLimit limit{4};
            failure = replace_file(scratch / "tokens.bin", bytes_of("more than four bytes"));
        }
        REQUIRE(failure.has_value());
        CHECK_THAT(*failure, Catch::Contains("cannot write"));
        CHECK(files_in(scratch.path()).empty());
    }
    SECTION("the rename fails") {
        fs::create_directories(scratch / "tokens.bin" / "occupied");
        const auto failure = replace_file(scratch / "tokens.bin", bytes_of("x"));
        REQUIRE(failure.has_value());
        CHECK_THAT(*failure, Catch::Contains("cannot replace"));
        CHECK(files_in(scratch.path()) == std::vector<fs::path>{"tokens.bin"});
    }
}

TEST_CASE("partial files writers abandoned are swept once they are old, and nothing else is",
          "[policy][cache-files][io]") {
    starling::test::TempDir scratch{"bm25-partials"};
    const auto old_partial = scratch / "index-1.bin.123-456.partial";
    const auto young_partial = scratch / "index-2.bin.789-012.partial";
    const auto index = scratch / "index-1.bin";
    for (const auto &file : {old_partial, young_partial, index}) {
        std::ofstream{file} << "bytes";
    }
    const auto two_hours_ago = std::filesystem::file_time_type::clock::now() - std::chrono::hours{2};
    std::filesystem::last_write_time(old_partial, two_hours_ago);
    std::filesystem::last_write_time(index, two_hours_ago);

    CHECK(starling::cache_files::remove_abandoned_partial_files(scratch.path(), std::chrono::hours{1}) == 1);
    CHECK_FALSE(std::filesystem::exists(old_partial));
    CHECK(std::filesystem::exists(young_partial));
    CHECK(std::filesystem::exists(index));
    CHECK(starling::cache_files::remove_abandoned_partial_files(scratch / "missing", std::chrono::hours{1}) == 0);
}
