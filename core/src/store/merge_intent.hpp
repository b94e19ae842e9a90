// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace starling::core::detail {

/// A merge about to be made: one memory folded into another, then archived. Written before the
/// first file of the merge changes and removed after the last, so that a merge a process died in
/// is found and finished, never done twice.
struct MergeIntent {
    std::string id;          ///< the file's name without `.json`
    std::string kept;        ///< key of the memory that takes the text
    std::string absorbed;    ///< key of the memory folded in, then archived
    std::string absorbed_id; ///< its memory id, which the kept memory lists in `merged_from` once folded
    std::string reason;      ///< the archive reason
};

/// `index/intents/<id>.json`, one file per merge under way. Every merge holds the store lock from
/// writing its intent to removing it, so an intent seen under the lock is one whose process died.
class MergeIntents {
public:
    explicit MergeIntents(std::filesystem::path directory) : directory_(std::move(directory)) {}

    /// Durably records a new intent (its id is filled in). Throws StoreError naming the file.
    void write(MergeIntent &intent) const;

    /// Every recorded intent, oldest first by file name. Throws StoreError naming a file that does
    /// not hold an intent.
    [[nodiscard]] std::vector<MergeIntent> read_all() const;

    /// Removes a finished intent.
    void remove(const MergeIntent &intent) const;

    [[nodiscard]] std::filesystem::path path_of(const MergeIntent &intent) const;

private:
    std::filesystem::path directory_;
};

} // namespace starling::core::detail
