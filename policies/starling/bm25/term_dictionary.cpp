// SPDX-License-Identifier: Apache-2.0
#include "term_dictionary.hpp"

namespace starling::bm25 {

void TermDictionary::clear(CachedTermTable base) noexcept {
    base_ = base;
    added_ids_.clear();
    added_.clear();
}

TermId TermDictionary::intern(std::string_view term) {
    if (const auto cached = base_.find(term)) {
        return *cached;
    }
    if (const auto found = added_ids_.find(term); found != added_ids_.end()) {
        return found->second;
    }
    const auto id = static_cast<TermId>(size());
    added_ids_.emplace(added_.emplace_back(term), id);
    return id;
}

} // namespace starling::bm25
