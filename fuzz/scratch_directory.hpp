// SPDX-License-Identifier: Apache-2.0
//
// A private folder for the fuzz targets whose reader only reads files: the input is written there,
// then read back through the product's own code path. One per process, removed at exit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace starling::fuzz {

class ScratchDirectory {
public:
    ScratchDirectory() {
        std::string pattern = (std::filesystem::temp_directory_path() / "starling-fuzz-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            std::abort();
        }
        path_ = pattern;
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    ScratchDirectory(const ScratchDirectory &) = delete;
    ScratchDirectory &operator=(const ScratchDirectory &) = delete;

    [[nodiscard]] const std::filesystem::path &path() const noexcept { return path_; }

    /// Empties the folder, so that no input sees what the one before it left.
    void clear() const {
        for (const auto &entry : std::filesystem::directory_iterator{path_}) {
            std::filesystem::remove_all(entry.path());
        }
    }

private:
    std::filesystem::path path_;
};

inline void write_bytes(const std::filesystem::path &file, std::string_view bytes) {
    std::ofstream out{file, std::ios::binary | std::ios::trunc};
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        std::abort();
    }
}

inline std::string_view as_text(const std::uint8_t *data, std::size_t size) noexcept {
    return {reinterpret_cast<const char *>(data), size};
}

} // namespace starling::fuzz
