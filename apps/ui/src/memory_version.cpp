// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/memory_version.hpp>

#include <starling/app/sha256.hpp>
#include <starling/core/io/file_io.hpp>

namespace starling::app::ui {

std::string memory_version(std::string_view file_bytes) {
    return sha256_hex(file_bytes);
}

std::string current_version(const core::MemoryStore &store, std::string_view key) {
    return memory_version(core::read_file(store.path_of(key)));
}

core::Memory update_if_unchanged(core::MemoryStore &store, std::string_view key, std::string_view shown_version,
                                 const std::function<void(core::Memory &)> &change) {
    return store.update(key, [&](core::Memory &memory) {
        // Under the store's lock: no other Starling process can write the file between this
        // comparison and the write; an editor that does is seen by the next form.
        if (current_version(store, key) != shown_version) {
            throw EditConflict("the memory " + std::string(key) +
                               " changed on disk since this page showed it; nothing was saved");
        }
        change(memory);
    });
}

} // namespace starling::app::ui
