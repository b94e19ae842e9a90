// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/memory_store.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace starling::core {

/// One secret found on disk: where it is and what format it has, never the secret itself.
struct SecretFinding {
    std::filesystem::path file; ///< relative to the store root
    std::size_t line = 0;       ///< 1-based
    std::string kind;           ///< as in `[REDACTED:<kind>]`
};

/// What scan_store_for_secrets found, and with `fix`, what it changed.
struct SecretScanReport {
    std::size_t files_scanned = 0;
    /// Before any fix, sorted by file and line.
    std::vector<SecretFinding> findings;
    /// One sentence per file rewritten, directory removed or index rebuilt.
    std::vector<std::string> changes;
    /// After the fixes (empty without `fix`): what could not be removed.
    std::vector<SecretFinding> remaining;
};

/// Looks for secrets (store.redactor()) in every regular file under the store's root: memories,
/// session logs, the archive and its manifest, the machine index and its journal, plugin caches,
/// logs. Symlinks are not followed. What older versions or imports wrote is found this way.
///
/// With `fix`, each finding is removed, atomically and in the way the file's owner would write it:
/// memories through the store (so the index follows), JSON lines value by value (so each line
/// stays valid JSON), archived memories field by field, other text in place; then the machine
/// index is rebuilt from the redacted memories, and a plugin cache holding a secret is deleted, to
/// be derived again from the redacted store. Throws StoreError when a file cannot be read or written.
[[nodiscard]] SecretScanReport scan_store_for_secrets(MemoryStore &store, bool fix);

} // namespace starling::core
