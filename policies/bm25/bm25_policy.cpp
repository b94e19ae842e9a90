// SPDX-License-Identifier: Apache-2.0
//
// bm25: lexical relevance for `starling search`, duplicate candidates and context injection.
// The scoring lives in Bm25Scorer, the text analysis in Tokenizer; this file only binds them to
// the plugin ABI, and gives the scorer a token cache when the host lends a cache directory. Every
// setting and its default is in default_settings.json, embedded at build time.
#include "bm25_scorer.hpp"
#include "bm25_settings.hpp"

#include <starling/bm25/default_settings.hpp>
#include <starling/sdk/plugin.hpp>

#include <memory>

namespace {

std::unique_ptr<starling::bm25::TokenCache> token_cache(const starling::sdk::HostServices &host,
                                                        const starling::bm25::Bm25Settings &settings) {
    const auto directory = host.cache_directory();
    if (!directory) {
        return nullptr;
    }
    return std::make_unique<starling::bm25::TokenCache>(*directory / starling::bm25::token_cache_file_name,
                                                        starling::bm25::fingerprint(settings.tokenizer), host);
}

starling::bm25::Bm25Scorer make_scorer(const starling::sdk::HostServices &host,
                                       starling::bm25::Bm25Settings settings) {
    auto cache = token_cache(host, settings);
    return starling::bm25::Bm25Scorer{std::move(settings), std::move(cache)};
}

class Bm25Policy final : public starling::sdk::RelevancePolicy {
public:
    Bm25Policy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : scorer_(make_scorer(host, starling::bm25::read_bm25_settings(settings))) {}

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories,
               std::span<double> scores) override {
        scorer_.score(query, memories, scores);
    }

private:
    starling::bm25::Bm25Scorer scorer_;
};

} // namespace

STARLING_DECLARE_PLUGIN(bm25, Bm25Policy, "bm25", "1.0.0",
                        "BM25F over summary, tags and body with a Unicode tokenizer, feedback and recency",
                        starling::bm25::default_settings_json)
