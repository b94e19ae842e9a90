// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

namespace starling::test {

/// The id of a process that has ended and been reaped: what a claim names once its judge is killed.
inline std::int64_t finished_process() {
    const pid_t child = ::fork();
    if (child == 0) {
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

} // namespace starling::test
