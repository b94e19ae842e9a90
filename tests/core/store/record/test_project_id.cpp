// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/project_id.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <string>

using starling::core::normalise_project_path;
using starling::core::project_id_for;
using starling::core::project_slug;

TEST_CASE("project paths are normalised lexically", "[store][project-id]") {
    CHECK(normalise_project_path("/home/ana/proj") == "/home/ana/proj");
    CHECK(normalise_project_path("/home/ana/proj/") == "/home/ana/proj");
    CHECK(normalise_project_path("/home//ana/./proj/../proj///") == "/home/ana/proj");
    CHECK(normalise_project_path("/../..") == "/");
    CHECK(normalise_project_path("/") == "/");
    CHECK(normalise_project_path("C:\\Users\\x\\proj") == "c:/Users/x/proj");
    CHECK(normalise_project_path("c:/Users/x/proj/") == "c:/Users/x/proj");
    CHECK(normalise_project_path("C:\\Users\\x\\proj\\..\\proj\\.\\") == "c:/Users/x/proj");
    CHECK(normalise_project_path("C:\\") == "c:/");
    CHECK(normalise_project_path("C:") == "c:");
    CHECK(normalise_project_path("\\\\server\\share\\repo") == "//server/share/repo");
    CHECK(normalise_project_path("relative/../dir/") == "dir");
    CHECK(normalise_project_path("../up") == "../up");
    CHECK(normalise_project_path("") == ".");
}

TEST_CASE("project ids are a readable slug plus a hash of the normalised path", "[store][project-id]") {
    const auto id = project_id_for("/home/ana/my project");
    CHECK(id.normalised_path == "/home/ana/my project");
    CHECK(id.value.starts_with("my_project-"));
    CHECK(id.value.size() == std::string("my_project-").size() + 12);
    CHECK(id.value.find_first_not_of("0123456789abcdef", std::string("my_project-").size()) ==
          std::string::npos);
    CHECK(project_id_for("/").value.starts_with("root-"));
    CHECK(project_id_for("C:\\").value.starts_with("root-"));
    CHECK(starling::core::fnv1a_64("") == 14695981039346656037ULL);
    CHECK(starling::core::fnv1a_64("a") == 0xaf63dc4c8601ec8cULL);
}

TEST_CASE("slugs keep UTF-8 letters, replace everything else, and stop at 40 bytes", "[store][project-id]") {
    CHECK(project_slug("/x/Proj.v2_final-A") == "Proj.v2_final-A");
    CHECK(project_slug("/x/a b:c*d") == "a_b_c_d");
    CHECK(project_slug("/x/日本語のプロジェクト") == "日本語のプロジェクト");
    CHECK(project_slug("/x/bad\xff\xfe-bytes\xc3") == "bad__-bytes_");
    CHECK(project_slug("/x/overlong\xc0\xaf") == "overlong__");
    CHECK(project_slug("/x/" + std::string(60, 'a')) == std::string(40, 'a'));
    // 13 three-byte characters are 39 bytes; the 14th would need 42, so the cut stays on a boundary.
    std::string wide;
    for (int index = 0; index < 20; ++index) {
        wide += "語";
    }
    CHECK(project_slug("/x/" + wide).size() == 39);
    CHECK(project_slug("/") == "root");
}

TEST_CASE("collie's colliding paths and same-named folders get different ids", "[store][project-id]") {
    CHECK(project_id_for("/a-b/c").value != project_id_for("/a/b-c").value);
    CHECK(project_id_for("/a-b").value != project_id_for("/a/b").value);
    CHECK(project_id_for("/x/a/c").value != project_id_for("/y/a/c").value);
    CHECK(project_id_for("/x/a/c").value.starts_with("c-"));

    std::set<std::string> ids;
    for (int index = 0; index < 2000; ++index) {
        ids.insert(project_id_for("/work/repo-" + std::to_string(index)).value);
    }
    CHECK(ids.size() == 2000);
}

