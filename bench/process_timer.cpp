// SPDX-License-Identifier: Apache-2.0
// starling-bench-run: whole-process timing, as an agent experiences a hook: from fork to the end of
// wait4, so process creation, dynamic loading, start-up and exit are all counted.

#include "tool_cli.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace {

using starling::bench::parse_whole_number;
using starling::bench::UsageError;

constexpr std::string_view usage =
    "usage: starling-bench-run --runs N --stdin FILE [--warmup W] [--vary TOKEN] [--settle COMMAND]\n"
    "                          [--first COMMAND --first-stdin FILE] [--json] -- PROGRAM ARGS...\n"
    "  Runs PROGRAM W + N times with FILE on stdin and stdout/stderr discarded; reports the wall time\n"
    "  of the last N (median, p95 nearest-rank, min, max, in ms), their peak RSS (MiB) and how many\n"
    "  exited with a status other than 0. --vary TOKEN replaces every TOKEN in FILE with TOKEN-<run>,\n"
    "  so each run can be, say, a new session. --settle COMMAND (a path and arguments separated by\n"
    "  spaces, e.g. \"starling wait\") runs after each run, untimed for the run: the work PROGRAM left\n"
    "  in the background ends before the next run starts; its median is reported as settle_median_ms.\n"
    "  --first COMMAND runs before each run, untimed, with --first-stdin's FILE (varied as FILE is) on\n"
    "  stdin, and PROGRAM starts the moment it exits: a prompt right after its session's start, while\n"
    "  the work that start left in the background runs. PROGRAM is a path; the environment is inherited.\n";

struct Options {
    unsigned runs = 0;
    unsigned warmup = 0;
    std::string stdin_path;
    std::string vary_token;
    bool json = false;
    std::vector<char *> command; // null-terminated, for execv
    std::vector<std::string> settle_words;
    std::vector<char *> settle_command; // null-terminated, pointing into settle_words; empty: none
    std::string first_stdin_path;
    std::vector<std::string> first_words;
    std::vector<char *> first_command; // null-terminated, pointing into first_words; empty: none
};

std::vector<std::string> split_on_spaces(std::string_view text) {
    std::vector<std::string> words;
    std::size_t position = 0;
    while (position < text.size()) {
        const auto start = text.find_first_not_of(' ', position);
        if (start == std::string_view::npos) {
            break;
        }
        const auto end = std::min(text.find(' ', start), text.size());
        words.emplace_back(text.substr(start, end - start));
        position = end;
    }
    return words;
}

Options parse_options(int argc, char **argv) {
    Options options;
    int index = 1;
    for (; index < argc; ++index) {
        const std::string_view option = argv[index];
        if (option == "--") {
            ++index;
            break;
        }
        if (option == "--help" || option == "-h") {
            std::cout << usage;
            std::exit(0);
        }
        if (option == "--json") {
            options.json = true;
            continue;
        }
        if (index + 1 >= argc) {
            throw UsageError(std::string{option} + " needs a value");
        }
        const std::string_view value = argv[++index];
        if (option == "--runs") {
            options.runs = parse_whole_number<unsigned>(value, option);
        } else if (option == "--warmup") {
            options.warmup = parse_whole_number<unsigned>(value, option);
        } else if (option == "--stdin") {
            options.stdin_path = value;
        } else if (option == "--vary") {
            options.vary_token = value;
        } else if (option == "--settle") {
            options.settle_words = split_on_spaces(value);
            if (options.settle_words.empty()) {
                throw UsageError("--settle needs a command");
            }
        } else if (option == "--first") {
            options.first_words = split_on_spaces(value);
            if (options.first_words.empty()) {
                throw UsageError("--first needs a command");
            }
        } else if (option == "--first-stdin") {
            options.first_stdin_path = value;
        } else {
            throw UsageError("unknown option '" + std::string{option} + "'");
        }
    }
    if (options.runs == 0 || options.stdin_path.empty() || index >= argc) {
        throw UsageError("--runs (at least 1), --stdin and a program after -- are required");
    }
    if (::access(argv[index], X_OK) != 0) {
        throw std::runtime_error(std::string{argv[index]} + ": cannot execute: " + std::strerror(errno));
    }
    options.command.assign(argv + index, argv + argc);
    options.command.push_back(nullptr);
    if (options.first_words.empty() != options.first_stdin_path.empty()) {
        throw UsageError("--first and --first-stdin go together");
    }
    const auto executable = [](std::vector<std::string> &words, std::vector<char *> &command, std::string_view option) {
        if (words.empty()) {
            return;
        }
        if (::access(words.front().c_str(), X_OK) != 0) {
            throw std::runtime_error(words.front() + ": cannot execute (" + std::string{option} +
                                     "): " + std::strerror(errno));
        }
        for (std::string &word : words) {
            command.push_back(word.data());
        }
        command.push_back(nullptr);
    };
    executable(options.settle_words, options.settle_command, "--settle");
    executable(options.first_words, options.first_command, "--first");
    return options;
}

