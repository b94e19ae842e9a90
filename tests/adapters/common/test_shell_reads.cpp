// SPDX-License-Identifier: Apache-2.0
// The files a shell command reads: the commands agents use to read a file, quoted as agents quote
// them, and the commands that read nothing.
#include <starling/adapters/shell_reads.hpp>

#include <catch2/catch.hpp>

using starling::adapters::files_read_by;
using Files = std::vector<std::string>;

TEST_CASE("the reading commands agents run name the file they read", "[adapters][shell-reads]") {
    const std::string memory = "/home/dev/.starling/memory/user/long/prefers-pnpm.md";
    CHECK(files_read_by("cat " + memory) == Files{memory});
    CHECK(files_read_by("head -n 5 " + memory) == Files{memory});
    CHECK(files_read_by("head -n5 " + memory) == Files{memory});
    CHECK(files_read_by("tail --lines=20 " + memory) == Files{memory});
    CHECK(files_read_by("sed -n 1,5p " + memory) == Files{memory});
    CHECK(files_read_by("sed -n '1,200p' " + memory) == Files{memory});
    CHECK(files_read_by("sed -e 's/a/b/' " + memory) == Files{memory});
    CHECK(files_read_by("less " + memory) == Files{memory});
    CHECK(files_read_by("rg pnpm " + memory) == Files{memory});
    CHECK(files_read_by("rg -n -e pnpm -e npm " + memory) == Files{memory});
    CHECK(files_read_by("grep -n -A 3 'always use' " + memory) == Files{memory});
    CHECK(files_read_by("/bin/cat -- -odd-name.md") == Files{"-odd-name.md"});
}

TEST_CASE("quoting, pipelines and lists are read as the shell reads them", "[adapters][shell-reads]") {
    CHECK(files_read_by(R"(cat '/home/dev/My Notes/a.md')") == Files{"/home/dev/My Notes/a.md"});
    CHECK(files_read_by(R"(cat "/home/dev/it's \"here\".md")") == Files{"/home/dev/it's \"here\".md"});
    CHECK(files_read_by(R"(cat /home/dev/My\ Notes/a.md)") == Files{"/home/dev/My Notes/a.md"});
    CHECK(files_read_by("cd /work && cat a.md | head -n 3") == Files{"a.md"});
    CHECK(files_read_by("cat a.md 2>&1 > /tmp/out; tail b.md") == Files{"a.md", "b.md"});
    CHECK(files_read_by("LC_ALL=C sudo grep -c x a.md b.md") == Files{"a.md", "b.md"});
}

TEST_CASE("commands that read no file name none", "[adapters][shell-reads]") {
    CHECK(files_read_by("ls -la").empty());
    CHECK(files_read_by("sed -i 's/a/b/' notes.md").empty());
    CHECK(files_read_by("echo cat notes.md").empty());
    CHECK(files_read_by("grep pattern").empty());
    CHECK(files_read_by("cat").empty());
    CHECK(files_read_by("cat - ").empty());
    CHECK(files_read_by("cat 'unterminated").empty());
    CHECK(files_read_by("git show HEAD:notes.md").empty());
    CHECK(files_read_by("").empty());
}