TEST_CASE("equivalent spellings of one path get one id", "[store][project-id]") {
    const std::string id = project_id_for("/home/ana/proj").value;
    CHECK(project_id_for("/home/ana/proj/").value == id);
    CHECK(project_id_for("/home/ana/./proj").value == id);
    CHECK(project_id_for("/home/ana/x/../proj").value == id);

    const std::string windows = project_id_for("C:\\Users\\x\\proj").value;
    CHECK(project_id_for("c:/Users/x/proj").value == windows);
    CHECK(project_id_for("C:/Users/x/proj/").value == windows);
    CHECK(project_id_for("c:\\Users\\x\\proj\\").value == windows);
    CHECK(project_id_for("c:/users/x/proj").value != windows);
}

TEST_CASE("resolve_project records the path and resolves it again without a lock", "[store][project-id]") {
    const starling::test::TempDir root("project-id");
    const starling::core::FixedClock clock(starling::test::at("2026-11-22T10:00:00Z"));
    starling::core::MemoryStore store(root.path(), clock);

    const std::string id = store.resolve_project("/home/ana/proj/");
    CHECK(id == project_id_for("/home/ana/proj").value);
    CHECK(starling::test::read_bytes(root / "memory/projects" / id / "PROJECT_PATH") == "/home/ana/proj\n");
    CHECK(store.resolve_project("/home/ana/proj") == id);
    CHECK(store.resolve_project("/home/ana/other") != id);

    const std::string windows = store.resolve_project("C:\\Users\\x\\proj");
    CHECK(starling::test::read_bytes(root / "memory/projects" / windows / "PROJECT_PATH") ==
          "c:/Users/x/proj\n");
    CHECK(store.resolve_project("c:/Users/x/proj/") == windows);
}

TEST_CASE("resolve_project makes relative paths absolute", "[store][project-id]") {
    const starling::test::TempDir root("project-id");
    const starling::core::FixedClock clock(starling::test::at("2026-11-22T10:00:00Z"));
    starling::core::MemoryStore store(root.path(), clock);
    // From a directory in no repository: inside one, the repository's root would be the project.
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(root.path());
    const std::string cwd = std::filesystem::current_path().string();
    CHECK(store.resolve_project("some/dir") == project_id_for(cwd + "/some/dir").value);
    CHECK_THROWS_AS(store.resolve_project(""), starling::core::StoreError);
    std::filesystem::current_path(previous);
}

TEST_CASE("a forged collision moves the project to id-2, then id-3", "[store][project-id]") {
    const starling::test::TempDir root("project-id");
    const starling::core::FixedClock clock(starling::test::at("2026-11-22T10:00:00Z"));
    starling::core::MemoryStore store(root.path(), clock);

    const std::string natural = project_id_for("/home/ana/proj").value;
    starling::test::write_bytes(root / "memory/projects" / natural / "PROJECT_PATH",
                                "/somewhere/else/proj\n");
    CHECK(store.resolve_project("/home/ana/proj") == natural + "-2");
    CHECK(store.resolve_project("/home/ana/proj") == natural + "-2");
    // The forger's own path has its own id; the forged folder does not change that.
    CHECK(store.resolve_project("/somewhere/else/proj") == project_id_for("/somewhere/else/proj").value);

    const std::string other = project_id_for("/srv/repo").value;
    starling::test::write_bytes(root / "memory/projects" / other / "PROJECT_PATH", "/forged/one\n");
    starling::test::write_bytes(root / "memory/projects" / (other + "-2") / "PROJECT_PATH", "/forged/two\n");
    CHECK(store.resolve_project("/srv/repo") == other + "-3");
    CHECK(starling::test::read_bytes(root / "memory/projects" / (other + "-3") / "PROJECT_PATH") ==
          "/srv/repo\n");
}

TEST_CASE("a project folder without PROJECT_PATH is claimed by the path its id belongs to",
          "[store][project-id]") {
    const starling::test::TempDir root("project-id");
    const starling::core::FixedClock clock(starling::test::at("2026-11-22T10:00:00Z"));
    starling::core::MemoryStore store(root.path(), clock);
    const std::string natural = project_id_for("/home/ana/proj").value;
    std::filesystem::create_directories(root / "memory/projects" / natural / "short");
    CHECK(store.resolve_project("/home/ana/proj") == natural);
    CHECK(starling::test::read_bytes(root / "memory/projects" / natural / "PROJECT_PATH") ==
          "/home/ana/proj\n");
}
