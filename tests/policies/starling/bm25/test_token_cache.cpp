// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/token_cache.hpp"

#include "policies/starling/bm25/tokenizer.hpp"
#include "support/captured_host_log.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <variant>
#include <vector>

using starling::bm25::TermDictionary;
using starling::bm25::TermId;
using starling::cache_files::TextHash;
using starling::bm25::TokenCache;
using starling::bm25::TokenCacheFile;
using starling::bm25::TokenCacheLimits;
using starling::bm25::Tokenizer;
using starling::bm25::TokenizerOptions;
using starling::bm25::TokenList;
using starling::test::CapturedLog;
namespace fs = std::filesystem;

namespace {

std::uint64_t constant_hash(std::string_view /*text*/) noexcept { return 1; }

/// Settings whose tokens are easy to read: no stemming, one stop word.
TokenizerOptions plain_options() {
    TokenizerOptions options;
    options.stem_english = false;
    options.stop_words = {"the"};
    return options;
}

/// One bm25 instance's cache, driven the way the batch tokenizer drives it.
class Instance {
public:
    Instance(const fs::path &file, CapturedLog &log, TokenizerOptions options = plain_options(),
             TextHash hash = &starling::cache_files::hash_text, TokenCacheLimits limits = {})
        : tokenizer_(options),
          cache_(file, starling::bm25::fingerprint(options), starling::sdk::HostServices{&log.host}, hash, limits) {}

    /// One scoring call over `texts`. Returns the texts the cache had; `terms` then holds every
    /// text's terms as the call saw them.
    std::vector<std::string> call(const std::vector<std::string> &texts) {
        dictionary_.clear(cache_.begin_call());
        std::vector<std::string> known;
        terms.clear();
        for (const auto &text : texts) {
            std::vector<TermId> ids;
            if (const auto cached = cache_.find(text)) {
                known.push_back(text);
                ids.resize(cached->size());
                cached->copy_to(ids);
            } else {
                tokens_.clear();
                tokenizer_.tokenize(text, tokens_);
                for (std::size_t token = 0; token < tokens_.size(); ++token) {
                    ids.push_back(dictionary_.intern(tokens_[token]));
                }
                cache_.add(text, ids);
            }
            auto &texts_terms = terms[text];
            texts_terms.clear();
            for (const auto id : ids) {
                texts_terms.emplace_back(dictionary_.text(id));
            }
        }
        cache_.end_call(dictionary_);
        return known;
    }