std::string read_whole_file(const std::string &path, std::string_view option) {
    std::ifstream file{path, std::ios::binary};
    if (!file) {
        throw std::runtime_error(path + ": cannot read (" + std::string{option} + ")");
    }
    return {std::istreambuf_iterator<char>{file}, std::istreambuf_iterator<char>{}};
}

std::string replace_all(std::string text, std::string_view token, std::string_view replacement) {
    for (auto position = text.find(token); position != std::string::npos;
         position = text.find(token, position + replacement.size())) {
        text.replace(position, token.size(), replacement);
    }
    return text;
}

/// The run's stdin as an in-memory file at offset 0: like a file, the hook can read it at its own
/// pace, and preparing it happens before the clock starts.
int stdin_for_run(const std::string &content) {
    const int file = ::memfd_create("starling-bench-stdin", MFD_CLOEXEC);
    if (file < 0) {
        throw std::runtime_error(std::string{"memfd_create: "} + std::strerror(errno));
    }
    std::string_view rest = content;
    while (!rest.empty()) {
        const ssize_t written = ::write(file, rest.data(), rest.size());
        if (written <= 0) {
            throw std::runtime_error(std::string{"writing the stdin copy: "} + std::strerror(errno));
        }
        rest.remove_prefix(static_cast<std::size_t>(written));
    }
    ::lseek(file, 0, SEEK_SET);
    return file;
}

