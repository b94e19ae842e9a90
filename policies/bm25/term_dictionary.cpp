// SPDX-License-Identifier: Apache-2.0
#include "term_dictionary.hpp"

namespace starling::bm25 {

void TermDictionary::clear() noexcept {
    ids_.clear();
    texts_.clear();
}

TermId TermDictionary::intern(std::string_view term) {
    if (const auto found = ids_.find(term); found != ids_.end()) {
        return found->second;
    }
    const auto id = static_cast<TermId>(texts_.size());
    ids_.emplace(texts_.emplace_back(term), id);
    return id;
}

} // namespace starling::bm25
