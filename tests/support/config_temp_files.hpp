// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/config/config_environment.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace starling::test {

/// A fresh directory under the system temp directory, removed with everything in it on destruction.
class ConfigTempDir {
public:
    ConfigTempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "starling-config-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("cannot create a temporary directory from " + pattern);
        }
        path_ = pattern;
    }
    ConfigTempDir(const ConfigTempDir &) = delete;
    ConfigTempDir &operator=(const ConfigTempDir &) = delete;
    ~ConfigTempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }

    [[nodiscard]] const std::filesystem::path &path() const noexcept { return path_; }

    /// Writes `contents` to `relative` inside the directory, creating parent directories.
    std::filesystem::path write(const std::filesystem::path &relative, std::string_view contents) const {
        const std::filesystem::path file = path_ / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream stream{file, std::ios::binary};
        stream << contents;
        if (!stream) {
            throw std::runtime_error("cannot write " + file.string());
        }
        return file;
    }

private:
    std::filesystem::path path_;
};

/// An environment whose home is inside `dir`, so a test never reads or writes the real home.
inline core::ConfigEnvironment injected_environment(const ConfigTempDir &dir) {
    return core::ConfigEnvironment{dir.path() / "home", std::nullopt, std::nullopt};
}

/// The directory holding the configuration fixture files.
inline std::filesystem::path config_fixture(std::string_view name) {
    return std::filesystem::path{STARLING_SOURCE_DIR} / "tests" / "fixtures" / "config" / name;
}

} // namespace starling::test
