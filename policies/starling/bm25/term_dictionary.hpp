// SPDX-License-Identifier: Apache-2.0
//
// The terms of one scoring call, each interned once as a small integer. Memories are tokenised
// into term ids once per call, and everything after that (matching, feedback, the second
// matching pass) compares integers instead of strings.
//
// With a token cache, the dictionary starts from the cache file's term table: those terms keep the
// file's ids, so cached token lists are used as they are, and only terms the file lacks get new
// ids after them.
#pragma once

#include "cached_term_table.hpp"
#include "term_id.hpp"

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace starling::bm25 {

class TermDictionary {
public:
    TermDictionary() = default;
    // The map views the strings the dictionary owns: a copy would view the original's.
    TermDictionary(const TermDictionary &) = delete;
    TermDictionary &operator=(const TermDictionary &) = delete;

    /// Forgets every term and starts again from `base` (ids 0 … base.size() - 1), which must stay
    /// valid until the next clear().
    void clear(CachedTermTable base = {}) noexcept;
    /// The id of `term`, newly assigned if the dictionary has not seen it yet.
    [[nodiscard]] TermId intern(std::string_view term);
    [[nodiscard]] std::string_view text(TermId id) const noexcept {
        return id < base_.size() ? base_.text(id) : std::string_view{added_[id - base_.size()]};
    }
    /// The number of terms; ids are 0 … size() - 1.
    [[nodiscard]] std::size_t size() const noexcept { return base_.size() + added_.size(); }

private:
    CachedTermTable base_;
    std::deque<std::string> added_; // a deque never moves its strings, so the map may view them
    std::unordered_map<std::string_view, TermId> added_ids_;
};

} // namespace starling::bm25
