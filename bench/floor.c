/* SPDX-License-Identifier: Apache-2.0 */
/*
 * starling-bench-floor LOG_FILE: the latency floor for hooks. It does the least any hook must do
 * (read the whole payload from stdin, leave a trace on disk, answer the agent) and nothing else, so
 * a hook's time minus this program's time is what Starling itself costs. No fsync: the real hooks
 * do not fsync a session log line either.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    char buffer[65536];
    unsigned long long total = 0;
    ssize_t got;
    char line[32];
    int length;
    int log_file;

    if (argc != 2) {
        fprintf(stderr, "usage: starling-bench-floor LOG_FILE < payload\n");
        return 2;
    }
    for (;;) {
        got = read(STDIN_FILENO, buffer, sizeof buffer);
        if (got > 0) {
            total += (unsigned long long)got;
        } else if (got == 0) {
            break;
        } else if (errno != EINTR) {
            fprintf(stderr, "starling-bench-floor: reading stdin: %s\n", strerror(errno));
            return 1;
        }
    }

    length = snprintf(line, sizeof line, "%llu\n", total);
    log_file = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (log_file < 0) {
        fprintf(stderr, "starling-bench-floor: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    if (write(log_file, line, (size_t)length) != (ssize_t)length) {
        fprintf(stderr, "starling-bench-floor: %s: %s\n", argv[1], strerror(errno));
        close(log_file);
        return 1;
    }
    close(log_file);

    fputs("{}\n", stdout);
    return 0;
}
