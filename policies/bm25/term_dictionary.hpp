// SPDX-License-Identifier: Apache-2.0
//
// The terms of one scoring call, each interned once as a small integer. Memories are tokenised
// into term ids once per call, and everything after that (matching, feedback, the second
// matching pass) compares integers instead of strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace starling::bm25 {

using TermId = std::uint32_t;

class TermDictionary {
public:
    /// Forgets every term, so that ids start again at 0.
    void clear() noexcept;
    /// The id of `term`, newly assigned if the dictionary has not seen it yet.
    [[nodiscard]] TermId intern(std::string_view term);
    [[nodiscard]] std::string_view text(TermId id) const noexcept { return texts_[id]; }
    /// The number of terms; ids are 0 … size() - 1.
    [[nodiscard]] std::size_t size() const noexcept { return texts_.size(); }

private:
    std::deque<std::string> texts_; // a deque never moves its strings, so the map may view them
    std::unordered_map<std::string_view, TermId> ids_;
};

} // namespace starling::bm25
