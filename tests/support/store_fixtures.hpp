// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/io/time_format.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace starling::test {

/// A timestamp literal; throws if it does not parse, so a typo fails the test loudly.
inline std::chrono::sys_seconds at(std::string_view timestamp) {
    const auto time = core::parse_timestamp(timestamp);
    if (!time) {
        throw std::invalid_argument("bad timestamp in test: " + std::string(timestamp));
    }
    return *time;
}

/// A memory with the given summary and sensible other fields.
inline core::Memory make_memory(std::string summary, std::string type = "feedback") {
    core::Memory memory;
    memory.type = std::move(type);
    memory.summary = std::move(summary);
    memory.body = "\nRemember this.\n";
    return memory;
}

inline std::string read_bytes(const std::filesystem::path &path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw std::runtime_error("cannot read " + path.string());
    }
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::filesystem::path &path, std::string_view bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!file) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

/// Every regular file under `directory` whose name satisfies `predicate`, as paths relative to it.
inline std::vector<std::string> files_under(const std::filesystem::path &directory,
                                            const std::function<bool(const std::string &)> &predicate) {
    std::vector<std::string> found;
    if (!std::filesystem::exists(directory)) {
        return found;
    }
    for (const auto &entry : std::filesystem::recursive_directory_iterator(directory)) {
        if (entry.is_regular_file() && predicate(entry.path().filename().string())) {
            found.push_back(entry.path().lexically_relative(directory).generic_string());
        }
    }
    std::sort(found.begin(), found.end());
    return found;
}

/// Runs `child` in a forked process and returns its wait status. The child never returns into the
/// test runner: it exits with 0 if `child` returns true, 1 if false, 2 if it throws.
inline int run_in_child(const std::function<bool()> &child) {
    const pid_t pid = ::fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        int code = 2;
        try {
            code = child() ? 0 : 1;
        } catch (...) {
            code = 2;
        }
        ::_exit(code);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            throw std::runtime_error("waitpid failed");
        }
    }
    return status;
}

/// Whether a wait status says the child exited normally with code 0.
inline bool exited_cleanly(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

} // namespace starling::test
