// SPDX-License-Identifier: Apache-2.0
#include "synthetic_store.hpp"

#include <starling/core/lifecycle/episode_links.hpp>
#include <starling/core/store/record/file_naming.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_id.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace starling::bench {

namespace {

namespace fs = std::filesystem;

void write_new_file(const fs::path &path, std::string_view bytes) {
    const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (file < 0) {
        throw std::runtime_error(path.string() + ": cannot create: " + std::strerror(errno));
    }
    while (!bytes.empty()) {
        const ssize_t written = ::write(file, bytes.data(), bytes.size());
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            const int cause = errno;
            ::close(file);
            throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(cause));
        }
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    if (::close(file) != 0) {
        throw std::runtime_error(path.string() + ": cannot close: " + std::strerror(errno));
    }
}

} // namespace

void write_synthetic_memories(core::MemoryStore &store, SyntheticMemoryGenerator &generator, std::uint64_t count,
                              const std::function<core::Scope(const SyntheticMemory &)> &scope_of,
                              const std::function<void(std::uint64_t)> &written) {
    // The store's collision rule (`_2`, `_3`, ...), kept in memory instead of probing the disk.
    std::unordered_map<std::string, unsigned> names_taken;
    std::unordered_map<std::string, bool> directories_made;
    // As `remember` does at its defaults (remember.episode_links = 2): each memory links to the two
    // written just before it in its scope, so that what reads links (bm25's context) costs what it
    // costs in a store people filled.
    std::unordered_map<std::string, std::vector<std::string>> latest_ids_of_scope;
    for (std::uint64_t done = 1; done <= count; ++done) {
        const auto generated = generator.next();
        const core::Scope scope = scope_of(generated);
        const std::string directory_key = scope.directory() + "/" + std::string{core::to_string(generated.tier)};
        const fs::path directory = store.root() / directory_key;
        if (!directories_made[directory_key]) {
            fs::create_directories(directory);
            directories_made[directory_key] = true;
        }
        // Shaped like what MemoryStore::create writes, id included; the count keeps ids distinct.
        core::Memory memory = generated.memory;
        memory.id = core::derive_memory_id(memory.created, memory.summary, static_cast<unsigned>(done));
        auto &latest = latest_ids_of_scope[scope.directory()];
        if (!latest.empty()) {
            memory.set_extra_list("links", core::episode_link_items(latest));
        }
        latest.insert(latest.begin(), memory.id);
        latest.resize(std::min<std::size_t>(latest.size(), 2));
        const std::string stem = core::memory_file_stem(memory.created, memory.summary, memory.id);
        const unsigned number = ++names_taken[directory_key + "/" + stem];
        const std::string name = core::numbered_file_name(stem, number);
        write_new_file(directory / name, core::serialise_memory(memory, directory_key + "/" + name));
        if (written) {
            written(done);
        }
    }
}

} // namespace starling::bench