    std::map<std::string, std::vector<std::string>> terms;

private:
    Tokenizer tokenizer_;
    TokenCache cache_;
    TermDictionary dictionary_;
    TokenList tokens_;
};

using Texts = std::vector<std::string>;

const Texts summaries{"Deploy the billing queue with terraform", "billing", "kafka consumers lag",
                      "用户喜欢深色模式", ""};

std::size_t entries_in(const fs::path &file, TokenizerOptions options = plain_options()) {
    std::ifstream in(file, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto *first = reinterpret_cast<const std::byte *>(text.data());
    const std::vector<std::byte> bytes{first, first + text.size()};
    const auto opened = starling::bm25::open_token_cache_file(bytes, starling::bm25::fingerprint(options));
    REQUIRE(std::holds_alternative<TokenCacheFile>(opened));
    return std::get<TokenCacheFile>(opened).entry_count();
}

std::string contents_of(const fs::path &file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("texts tokenised by one process are found by the next, with the same terms", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "bm25" / "tokens-v1.bin";
    CapturedLog log;
    Instance first{file, log};
    CHECK(first.call(summaries).empty());
    CHECK(log.count(STARLING_LOG_DEBUG, "does not exist yet") == 1);
    REQUIRE(fs::exists(file));
    CHECK(entries_in(file) == summaries.size());

    Instance second{file, log};
    const std::string written = contents_of(file);
    CHECK(second.call(summaries) == summaries);
    CHECK(second.terms == first.terms);
    CHECK(second.terms["Deploy the billing queue with terraform"] ==
          std::vector<std::string>{"deploy", "billing", "queue", "with", "terraform"});
    CHECK(contents_of(file) == written); // nothing new, nothing written
    CHECK(log.warnings() == 0);
}

TEST_CASE("a changed summary is a new text: tokenised, and cached beside the old one", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "tokens-v1.bin";
    CapturedLog log;
    Instance{file, log}.call({"Deploy with terraform"});
    Instance edited{file, log};
    CHECK(edited.call({"Deploy with pulumi"}).empty());
    CHECK(edited.terms["Deploy with pulumi"] == std::vector<std::string>{"deploy", "with", "pulumi"});
    CHECK(Instance{file, log}.call({"Deploy with terraform", "Deploy with pulumi"}) ==
          Texts{"Deploy with terraform", "Deploy with pulumi"});
}

TEST_CASE("a text met twice in one call is tokenised and cached once", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "tokens-v1.bin";
    CapturedLog log;
    Instance instance{file, log};
    CHECK(instance.call({"git", "workflow", "git"}) == Texts{"git"});
    CHECK(entries_in(file) == 2);
}

TEST_CASE("a process keeps using what it cached, whatever becomes of the file", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    CapturedLog log;
    SECTION("the file is deleted") {
        const auto file = scratch / "tokens-v1.bin";
        Instance instance{file, log};
        instance.call(summaries);
        fs::remove(file);
        CHECK(instance.call(summaries) == summaries);
    }
    SECTION("the file cannot be written") {
        std::ofstream(scratch / "not-a-directory") << "x";
        Instance instance{scratch / "not-a-directory" / "tokens-v1.bin", log};
        CHECK(instance.call(summaries).empty());
        CHECK(instance.call(summaries) == summaries);
    }
}

TEST_CASE("other tokenizer settings invalidate the file", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "tokens-v1.bin";
    CapturedLog log;
    Instance{file, log}.call(summaries);

    TokenizerOptions stemmed = plain_options();
    stemmed.stem_english = true;
    Instance other{file, log, stemmed};
    CHECK(other.call(summaries).empty());
    CHECK(other.terms["Deploy the billing queue with terraform"] ==
          std::vector<std::string>{"deploy", "bill", "queue", "with", "terraform"});
    CHECK(log.count(STARLING_LOG_DEBUG, "other tokenizer settings") == 1);
    CHECK(log.warnings() == 0);
    CHECK(Instance{file, log, stemmed}.call(summaries) == summaries);
}

TEST_CASE("a garbled, truncated, empty or foreign file is ignored, logged once, and rebuilt",
          "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "tokens-v1.bin";
    CapturedLog log;
    Instance{file, log}.call(summaries);
    std::string damaged = contents_of(file);
    std::string expected_log;

    SECTION("garbled") {
        damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x55);
        expected_log = "checksum mismatch";
    }
    SECTION("truncated") {
        damaged.resize(damaged.size() - 7);
        expected_log = "bytes after the header";
    }
    SECTION("empty") {
        damaged.clear();
        expected_log = "not a bm25 token cache file";
    }
    SECTION("foreign") {
        damaged = "{\"this\": \"is some other program's JSON\"}";
        expected_log = "not a bm25 token cache file";
    }
    std::ofstream(file, std::ios::binary | std::ios::trunc) << damaged;

    Instance reader{file, log};
    CHECK(reader.call(summaries).empty());
    CHECK(reader.call(summaries) == summaries);
    CHECK(log.count(STARLING_LOG_WARNING, expected_log) == 1);
    CHECK(log.warnings() == 1);
    CHECK(Instance{file, log}.call(summaries) == summaries);
}

TEST_CASE("a file larger than allowed is neither read nor written", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "tokens-v1.bin";
    CapturedLog log;
    TokenCacheLimits limits;
    limits.max_file_bytes = 256;

    std::ofstream(file) << std::string(300, 'x');
    Instance reader{file, log, plain_options(), &starling::cache_files::hash_text, limits};
    CHECK(reader.call({"short"}).empty());
    CHECK(log.count(STARLING_LOG_WARNING, "more than the 256") == 1);
    CHECK(Instance{file, log, plain_options(), &starling::cache_files::hash_text, limits}.call({"short"}) == Texts{"short"});

    Instance writer{file, log, plain_options(), &starling::cache_files::hash_text, limits};
    CHECK(writer.call({std::string(300, 'y')}).empty());
    CHECK(log.count(STARLING_LOG_WARNING, "would take more than 256 bytes") == 1);
    CHECK(entries_in(file) == 1); // the previous file stays
}

TEST_CASE("a cache that cannot be written warns once, then stays quiet", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    std::ofstream(scratch / "index") << "a file where the cache directory should be";
    CapturedLog log;
    Instance instance{scratch / "index" / "cache" / "bm25" / "tokens-v1.bin", log};
    CHECK(instance.call({"first"}).empty());
    CHECK(instance.call({"second"}).empty());
    CHECK(log.count(STARLING_LOG_WARNING, "not written") == 1);
    CHECK(log.count(STARLING_LOG_DEBUG, "not written") == 1);
    CHECK(instance.terms["second"] == std::vector<std::string>{"second"});
}

TEST_CASE("texts whose hashes collide are told apart by their bytes", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "tokens-v1.bin";
    CapturedLog log;
    Instance first{file, log, plain_options(), &constant_hash};
    first.call(summaries);
    Instance second{file, log, plain_options(), &constant_hash};
    CHECK(second.call(summaries) == summaries);
    CHECK(second.terms == first.terms);
    CHECK(second.call({"kafka consumer lag"}).empty()); // same hash, other text: a miss
}

TEST_CASE("a rewrite keeps the call's entries and older ones up to the bound", "[policy][bm25][cache]") {
    starling::test::TempDir scratch{"token-cache"};
    const auto file = scratch / "tokens-v1.bin";
    CapturedLog log;
    TokenCacheLimits limits;
    limits.min_entries = 4;
    const auto instance = [&] { return Instance{file, log, plain_options(), &starling::cache_files::hash_text, limits}; };

    CHECK(instance().call({"t1", "t2", "t3", "t4", "t5", "t6"}).empty());
    CHECK(entries_in(file) == 6); // the call's own entries are never dropped
    CHECK(instance().call({"t7"}).empty());
    CHECK(entries_in(file) == 4); // max(4 × 1 used, 4)
    CHECK(instance().call({"t7", "t8"}) == Texts{"t7"});
    CHECK(entries_in(file) == 5); // bound max(4 × 2 used, 4) = 8: every older entry fits
}
