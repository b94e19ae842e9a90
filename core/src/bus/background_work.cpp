// SPDX-License-Identifier: Apache-2.0
#include <starling/core/bus/background_work.hpp>

#include <starling/core/io/file_io.hpp>

namespace starling::core {
namespace {

std::filesystem::path lock_file_of(const std::filesystem::path &store_root) {
    ensure_directories(store_root / "index");
    return store_root / "index" / "background.lock";
}

} // namespace

FileLock mark_background_work(const std::filesystem::path &store_root) {
    return FileLock{lock_file_of(store_root), LockMode::shared};
}

void wait_for_background_work(const std::filesystem::path &store_root) {
    const FileLock all_ended{lock_file_of(store_root), LockMode::exclusive};
}

} // namespace starling::core
