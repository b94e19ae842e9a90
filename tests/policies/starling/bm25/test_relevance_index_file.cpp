// SPDX-License-Identifier: Apache-2.0
//
// A relevance index file must find every term it was written with and each term's postings, and a
// damaged byte must make a lookup throw DamagedIndex or answer as the sound file does, never otherwise.
#include "policies/starling/bm25/batch_tokenizer.hpp"
#include "policies/starling/bm25/relevance_index_file.hpp"
#include "policies/starling/bm25/relevance_index_writer.hpp"

#include <catch2/catch.hpp>

#include "support/history_batch.hpp"
#include "support/temp_dir.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

using starling::bm25::BatchTerms;
using starling::bm25::BatchTokenizer;
using starling::bm25::DamagedIndex;
using starling::bm25::FieldCounts;
using starling::bm25::IndexedTerm;
using starling::bm25::IndexIdentity;
using starling::bm25::RelevanceIndexFile;
using starling::bm25::TermDictionary;
using starling::bm25::Tokenizer;
using starling::bm25::TokenizerOptions;
using starling::test::HistoryBatch;
using starling::test::HistoryMemory;

namespace {

const IndexIdentity identity{"user", "v3", 42};

/// `memories` with bodies, tokenised as an index build tokenises them; links of `relations` lend
/// context.
struct Tokenised {
    explicit Tokenised(const std::vector<HistoryMemory> &memories, std::vector<std::string> relations = {})
        : history{memories, true, 1'700'000'000}, batch{history.get()},
          batch_tokenizer{tokenizer, std::move(relations)} {
        batch_tokenizer.tokenize(batch, dictionary, nullptr, terms);
    }
    [[nodiscard]] std::string encode() const {
        return starling::bm25::encode_relevance_index(identity, batch, terms, dictionary);
    }

    HistoryBatch history;
    starling::sdk::MemoryBatch batch;
    Tokenizer tokenizer{TokenizerOptions{}};
    BatchTokenizer batch_tokenizer;
    TermDictionary dictionary;
    BatchTerms terms;
};

/// What a lookup of one term finds: nothing, or its counts and every posting.
struct Found {
    std::optional<std::uint32_t> memory_count;
    std::uint32_t own_count = 0;
    std::vector<std::uint32_t> memories;
    std::vector<FieldCounts> counts;
    std::vector<FieldCounts> lengths;

    friend bool operator==(const Found &, const Found &) = default;
};

Found look_up(const RelevanceIndexFile &file, std::string_view term) {
    Found found;
    const std::optional<IndexedTerm> indexed = file.find(term);
    if (!indexed) {
        return found;
    }
    found.memory_count = indexed->memory_count;
    found.own_count = indexed->own_count;
    const auto postings = file.postings(*indexed);
    for (std::size_t at = 0; at < postings.size(); ++at) {
        std::uint32_t memory = 0;
        FieldCounts counts{};
        FieldCounts lengths{};
        postings.decode(at, memory, counts, lengths);
        found.memories.push_back(memory);
        found.counts.push_back(counts);
        found.lengths.push_back(lengths);
    }
    return found;
}

/// Every term of the file, and two it lacks, looked up in turn on one opening; nothing when the
/// file does not open or a lookup throws DamagedIndex.
std::optional<std::vector<Found>> look_up_all(const std::filesystem::path &path, const std::vector<std::string> &terms) {
    std::string problem;
    auto [opening, file] = RelevanceIndexFile::open(path, identity, problem);
    if (opening != RelevanceIndexFile::Opening::opened) {
        return std::nullopt;
    }
    std::vector<Found> found;
    try {
        for (const auto &term : terms) {
            found.push_back(look_up(*file, term));
        }
    } catch (const DamagedIndex &) {
        return std::nullopt;
    }
    return found;
}

} // namespace

TEST_CASE("a relevance index file finds every term it holds and no other, and damage throws or changes nothing",
          "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index-file"};
    std::vector<HistoryMemory> memories(9);
    const std::vector<std::string> summaries{"deploy the billing queue", "kafka consumer lag", "billing retry",
                                             "postgres migration", "queue lag alert", "deploy kafka",
                                             "Büro 深色模式", "retry retry retry", "schema index"};
    for (std::size_t index = 0; index < memories.size(); ++index) {
        memories[index].summary = summaries[index];
        memories[index].tags = index % 2 == 0 ? "ops" : "";
        memories[index].body = "the body of note " + std::to_string(index) + " about " + summaries[(index + 3) % 9];
        memories[index].key = "memory/user/short/" + std::to_string(index) + ".md";
        memories[index].id = "id" + std::to_string(index);
    }
    const Tokenised tokenised{memories};
    const std::string bytes = tokenised.encode();
    const auto path = scratch / "index.bin";
    std::ofstream{path, std::ios::binary} << bytes;

    std::vector<std::string> queried{"zzzz", "billings"};
    for (std::size_t id = 0; id < tokenised.dictionary.size(); ++id) {
        queried.emplace_back(tokenised.dictionary.text(static_cast<starling::bm25::TermId>(id)));
    }
    const auto whole = look_up_all(path, queried);
    REQUIRE(whole);
    CHECK_FALSE((*whole)[0].memory_count);
    CHECK_FALSE((*whole)[1].memory_count);
    CHECK((*whole)[2].memory_count); // every term of the dictionary is in the file
    CHECK_FALSE((*whole)[2].memories.empty());

