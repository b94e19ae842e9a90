// SPDX-License-Identifier: Apache-2.0
//
// bm25: lexical relevance for `starling search`, duplicate candidates and context injection.
// The scoring lives in Bm25Scorer, the text analysis in Tokenizer; this file only binds them to
// the plugin ABI. Every setting and its default is in default_settings.json, embedded at build time.
#include "bm25_scorer.hpp"
#include "bm25_settings.hpp"

#include <starling/bm25/default_settings.hpp>
#include <starling/sdk/plugin.hpp>

namespace {

class Bm25Policy final : public starling::sdk::RelevancePolicy {
public:
    Bm25Policy(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings &settings)
        : scorer_(starling::bm25::read_bm25_settings(settings)) {}

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
