// SPDX-License-Identifier: Apache-2.0
#include "token_cache.hpp"

#include "cache-files/cache_file_io.hpp"

#include <algorithm>
#include <cstring>
#include <variant>

namespace starling::bm25 {

void CachedTerms::copy_to(std::span<TermId> out) const noexcept {
    if (file_ != nullptr) {
        file_->copy_terms(entry_, out);
    } else if (!added_.empty()) {
        std::memcpy(out.data(), added_.data(), added_.size_bytes());
    }
}

TokenCache::TokenCache(std::filesystem::path file, std::uint64_t fingerprint, sdk::HostServices host,
                       cache_files::TextHash hash, TokenCacheLimits limits)
    : path_(std::move(file)), fingerprint_(fingerprint), host_(host), hash_(hash), limits_(limits) {}

void TokenCache::load() {
    loaded_ = true;
    cache_files::FileRead read = cache_files::read_whole_file(path_, limits_.max_file_bytes);
    if (read.outcome == cache_files::FileRead::Outcome::missing) {
        host_.debug("token cache " + path_.string() + " does not exist yet; every text is tokenised");
        return;
    }
    if (read.outcome != cache_files::FileRead::Outcome::read) {
        host_.warning("token cache ignored, will be rebuilt: " + read.error);
        return;
    }
    bytes_ = std::move(read.bytes);
    auto opened = open_token_cache_file(bytes_, fingerprint_);
    if (auto *file = std::get_if<TokenCacheFile>(&opened)) {
        file_ = std::move(*file);
        return;
    }
    const auto &rejection = std::get<RejectedCacheFile>(opened);
    const bool expected = rejection.reason == RejectedCacheFile::Reason::other_settings ||
                          rejection.reason == RejectedCacheFile::Reason::other_version;
    host_.log(expected ? STARLING_LOG_DEBUG : STARLING_LOG_WARNING,
              "token cache " + path_.string() + " ignored, will be rebuilt: " + rejection.detail);
    bytes_.clear();
}

CachedTermTable TokenCache::begin_call() {
    if (!loaded_) {
        load();
    }
    used_.assign(file_ ? file_->entry_count() : 0, 0);
    used_count_ = 0;
    added_.clear();
    added_terms_.clear();
    return file_ ? file_->terms() : CachedTermTable{};
}

std::optional<CachedTerms> TokenCache::find(std::string_view text) {
    if (file_) {
        if (const auto entry = file_->find(hash_(text), text)) {
            if (used_[*entry] == 0) {
                used_[*entry] = 1;
                ++used_count_;
            }
            return CachedTerms{*file_, *entry};
        }
    }
    if (!added_.empty()) {
        if (const auto found = added_.find(text); found != added_.end()) {
            return CachedTerms{std::span<const TermId>{added_terms_}.subspan(found->second.first, found->second.count)};
        }
    }
    return std::nullopt;
}

void TokenCache::add(std::string_view text, std::span<const TermId> terms) {
    const auto [where, inserted] = added_.try_emplace(text, AddedText{hash_(text), added_terms_.size(), terms.size()});
    if (inserted) {
        added_terms_.insert(added_terms_.end(), terms.begin(), terms.end());
    }
}

std::vector<CacheEntry> TokenCache::entries_to_keep(std::vector<TermId> &older_terms) const {
    const std::size_t used_by_call = used_count_ + added_.size();
    const std::size_t bound = std::max(4 * used_by_call, limits_.min_entries);
    std::vector<std::size_t> kept;
    for (std::size_t entry = 0; entry < used_.size(); ++entry) {
        if (used_[entry] != 0) {
            kept.push_back(entry);
        }
    }
    // Older entries in file order, which is hash order: as good as any without a use history.
    for (std::size_t entry = 0; entry < used_.size() && kept.size() + added_.size() < bound; ++entry) {
        if (used_[entry] == 0) {
            kept.push_back(entry);
        }
    }

    // The file's ids are copied out first, so that the spans below never see the vector grow.
    std::size_t term_total = 0;
    for (const auto entry : kept) {
        term_total += file_->term_count(entry);
    }
    older_terms.resize(term_total);
    std::vector<CacheEntry> entries;
    entries.reserve(kept.size() + added_.size());
    std::size_t first = 0;
    for (const auto entry : kept) {
        const std::span<TermId> terms = std::span<TermId>{older_terms}.subspan(first, file_->term_count(entry));
        file_->copy_terms(entry, terms);
        entries.push_back({file_->hash(entry), file_->text(entry), terms});
        first += terms.size();
    }
    for (const auto &[text, added] : added_) {
        entries.push_back({added.hash, text, std::span<const TermId>{added_terms_}.subspan(added.first, added.count)});
    }
    return entries;
}

void TokenCache::end_call(const TermDictionary &dictionary) {
    if (added_.empty()) {
        return;
    }
    std::vector<TermId> older_terms;
    auto entries = entries_to_keep(older_terms);
    const std::size_t entry_count = entries.size();
    auto built = build_token_cache_file(std::move(entries), dictionary, fingerprint_, limits_.max_file_bytes);
    added_.clear();
    if (!built) {
        note_write_failure(std::to_string(entry_count) + " texts would take more than " +
                           std::to_string(limits_.max_file_bytes) + " bytes");
        return;
    }
    if (const auto failure = cache_files::replace_file(path_, *built)) {
        note_write_failure(*failure);
    }
    // This process keeps using what it built even if others cannot see it: its texts stay cached.
    bytes_ = std::move(*built);
    auto opened = open_token_cache_file(bytes_, fingerprint_);
    if (auto *file = std::get_if<TokenCacheFile>(&opened)) {
        file_ = std::move(*file);
    } else {
        host_.error("token cache built unreadable (" + std::get<RejectedCacheFile>(opened).detail +
                    "); caching stops for this process");
        file_.reset();
        bytes_.clear();
    }
}

void TokenCache::note_write_failure(const std::string &reason) {
    // Once at warning, then quietly: a read-only store would otherwise log on every call.
    host_.log(write_failure_logged_ ? STARLING_LOG_DEBUG : STARLING_LOG_WARNING,
              "token cache " + path_.string() + " not written, texts are tokenised as before: " + reason);
    write_failure_logged_ = true;
}

} // namespace starling::bm25
