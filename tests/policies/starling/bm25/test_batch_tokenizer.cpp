// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/batch_tokenizer.hpp"

#include "support/temp_dir.hpp"
#include "support/test_batch.hpp"
#include "token_cache_samples.hpp"

#include "policies/cache-files/cache_file_io.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::bm25::BatchTerms;
using starling::bm25::BatchTokenizer;
using starling::bm25::Field;
using starling::bm25::FieldCounts;
using starling::bm25::TermDictionary;
using starling::bm25::TokenCache;
using starling::bm25::Tokenizer;
using starling::bm25::TokenizerOptions;

namespace {

TokenizerOptions english_options() {
    TokenizerOptions options;
    options.stem_english = false;
    options.stop_words = {"the", "of"};
    return options;
}

std::vector<std::string> texts_of(const BatchTerms &batch, const TermDictionary &dictionary, std::size_t memory,
                                  std::size_t text) {
    std::vector<std::string> texts;
    for (const auto id : batch.terms(batch.texts(memory)[text])) {
        texts.emplace_back(dictionary.text(id));
    }
    return texts;
}

} // namespace

TEST_CASE("every text of every memory becomes its terms, tokenised as the tokenizer does",
          "[policy][bm25][batch-tokenizer]") {
    Tokenizer tokenizer{english_options()};
    BatchTokenizer batch_tokenizer{tokenizer};
    TermDictionary dictionary;
    BatchTerms terms;
    starling::test::TestBatch memories;
    memories.add({"a.md", "The queues of billing", "Billing\n\nops", "Deploying queues"})
        .add({"b.md", "", "", "nothing of note"});

    batch_tokenizer.tokenize(starling::sdk::MemoryBatch{memories.batch()}, dictionary, nullptr, terms);

    REQUIRE(terms.memory_count() == 2);
    REQUIRE(terms.texts(0).size() == 4); // summary, two tags (the empty line is no tag), body
    CHECK(texts_of(terms, dictionary, 0, 0) == std::vector<std::string>{"queues", "billing"});
    CHECK(terms.texts(0)[1].field == Field::tags);
    CHECK(texts_of(terms, dictionary, 0, 1) == std::vector<std::string>{"billing"});
    CHECK(texts_of(terms, dictionary, 0, 2) == std::vector<std::string>{"ops"});
    CHECK(terms.texts(0)[3].field == Field::body);
    CHECK(texts_of(terms, dictionary, 0, 3) == std::vector<std::string>{"deploying", "queues"});
    CHECK(terms.lengths(0) == FieldCounts{2, 2, 2});
    // The same term is the same id wherever it occurs.
    CHECK(terms.terms(terms.texts(0)[0])[1] == terms.terms(terms.texts(0)[1])[0]);
    CHECK(terms.terms(terms.texts(0)[0])[0] == terms.terms(terms.texts(0)[3])[1]);

    REQUIRE(terms.texts(1).size() == 2); // an empty summary is still a text; no tags
    CHECK(terms.texts(1)[0].count == 0);
    CHECK(texts_of(terms, dictionary, 1, 1) == std::vector<std::string>{"nothing", "note"});
}

TEST_CASE("bodies are tokenised only when the batch carries them", "[policy][bm25][batch-tokenizer]") {
    Tokenizer tokenizer{english_options()};
    BatchTokenizer batch_tokenizer{tokenizer};
    TermDictionary dictionary;
    BatchTerms terms;
    starling::test::TestBatch memories;
    memories.add({"a.md", "release checklist", "", "run the migration script"});
    starling_memory_batch without_bodies = memories.batch();
    without_bodies.flags = 0;

    batch_tokenizer.tokenize(starling::sdk::MemoryBatch{without_bodies}, dictionary, nullptr, terms);

    REQUIRE(terms.texts(0).size() == 1);
    CHECK(terms.lengths(0) == FieldCounts{2, 0, 0});
}

