// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/export_files.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>

#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace starling::app::migration {

ExportFiles::ExportFiles(fs::path directory) : directory_(std::move(directory)) {
    std::error_code error;
    if (fs::exists(directory_, error) && (!fs::is_directory(directory_, error) || !fs::is_empty(directory_, error))) {
        throw std::runtime_error(directory_.string() +
                                 " is not empty: export into a new or empty directory, so that nothing is overwritten");
    }
}

std::string ExportFiles::free_name(const std::string &folder, const std::string &name) const {
    const fs::path path{name};
    std::string candidate = name;
    for (unsigned n = 2; used_.count(folder + "/" + candidate) != 0; ++n) {
        candidate = path.stem().string() + "_" + std::to_string(n) + path.extension().string();
    }
    return candidate;
}

void ExportFiles::write(const std::string &relative, std::string_view bytes) {
    const fs::path path = directory_ / relative;
    core::ensure_directories(path.parent_path());
    core::write_file_atomically(path, bytes);
    used_.insert(relative);
    written_.push_back(path);
}

void ExportFiles::record_origin(const std::string &memory_id, std::string origin) {
    origins_[memory_id] = std::move(origin);
}

} // namespace starling::app::migration
