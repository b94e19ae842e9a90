// SPDX-License-Identifier: Apache-2.0
//
// bm25: lexical relevance for `starling search`, duplicate candidates and context injection.
// The scoring lives in Bm25Scorer, the text analysis in Tokenizer, the per-collection indexes in
// RelevanceIndexes; this file only binds them to the plugin ABI, and gives them the cache directory
// the host lends (without one, there is no token cache and no index to rank from). Every setting
// and its default is in default_settings.json, embedded at build time.
#include "bm25_scorer.hpp"
#include "bm25_settings.hpp"
#include "relevance_indexes.hpp"

#include "cache-files/relevance_index_binding.hpp"

#include <starling/bm25/default_settings.hpp>
#include <starling/sdk/plugin.hpp>

#include <cstdint>
#include <memory>

namespace {

std::unique_ptr<starling::bm25::TokenCache> token_cache(const starling::sdk::HostServices &host,
                                                        std::uint64_t tokens_fingerprint) {
    const auto directory = host.cache_directory();
    if (!directory) {
        return nullptr;
    }
    return std::make_unique<starling::bm25::TokenCache>(*directory / starling::bm25::token_cache_file_name,
                                                        tokens_fingerprint, host);
}

class Bm25Policy final : public starling::sdk::RelevancePolicy,
                         public starling::cache_files::IndexedBy<starling::bm25::RelevanceIndexes>,
                         public starling::sdk::FirstPassRelevance {
public:
    Bm25Policy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : Bm25Policy(host, starling::bm25::read_bm25_settings(settings)) {}

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories,
               std::span<double> scores) override {
        scorer_.score(query, memories, scores);
    }

    // The first pass is BM25F before feedback (feedback.documents).
    void score_first_pass(std::string_view query, const starling::sdk::MemoryBatch &memories,
                          std::span<double> scores) override {
        scorer_.score(query, memories, scores, starling::bm25::QueryPass::first);
    }

    std::optional<std::vector<starling::sdk::RankedMemory>> rank_first_pass(
        std::string_view query, std::span<const starling::sdk::Collection> collections, std::int64_t now,
        std::size_t limit) override {
        if (!indexes_) {
            return std::nullopt;
        }
        return indexes_->rank(query, collections, now, limit, starling::bm25::QueryPass::first);
    }

private:
    // The token cache and the indexes both check what they read against the tokenizer's
    // fingerprint; it is computed once.
    Bm25Policy(const starling::sdk::HostServices &host, starling::bm25::Bm25Settings settings)
        : IndexedBy("bm25"), tokens_fingerprint_(starling::bm25::fingerprint(settings.tokenizer)),
          scorer_(std::move(settings), token_cache(host, tokens_fingerprint_)) {
        if (auto directory = host.cache_directory()) {
            indexes_.emplace(std::move(*directory), scorer_, host, tokens_fingerprint_);
        }
    }

    std::uint64_t tokens_fingerprint_;
    starling::bm25::Bm25Scorer scorer_;
};

} // namespace

STARLING_DECLARE_PLUGIN(bm25, Bm25Policy, "bm25", "1.0.0",
                        "BM25F over summary, tags and body with a Unicode tokenizer, feedback and recency",
                        starling::bm25::default_settings_json)
