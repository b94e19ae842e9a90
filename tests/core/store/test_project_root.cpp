// SPDX-License-Identifier: Apache-2.0
// A project is its repository (or the nearest .starling-project), not the directory an agent happens
// to start in.
#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/project_root.hpp>

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using starling::core::project_root_of;

namespace {

fs::path made(const fs::path &directory) {
    fs::create_directories(directory);
    return directory;
}

void touch(const fs::path &file) { std::ofstream{file} << ""; }

} // namespace

TEST_CASE("a directory inside a repository belongs to the repository's project", "[store][project-root]") {
    starling::test::TempDir root{"project-root"};
    const auto home = made(root.path() / "home");
    const auto repo = made(root.path() / "code" / "repo");
    made(repo / ".git");
    const auto deep = made(repo / "src" / "net" / "http");
    CHECK(project_root_of(deep, home) == repo);
    CHECK(project_root_of(repo, home) == repo);

    SECTION("a worktree or submodule, whose .git is a file, is a project of its own") {
        const auto worktree = made(repo / "worktrees" / "feature");
        touch(worktree / ".git");
        CHECK(project_root_of(made(worktree / "src"), home) == worktree);
    }
    SECTION("the nearest .starling-project marks a project inside a repository, or outside any") {
        const auto package = made(repo / "packages" / "web");
        touch(package / starling::core::kProjectMarker);
        CHECK(project_root_of(made(package / "src"), home) == package);
        const auto plain = made(root.path() / "notes");
        touch(plain / starling::core::kProjectMarker);
        CHECK(project_root_of(made(plain / "2026" / "november"), home) == plain);
    }
    SECTION("without either, a directory is its own project") {
        const auto scratch = made(root.path() / "scratch" / "a");
        CHECK(project_root_of(scratch, home) == scratch);
        CHECK(project_root_of(root.path() / "does" / "not" / "exist", home) == root.path() / "does" / "not" / "exist");
    }
    SECTION("a home directory kept in git (dotfiles) is never a project's root") {
        made(home / ".git");
        const auto project = made(home / "code" / "tool");
        CHECK(project_root_of(project, home) == project);
    }
}

TEST_CASE("the store gives every directory of a repository the repository's project", "[store][project-root]") {
    starling::test::TempDir root{"project-root-store"};
    const auto repo = made(root.path() / "repo");
    made(repo / ".git");
    starling::core::FixedClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};
    starling::core::MemoryStore store{root.path() / "store", clock};
    const auto id = store.resolve_project(repo);
    CHECK(store.resolve_project(made(repo / "src")) == id);
    CHECK(store.resolve_project(repo / "docs" / "not-yet-made") == id);
    CHECK(store.resolve_project(made(root.path() / "elsewhere")) != id);
}
