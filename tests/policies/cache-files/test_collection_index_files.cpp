// SPDX-License-Identifier: Apache-2.0
//
// A relevance policy's index files: one per collection, found by the collection's id, current only
// for exactly its version, and a damaged one logged and treated as missing.
#include "policies/cache-files/collection_index_files.hpp"

#include "support/captured_host_log.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <vector>

using starling::cache_files::CollectionIndexFiles;
using starling::cache_files::SectionFileWriter;
using starling::sdk::Collection;
using starling::test::CapturedLog;
namespace fs = std::filesystem;

namespace {

SectionFileWriter one_section(std::string_view text) {
    SectionFileWriter writer{1};
    writer.section(0) = text;
    return writer;
}

} // namespace

TEST_CASE("each collection has its own index file, current for exactly its version",
          "[policy][cache-files][collection-index]") {
    starling::test::TempDir scratch{"collection-index"};
    CapturedLog log;
    const CollectionIndexFiles files{scratch / "cache", 7, 1, starling::sdk::HostServices{&log.host}};
    const Collection user{"user", "v1"};
    const Collection project{"projects/app", "v1"};
    CHECK(files.path_of("user") != files.path_of("projects/app"));
    CHECK(files.path_of("user").parent_path() == scratch / "cache");
    CHECK_FALSE(files.current(user));

    files.write(user, one_section("user memories"));
    CHECK(files.current(user));
    CHECK_FALSE(files.current(project));
    CHECK_FALSE(files.current({"user", "v2"}));
    CHECK_FALSE(CollectionIndexFiles(scratch / "cache", 8, 1, starling::sdk::HostServices{&log.host}).current(user));

    const std::vector<Collection> both{user, project};
    CHECK_FALSE(files.open_all(both));
    files.write(project, one_section("project memories"));
    auto opened = files.open_all(both);
    REQUIRE(opened);
    CHECK((*opened)[0].bytes(0, 0, 4) == "user");
    CHECK((*opened)[1].bytes(0, 0, 7) == "project");
    CHECK(log.warnings() == 0);
}

TEST_CASE("a damaged index file is logged, not current and not opened", "[policy][cache-files][collection-index]") {
    starling::test::TempDir scratch{"collection-index"};
    CapturedLog log;
    const CollectionIndexFiles files{scratch / "cache", 7, 1, starling::sdk::HostServices{&log.host}};
    const Collection user{"user", "v1"};
    files.write(user, one_section(std::string(5000, 'm')));
    {
        std::fstream file{files.path_of("user"), std::ios::binary | std::ios::in | std::ios::out};
        file.seekp(-10, std::ios::end);
        file.put('x');
    }
    CHECK_FALSE(files.current(user));
    CHECK(log.count(STARLING_LOG_WARNING, "will be rebuilt") == 1);

    fs::resize_file(files.path_of("user"), 100);
    CHECK_FALSE(files.open_all(std::vector<Collection>{user}));
    CHECK(log.count(STARLING_LOG_WARNING, "unusable") == 1);
}

TEST_CASE("an index file that cannot be written says which", "[policy][cache-files][collection-index]") {
    starling::test::TempDir scratch{"collection-index"};
    CapturedLog log;
    std::ofstream{scratch / "not-a-directory"} << "x";
    const CollectionIndexFiles files{scratch / "not-a-directory", 7, 1, starling::sdk::HostServices{&log.host}};
    CHECK_THROWS_WITH(files.write({"user", "v1"}, one_section("x")),
                      Catch::Contains("cannot write the relevance index") && Catch::Contains("not-a-directory"));
}
