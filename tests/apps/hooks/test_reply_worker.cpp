// SPDX-License-Identifier: Apache-2.0
#include "apps/hooks/reply_worker.hpp"

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

TEST_CASE("the work after a reply yields the processor to the hooks", "[hooks][after-reply]") {
    // In a child: the priority of the test process itself stays as it was.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        errno = 0;
        const int before = ::getpriority(PRIO_PROCESS, 0);
        starling::app::yield_to_hooks();
        const int after = ::getpriority(PRIO_PROCESS, 0);
        // Already at the lowest priority, it stays there; otherwise it is after_reply_niceness lower.
        const bool yielded = errno == 0 && (after == before + starling::app::after_reply_niceness || after == 19);
        ::_exit(yielded ? 0 : 1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