TEST_CASE("tokenising again replaces the previous batch", "[policy][bm25][batch-tokenizer]") {
    Tokenizer tokenizer{english_options()};
    BatchTokenizer batch_tokenizer{tokenizer};
    TermDictionary dictionary;
    BatchTerms terms;
    starling::test::TestBatch first;
    first.add({"a.md", "one", "", ""}).add({"b.md", "two", "", ""});
    starling::test::TestBatch second;
    second.add({"c.md", "three", "", ""});

    batch_tokenizer.tokenize(starling::sdk::MemoryBatch{first.batch()}, dictionary, nullptr, terms);
    batch_tokenizer.tokenize(starling::sdk::MemoryBatch{second.batch()}, dictionary, nullptr, terms);

    REQUIRE(terms.memory_count() == 1);
    CHECK(texts_of(terms, dictionary, 0, 0) == std::vector<std::string>{"three"});
}

TEST_CASE("summaries and tags the cache knows are taken from it, bodies never", "[policy][bm25][batch-tokenizer]") {
    starling::test::TempDir scratch{"batch-tokenizer"};
    const auto file = scratch / "tokens-v1.bin";
    // Cached terms that the tokenizer would never make, so that the test sees where they came from.
    const auto cached = starling::test::SampleEntries{}
                            .add("Release checklist", {"from", "cache"})
                            .build(starling::bm25::fingerprint(english_options()));
    REQUIRE_FALSE(starling::cache_files::replace_file(file, cached));

    Tokenizer tokenizer{english_options()};
    BatchTokenizer batch_tokenizer{tokenizer};
    TokenCache cache{file, starling::bm25::fingerprint(english_options()), starling::sdk::HostServices{nullptr}};
    TermDictionary dictionary;
    dictionary.clear(cache.begin_call());
    BatchTerms terms;
    starling::test::TestBatch memories;
    memories.add({"a.md", "Release checklist", "Release checklist", "Release checklist"});

    batch_tokenizer.tokenize(starling::sdk::MemoryBatch{memories.batch()}, dictionary, &cache, terms);

    CHECK(texts_of(terms, dictionary, 0, 0) == std::vector<std::string>{"from", "cache"});
    CHECK(texts_of(terms, dictionary, 0, 1) == std::vector<std::string>{"from", "cache"});
    CHECK(texts_of(terms, dictionary, 0, 2) == std::vector<std::string>{"release", "checklist"});
    CHECK(terms.lengths(0) == FieldCounts{2, 2, 2});
    cache.end_call(dictionary);
}

TEST_CASE("texts the cache lacks are tokenised and added to it", "[policy][bm25][batch-tokenizer]") {
    starling::test::TempDir scratch{"batch-tokenizer"};
    const auto file = scratch / "tokens-v1.bin";
    Tokenizer tokenizer{english_options()};
    BatchTokenizer batch_tokenizer{tokenizer};
    starling::test::TestBatch memories;
    memories.add({"a.md", "Deploying queues", "ops", "the body is not cached"});
    const auto tokenize_with = [&](TokenCache &cache, TermDictionary &dictionary, BatchTerms &terms) {
        dictionary.clear(cache.begin_call());
        batch_tokenizer.tokenize(starling::sdk::MemoryBatch{memories.batch()}, dictionary, &cache, terms);
    };

    TokenCache cold{file, starling::bm25::fingerprint(english_options()), starling::sdk::HostServices{nullptr}};
    TermDictionary dictionary;
    BatchTerms terms;
    tokenize_with(cold, dictionary, terms);
    CHECK(texts_of(terms, dictionary, 0, 0) == std::vector<std::string>{"deploying", "queues"});
    cold.end_call(dictionary);

    TokenCache warm{file, starling::bm25::fingerprint(english_options()), starling::sdk::HostServices{nullptr}};
    REQUIRE(warm.begin_call().size() == 3); // deploying, queues, ops
    CHECK(warm.find("Deploying queues").has_value());
    CHECK(warm.find("ops").has_value());
    CHECK_FALSE(warm.find("the body is not cached").has_value());
}
