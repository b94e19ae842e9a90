// SPDX-License-Identifier: Apache-2.0
//
// What a form of the viewer sends back to say which version of a memory file it was made from, so
// that an edit of a file that changed since it was shown (by hand, by a hook) is refused rather
// than written over the change.
#pragma once

#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/memory.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace starling::app::ui {

/// The version of a memory file: the SHA-256 of its bytes, in hex.
[[nodiscard]] std::string memory_version(std::string_view file_bytes);

/// The version of the memory file of `key` as it is on disk now.
[[nodiscard]] std::string current_version(const core::MemoryStore &store, std::string_view key);

/// The file changed between the page that showed it and the form that would change it.
class EditConflict : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// MemoryStore::update of `key` (atomic, under the store lock, redacted), but only when the file is
/// still at `shown_version`, compared under the same hold of the lock; otherwise throws EditConflict
/// and writes nothing.
core::Memory update_if_unchanged(core::MemoryStore &store, std::string_view key, std::string_view shown_version,
                                 const std::function<void(core::Memory &)> &change);

} // namespace starling::app::ui
