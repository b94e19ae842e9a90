// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace starling::test {

/// A fresh directory under the system temporary directory, removed with everything in it when the
/// object goes out of scope. Each test gets its own, so tests never see each other's files.
class TempDir {
public:
    explicit TempDir(std::string_view label = "test") {
        static std::atomic<unsigned> counter{0};
        const std::filesystem::path base = std::filesystem::temp_directory_path() / "starling-tests";
        std::filesystem::create_directories(base);
        std::random_device entropy;
        for (int attempt = 0; attempt < 100; ++attempt) {
            const std::string name = std::string(label) + "-" + std::to_string(::getpid()) + "-" +
                                     std::to_string(counter.fetch_add(1)) + "-" +
                                     std::to_string(entropy() % 100000);
            std::filesystem::path candidate = base / name;
            if (std::filesystem::create_directory(candidate)) {
                path_ = std::move(candidate);
                return;
            }
        }
        throw std::runtime_error("TempDir: cannot create a fresh directory under " + base.string());
    }

    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }

    [[nodiscard]] const std::filesystem::path &path() const noexcept { return path_; }

    /// path() / relative
    [[nodiscard]] std::filesystem::path operator/(const std::filesystem::path &relative) const {
        return path_ / relative;
    }

private:
    std::filesystem::path path_;
};

} // namespace starling::test