double monotonic_ms() {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

struct RunResult {
    double wall_ms = 0;
    long max_rss_kib = 0;
    bool failed = false;
};

/// One run. fork (not vfork or posix_spawn) on purpose: Linux charges the pre-exec image of the
/// child to its ru_maxrss, and a forked copy of this small process holds only its few anonymous
/// pages, where a vfork child would carry this whole process's resident set.
RunResult run_once(const std::vector<char *> &command, int stdin_file) {
    RunResult result;
    const double started = monotonic_ms();
    const pid_t child = ::fork();
    if (child < 0) {
        throw std::runtime_error(std::string{"fork: "} + std::strerror(errno));
    }
    if (child == 0) {
        // Close-on-exec, like the stdin copy: the program starts with exactly stdin, stdout and stderr.
        const int null_device = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (::dup2(stdin_file, STDIN_FILENO) < 0 || null_device < 0 || ::dup2(null_device, STDOUT_FILENO) < 0 ||
            ::dup2(null_device, STDERR_FILENO) < 0) {
            ::_exit(126);
        }
        ::execv(command[0], command.data());
        ::_exit(127);
    }
    int status = 0;
    rusage resources{};
    while (::wait4(child, &status, 0, &resources) < 0) {
        if (errno != EINTR) {
            throw std::runtime_error(std::string{"wait4: "} + std::strerror(errno));
        }
    }
    result.wall_ms = monotonic_ms() - started;
    result.max_rss_kib = resources.ru_maxrss;
    result.failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    return result;
}

struct Summary {
    unsigned runs = 0;
    double median_ms = 0, p95_ms = 0, min_ms = 0, max_ms = 0, peak_rss_mib = 0;
    unsigned failures = 0;
    std::optional<double> settle_median_ms;
};

double median_of(std::vector<double> times) {
    std::sort(times.begin(), times.end());
    const std::size_t count = times.size();
    return count % 2 == 1 ? times[count / 2] : (times[count / 2 - 1] + times[count / 2]) / 2;
}

Summary summarise(const std::vector<RunResult> &results) {
    Summary summary;
    std::vector<double> times;
    long peak_kib = 0;
    for (const auto &result : results) {
        times.push_back(result.wall_ms);
        peak_kib = std::max(peak_kib, result.max_rss_kib);
        summary.failures += result.failed ? 1U : 0U;
    }
    std::sort(times.begin(), times.end());
    const std::size_t count = times.size();
    summary.runs = static_cast<unsigned>(count);
    summary.median_ms = median_of(times);
    // Nearest rank: the smallest time that at least 95 % of the runs do not exceed.
    const std::size_t rank = (count * 95 + 99) / 100;
    summary.p95_ms = times[rank - 1];
    summary.min_ms = times.front();
    summary.max_ms = times.back();
    summary.peak_rss_mib = static_cast<double>(peak_kib) / 1024.0;
    return summary;
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

void print(const Summary &summary, bool json) {
    if (json) {
        std::cout << "{\"runs\":" << summary.runs << ",\"median_ms\":" << fixed(summary.median_ms, 3)
                  << ",\"p95_ms\":" << fixed(summary.p95_ms, 3) << ",\"min_ms\":" << fixed(summary.min_ms, 3)
                  << ",\"max_ms\":" << fixed(summary.max_ms, 3) << ",\"peak_rss_mib\":"
                  << fixed(summary.peak_rss_mib, 2) << ",\"failures\":" << summary.failures;
        if (summary.settle_median_ms) {
            std::cout << ",\"settle_median_ms\":" << fixed(*summary.settle_median_ms, 3);
        }
        std::cout << "}\n";
        return;
    }
    std::cout << "runs " << summary.runs << "  median " << fixed(summary.median_ms, 3) << " ms  p95 "
              << fixed(summary.p95_ms, 3) << " ms  min " << fixed(summary.min_ms, 3) << " ms  max "
              << fixed(summary.max_ms, 3) << " ms  peak RSS " << fixed(summary.peak_rss_mib, 2)
              << " MiB  failures " << summary.failures;
    if (summary.settle_median_ms) {
        std::cout << "  settle median " << fixed(*summary.settle_median_ms, 3) << " ms";
    }
    std::cout << "\n";
}

int time_command(const Options &options) {
    const std::string content = read_whole_file(options.stdin_path, "--stdin");
    const std::string first_content =
        options.first_command.empty() ? std::string{} : read_whole_file(options.first_stdin_path, "--first-stdin");
    std::vector<RunResult> measured;
    std::vector<double> settle_times;
    for (unsigned run = 0; run < options.warmup + options.runs; ++run) {
        const auto varied = [&](const std::string &text) {
            return options.vary_token.empty()
                       ? text
                       : replace_all(text, options.vary_token, options.vary_token + "-" + std::to_string(run));
        };
        if (!options.first_command.empty()) {
            const int first_stdin = stdin_for_run(varied(first_content));
            const RunResult first = run_once(options.first_command, first_stdin);
            ::close(first_stdin);
            if (first.failed && run == 0) {
                std::cerr << "starling-bench-run: " << options.first_command[0]
                          << " (--first) exited with a failure on its first run\n";
            }
        }
        const int stdin_file = stdin_for_run(varied(content));
        const RunResult result = run_once(options.command, stdin_file);
        ::close(stdin_file);
        if (!options.settle_command.empty()) {
            const int no_input = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
            const RunResult settled = run_once(options.settle_command, no_input);
            ::close(no_input);
            if (run >= options.warmup) {
                settle_times.push_back(settled.wall_ms);
            }
        }
        if (result.failed && run == 0) {
            // Say so at once: a hook must always exit 0, and a missing library shows up here.
            std::cerr << "starling-bench-run: " << options.command[0] << " exited with a failure on its first run\n";
        }
        if (run >= options.warmup) {
            measured.push_back(result);
        }
    }
    Summary summary = summarise(measured);
    if (!settle_times.empty()) {
        summary.settle_median_ms = median_of(settle_times);
    }
    print(summary, options.json);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    return starling::bench::run_tool("starling-bench-run", usage, [&] { return time_command(parse_options(argc, argv)); });
}
