// SPDX-License-Identifier: Apache-2.0
// StagedDirectory: write_files_atomically's way to fill a folder that has no file yet.
#include "core/src/io/staged_directory.hpp"

#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::core::FileWrite;
using starling::core::detail::StagedDirectory;
using starling::test::read_bytes;
using starling::test::TempDir;

namespace {

std::vector<FileWrite> files_for(const fs::path &folder, int count) {
    std::vector<FileWrite> files;
    for (int index = 0; index < count; ++index) {
        files.push_back({folder / ("file-" + std::to_string(index) + ".md"), "content " + std::to_string(index) + "\n"});
    }
    return files;
}

std::vector<const FileWrite *> pointers_to(const std::vector<FileWrite> &files) {
    std::vector<const FileWrite *> pointers;
    for (const auto &file : files) {
        pointers.push_back(&file);
    }
    return pointers;
}

std::vector<std::string> entries_of(const fs::path &folder) {
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(folder)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

TEST_CASE("a staged folder is published whole by one rename over an empty folder, which keeps its mode",
          "[store][atomic][staged]") {
    const TempDir root{"staged"};
    const fs::path folder = root.path() / "short";
    fs::create_directory(folder);
    ::chmod(folder.c_str(), 0750);
    const auto files = files_for(folder, 20);
    StagedDirectory staged{folder, pointers_to(files)};
    CHECK(starling::core::is_atomic_write_temp_name(staged.staging().filename().string()));
    CHECK(staged.staging().parent_path() == root.path());
    CHECK(entries_of(folder).empty()); // nothing at the paths before publish()
    staged.publish();
    CHECK(entries_of(root.path()) == std::vector<std::string>{"short"});
    for (const auto &file : files) {
        CHECK(read_bytes(file.path) == file.bytes);
    }
    struct stat status {};
    REQUIRE(::stat(folder.c_str(), &status) == 0);
    CHECK((status.st_mode & 07777) == 0750);
}

TEST_CASE("a staged folder whose folder gained a file meanwhile is published file by file, that file kept",
          "[store][atomic][staged]") {
    const TempDir root{"staged"};
    const fs::path folder = root.path() / "short";
    fs::create_directory(folder);
    const auto files = files_for(folder, 20);
    StagedDirectory staged{folder, pointers_to(files)};
    starling::test::write_bytes(folder / "written-meanwhile.md", "another writer's\n");
    staged.publish();
    CHECK(entries_of(folder).size() == 21);
    CHECK(read_bytes(folder / "written-meanwhile.md") == "another writer's\n");
    for (const auto &file : files) {
        CHECK(read_bytes(file.path) == file.bytes);
    }
    CHECK(entries_of(root.path()) == std::vector<std::string>{"short"}); // the staging folder is gone
}

TEST_CASE("a staged folder never published leaves nothing behind, and a failed one names the file",
          "[store][atomic][staged]") {
    const TempDir root{"staged"};
    const fs::path folder = root.path() / "short";
    {
        const auto files = files_for(folder, 5);
        const StagedDirectory staged{folder, pointers_to(files)};
        CHECK(fs::exists(staged.staging()));
    }
    CHECK(entries_of(root.path()).empty());

    auto twice = files_for(folder, 3);
    twice.push_back(twice.front()); // a name twice: the second cannot be created
    try {
        const StagedDirectory staged{folder, pointers_to(twice)};
        FAIL("a name given twice was staged");
    } catch (const starling::core::StoreError &error) {
        CHECK(std::string{error.what()}.find("file-0.md") != std::string::npos);
    }
    CHECK(entries_of(root.path()).empty());
}

TEST_CASE("only a dead writer's staging folders beside a folder are removed", "[store][atomic][staged]") {
    const TempDir root{"staged"};
    const fs::path folder = root.path() / "short";
    // No process has pid 2^22 + 1 (above the kernel's limit): its writer is dead. Ours is alive.
    const fs::path dead = root.path() / ".short.tmp-4194305-0123abcd";
    const fs::path alive = root.path() / (".short.tmp-" + std::to_string(::getpid()) + "-0123abcd");
    const fs::path other = root.path() / ".long.tmp-4194305-0123abcd";
    for (const auto &staging : {dead, alive, other}) {
        fs::create_directory(staging);
        starling::test::write_bytes(staging / "file.md", "staged\n");
    }
    starling::core::detail::remove_dead_staging_directories(folder);
    CHECK_FALSE(fs::exists(dead));
    CHECK(fs::exists(alive));
    CHECK(fs::exists(other)); // beside another folder: that folder's writer removes it
}

TEST_CASE("write_files_atomically stages many files for an empty folder and renames them beside a full one",
          "[store][atomic][staged]") {
    const TempDir root{"staged"};
    const fs::path empty = root.path() / "empty";
    const fs::path full = root.path() / "full";
    fs::create_directory(empty);
    fs::create_directory(full);
    starling::test::write_bytes(full / "file-0.md", "old\n");
    auto files = files_for(empty, 20);
    for (auto &file : files_for(full, 20)) {
        files.push_back(std::move(file));
    }
    starling::core::write_files_atomically(files);
    for (const auto &file : files) {
        CHECK(read_bytes(file.path) == file.bytes);
    }
    CHECK(entries_of(root.path()) == std::vector<std::string>{"empty", "full"});
    CHECK(entries_of(empty).size() == 20);
    CHECK(entries_of(full).size() == 20);
}

TEST_CASE("thousands of files for folders not yet made are written while their file system writes back",
          "[store][atomic][staged]") {
    // Enough files for the early write-back thread, into two tier folders not made yet, as in a
    // fresh home: every file arrives whole, and no staging folder is left.
    const TempDir root{"staged-writeback"};
    const fs::path user = root.path() / "memory" / "user" / "short";
    const fs::path project = root.path() / "memory" / "projects" / "p" / "long";
    fs::create_directories(user.parent_path());
    fs::create_directories(project.parent_path());
    auto files = files_for(user, 1500);
    for (auto &file : files_for(project, 1500)) {
        files.push_back(std::move(file));
    }
    const auto stamps = starling::core::write_files_atomically(files);
    REQUIRE(stamps.size() == files.size());
    for (const auto &file : files) {
        CHECK(read_bytes(file.path) == file.bytes);
    }
    CHECK(entries_of(user).size() == 1500);
    CHECK(entries_of(project).size() == 1500);
    CHECK(entries_of(user.parent_path()) == std::vector<std::string>{"short"});
    CHECK(entries_of(project.parent_path()) == std::vector<std::string>{"long"});
}

TEST_CASE("write_files_atomically returns each file's stamp, as a stat of its path sees it afterwards",
          "[store][atomic][staged]") {
    const TempDir root{"staged"};
    std::vector<FileWrite> files;
    for (const char *name : {"a", "b", "c"}) { // empty: staged, shared out between two threads
        fs::create_directory(root.path() / name);
        for (auto &file : files_for(root.path() / name, 17 + static_cast<int>(files.size()))) {
            files.push_back(std::move(file));
        }
    }
    fs::create_directory(root.path() / "full"); // a temporary file and a rename each
    starling::test::write_bytes(root.path() / "full" / "file-0.md", "old\n");
    for (auto &file : files_for(root.path() / "full", 20)) {
        files.push_back(std::move(file));
    }
    const auto stamps = starling::core::write_files_atomically(files);
    REQUIRE(stamps.size() == files.size());
    for (std::size_t index = 0; index < files.size(); ++index) {
        INFO(files[index].path);
        CHECK(read_bytes(files[index].path) == files[index].bytes);
        CHECK(starling::core::stamp_file(files[index].path) == std::optional{stamps[index]});
    }

    const auto few = files_for(root.path() / "few", 3); // fsynced one by one
    fs::create_directory(root.path() / "few");
    const auto few_stamps = starling::core::write_files_atomically(few);
    REQUIRE(few_stamps.size() == few.size());
    for (std::size_t index = 0; index < few.size(); ++index) {
        CHECK(starling::core::stamp_file(few[index].path) == std::optional{few_stamps[index]});
    }
}

TEST_CASE("folders staged on two threads are all written, and one failure removes every staging folder",
          "[store][atomic][staged]") {
    using starling::core::detail::StagingRequest;
    const TempDir root{"staged"};
    std::vector<std::vector<FileWrite>> groups;
    for (const char *name : {"a", "b", "c", "d"}) {
        groups.push_back(files_for(root.path() / name, 5 + 10 * static_cast<int>(groups.size())));
    }
    std::vector<std::vector<const FileWrite *>> pointers;
    for (const auto &group : groups) {
        pointers.push_back(pointers_to(group));
    }
    std::vector<StagingRequest> requests;
    for (std::size_t index = 0; index < groups.size(); ++index) {
        requests.push_back({groups[index].front().path.parent_path(), &pointers[index]});
    }
    {
        const auto staged = starling::core::detail::stage_directories(requests);
        REQUIRE(staged.size() == requests.size());
        for (std::size_t index = 0; index < staged.size(); ++index) {
            CHECK(staged[index]->stamps().size() == groups[index].size());
            CHECK(entries_of(staged[index]->staging()).size() == groups[index].size());
            staged[index]->publish();
        }
    }
    for (const auto &group : groups) {
        for (const auto &file : group) {
            CHECK(read_bytes(file.path) == file.bytes);
        }
    }
    CHECK(entries_of(root.path()) == std::vector<std::string>{"a", "b", "c", "d"});

    const TempDir other{"staged"};
    for (std::size_t index = 0; index < groups.size(); ++index) {
        requests[index].directory = other.path() / groups[index].front().path.parent_path().filename();
    }
    auto twice = pointers[1];
    twice.push_back(twice.front()); // a name twice in the smaller share: its thread fails
    requests[1].files = &twice;
    try {
        static_cast<void>(starling::core::detail::stage_directories(requests));
        FAIL("a name given twice was staged");
    } catch (const starling::core::StoreError &error) {
        CHECK(std::string{error.what()}.find("file-0.md") != std::string::npos);
    }
    CHECK(entries_of(other.path()).empty());
}
