// SPDX-License-Identifier: Apache-2.0
#include <starling/app/child_process.hpp>

#include <catch2/catch.hpp>

TEST_CASE("a child fed more stdin than a pipe holds, answering as it reads, never deadlocks", "[app][process]") {
    // `git cat-file --batch` with thousands of names answers each before it reads them all: a
    // blocking write of the whole stdin would wait on it while it waits on us.
    starling::app::ProcessOptions options;
    for (int line = 0; line < 200000; ++line) {
        options.stdin_text += "line " + std::to_string(line) + "\n";
    }
    const auto result = starling::app::run_process("/bin/cat", {}, options);
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text == options.stdin_text);
}