    std::size_t failed = 0;
    std::fstream in_place{path, std::ios::binary | std::ios::in | std::ios::out};
    const auto overwrite = [&](std::size_t position, char byte) {
        in_place.seekp(static_cast<std::streamoff>(position));
        in_place.put(byte);
        in_place.flush();
    };
    for (std::size_t position = 0; position < bytes.size(); ++position) {
        overwrite(position, static_cast<char>(bytes[position] ^ 0x5A));
        INFO("byte " << position);
        const auto found = look_up_all(path, queried);
        if (found) {
            CHECK(*found == *whole);
        } else {
            ++failed;
        }
        overwrite(position, bytes[position]);
    }
    CHECK(failed > 0);
}

TEST_CASE("a relevance index file gives each memory's key and the terms it was indexed with, context included",
          "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index-file"};
    std::vector<HistoryMemory> memories(4);
    memories[0] = {.summary = "Deploy the billingQueue", .tags = "ops\nbilling", .body = "through ArgoCD, never by hand"};
    memories[1] = {.summary = "", .tags = "", .body = "深色模式 im Büro"};
    memories[2] = {.summary = "kafka consumer lag", .tags = "", .body = ""};
    memories[3] = {.summary = "retry the queue", .tags = "", .body = "after a deploy"};
    for (std::size_t index = 0; index < memories.size(); ++index) {
        memories[index].key = "memory/user/short/" + std::to_string(index) + ".md";
        memories[index].id = "id" + std::to_string(index);
    }
    memories[3].fields = R"({"links": ["related:id0", "episode:id2"]})"; // lends it their texts
    const Tokenised tokenised{memories, {"related", "episode"}};
    const auto &terms = tokenised.terms;
    const auto path = scratch / "index.bin";
    std::ofstream{path, std::ios::binary} << tokenised.encode();

    std::string problem;
    auto [opening, file] = RelevanceIndexFile::open(path, identity, problem);
    REQUIRE(opening == RelevanceIndexFile::Opening::opened);
    REQUIRE(terms.texts(3).size() > 5); // summary, body, and what both links lend
    for (std::size_t memory = 0; memory < memories.size(); ++memory) {
        INFO("memory " << memory);
        const auto record = file->record(static_cast<std::uint32_t>(memory));
        CHECK(file->key(record) == memories[memory].key);
        std::vector<std::pair<starling::bm25::Field, std::vector<std::string>>> read;
        file->visit_terms(record, [&](starling::bm25::Field field, std::span<const std::string_view> texts) {
            read.emplace_back(field, std::vector<std::string>{texts.begin(), texts.end()});
        });
        std::vector<std::pair<starling::bm25::Field, std::vector<std::string>>> indexed;
        for (const auto &text : terms.texts(memory)) {
            std::vector<std::string> texts;
            for (const auto id : terms.terms(text)) {
                texts.emplace_back(tokenised.dictionary.text(id));
            }
            indexed.emplace_back(text.field, std::move(texts));
        }
        CHECK(read == indexed);
    }
}

TEST_CASE("a term too long for the relevance index format is refused, not cut", "[policy][bm25][index]") {
    std::vector<HistoryMemory> memories(1);
    memories[0].summary = std::string(70'000, 'x');
    const Tokenised tokenised{memories};
    REQUIRE(tokenised.terms.terms(tokenised.terms.texts(0)[0]).size() == 1);
    CHECK_THROWS_WITH(tokenised.encode(), Catch::Contains("a term of 70000 bytes"));
}

TEST_CASE("an opened relevance index file checks each postings list the first time it gives it, and a new "
          "opening checks again",
          "[policy][bm25][index]") {
    starling::test::TempDir scratch{"bm25-index-checked"};
    std::vector<HistoryMemory> memories(3);
    const std::vector<std::string> summaries{"deploy the billing queue", "billing retry", "queue lag alert"};
    for (std::size_t index = 0; index < memories.size(); ++index) {
        memories[index].summary = summaries[index];
        memories[index].key = "memory/user/short/" + std::to_string(index) + ".md";
        memories[index].id = "id" + std::to_string(index);
    }
    const Tokenised tokenised{memories};
    const auto path = scratch / "index.bin";
    std::ofstream{path, std::ios::binary} << tokenised.encode();

    std::string problem;
    auto [opening, kept] = RelevanceIndexFile::open(path, identity, problem);
    REQUIRE(opening == RelevanceIndexFile::Opening::opened);
    const auto billing = kept->find("bill");
    REQUIRE(billing);
    CHECK(kept->postings(*billing).size() == 2);

    // Damage in place, as no writer of Starling's does (an index is rebuilt into a new file).
    {
        std::fstream in_place{path, std::ios::binary | std::ios::in | std::ios::out};
        in_place.seekg(static_cast<std::streamoff>(billing->postings_at));
        const auto byte = static_cast<char>(in_place.get());
        in_place.seekp(static_cast<std::streamoff>(billing->postings_at));
        in_place.put(static_cast<char>(byte ^ 0x01));
    }
    CHECK_NOTHROW(kept->postings(*billing)); // checked when first given: the kept opening trusts it
    auto [reopening, fresh] = RelevanceIndexFile::open(path, identity, problem);
    REQUIRE(reopening == RelevanceIndexFile::Opening::opened);
    CHECK_THROWS_AS(fresh->postings(*fresh->find("bill")), DamagedIndex);
}
