// SPDX-License-Identifier: Apache-2.0
//
// The scores of a fixed batch, to the last bit. A deliberate change of the formula changes them
// and updates this file; a refactoring (how memories are tokenised, matched or cached) must not,
// and neither does the token cache, cold or warm. (The last bits changed once on purpose: a memory's
// terms are summed in query order since scores can also come from an index, which reads them so.)
#include <starling/plugins/plugin_registry.hpp>
#include <starling/sdk/bytes.hpp>

#include <catch2/catch.hpp>

#include "support/history_batch.hpp"
#include "support/temp_dir.hpp"
#include "support/quiet_logger.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

using starling::plugins::PluginRegistry;
using starling::plugins::RelevancePolicyInstance;

using starling::test::quiet_logger;

namespace {

constexpr std::int64_t day = 86400;
constexpr std::int64_t now = 1'700'000'000;

using Memory = starling::test::HistoryMemory;

/// Memories in several languages, with tags and bodies, where feedback changes the ranking.
const std::vector<Memory> &reference_memories() {
    static const std::vector<Memory> memories{
        {"Deploy the billing queue with terraform", "deploy\nbilling",
         "Run terraform apply in infra/billing, then drain the queue.", now - 3 * day, 4, 2},
        {"Billing queue consumers lag on Mondays", "billing\nqueue\nkafka",
         "Kafka consumer lag spikes when invoices are generated.", now - 40 * day, 1, 1},
        {"Use pnpm, never npm", "tooling", "The repository pins pnpm 9 in package.json.", now, 12, 5},
        {"Queue workers deploy through the release pipeline", "deploy\nci",
         "The release pipeline deploys queue workers after tests.", now - 10 * day, 0, 0},
        {"Kafka topics are named after the billing domain", "kafka\nnaming",
         "billing.invoices, billing.payments; deploy creates them.", now - 100 * day, 2, 1},
        {"Prefers dark mode", "ui", "", now - 1 * day, 30, 9},
        {"Straße und Büro: deploy freitags nie", "deutsch\nBüro", "Keine Deployments am Freitag.", now - 5 * day,
         0, 0},
        {"用户喜欢深色模式 deploy", "界面", "", now - 2 * day, 1, 1},
    };
    return memories;
}

/// bm25 with its defaults, or `settings_json`, from a registry that offers plugins a cache under
/// `cache_root`, if any.
class Bm25 {
public:
    explicit Bm25(std::optional<std::filesystem::path> cache_root = std::nullopt,
                  std::optional<std::string> settings_json = std::nullopt)
        : registry_(quiet_logger(), {std::move(cache_root), std::nullopt}) {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        policy_.emplace(registry_.create_relevance_policy(
            "bm25", settings_json ? *settings_json : registry_.find("bm25")->default_settings_json));
    }

    std::vector<double> score(const std::vector<Memory> &memories, std::string_view query, bool with_bodies) const {
        const starling::test::HistoryBatch batch{memories, with_bodies, now};
        return policy_->score(query, batch.get());
    }

private:
    PluginRegistry registry_;
    std::optional<RelevancePolicyInstance> policy_;
};

std::vector<double> reference_scores(std::string_view query, bool with_bodies) {
    return Bm25{}.score(reference_memories(), query, with_bodies);
}

const std::vector<std::string> queries{"how do we deploy the billing queue?", "kafka", "深色模式", "Büro"};

} // namespace

// The scores are normalised per query (scores of one query divided by one number), so they are far
// below the raw BM25F values that were pinned here before, in the same order. Since feedback scales
// the query's own terms' sums instead of summing them again, some differ from before in the last
// bit or two (the sums are rounded in another order). Since the length prior (prior.length 0.2),
// each is also multiplied by its memory's (own terms / average) ^ 0.2. Since the built-in lexicon
// and the background, "kafka" also finds the memories about queues and brokers, and every idf counts
// the background's documents. The lexicon's groups are part of the reference: a new group that a
// query's word reaches (OTA updates under deploy) moves that query's scores. Since a CJK run counts
// as n/2 words in the normaliser, "深色模式" (three bigrams, two words) is measured against two
// words' worth of its bigrams: the same number, rounded otherwise in its last bit. Since a lexicon
// phrase that stop words would leave one word is no longer a term a query expands to, "deploy" no
// longer brings in "roll" (of "roll out"): the prompt's scores move a little. Since a related term's
// idf is at most that of the query's terms it came from, "deploy"'s German forms and "queue"'s
// brokers count no more than the prompt's own words: the prompt's scores move again.
TEST_CASE("bm25 gives the reference scores to the last bit", "[policy][bm25][reference]") {
    const std::string prompt = "how do we deploy the billing queue?";

    CHECK(reference_scores(prompt, true) ==
          std::vector<double>{0x1.ac836cd727ca8p-1, 0x1.af276d995d62bp-1, 0.0, 0x1.4ecfb2c6f4bb8p-1,
                              0x1.18330220381dep-1, 0.0, 0x1.d3f3fd3c7fa8p-3, 0x1.08836a2ec0192p-3});
    CHECK(reference_scores("kafka", true) ==
          std::vector<double>{0x1.de5a843478fc6p-3, 0x1.8f49faac72499p-2, 0.0, 0x1.0a2c2f160e7f3p-3,
                              0x1.3e8712ea2a8f8p-2, 0.0, 0.0, 0.0});
    CHECK(reference_scores("深色模式", true) ==
          std::vector<double>{0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0x1.f67d95951d7adp-2});

    CHECK(reference_scores(prompt, false) ==
          std::vector<double>{0x1.8e8aede2bba3p-1, 0x1.9189b49be70a8p-1, 0.0, 0x1.2f88aa0235ac1p-1,
                              0x1.b0d0416065fbdp-2, 0.0, 0x1.d9c72f5f8870ep-3, 0x1.3095efe2bca6bp-3});
    CHECK(reference_scores("kafka", false) ==
          std::vector<double>{0x1.b22f71bc609f1p-3, 0x1.612d16327f2a7p-2, 0.0, 0x1.e9175cd5c1339p-4,
                              0x1.2a7756206555fp-2, 0.0, 0.0, 0.0});
    CHECK(reference_scores("深色模式", false) ==
          std::vector<double>{0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0x1.152251906c553p-1});
}

TEST_CASE("bm25 scores alike without a token cache, with a cold one and with a warm one",
          "[policy][bm25][reference][cache]") {
    starling::test::TempDir scratch{"bm25-cache"};
    const auto cache_root = scratch / "index" / "cache";
    for (const bool with_bodies : {true, false}) {
        for (const auto &query : queries) {
            INFO("query '" << query << "', bodies " << with_bodies);
            const auto uncached = Bm25{}.score(reference_memories(), query, with_bodies);
            std::filesystem::remove_all(cache_root);
            const auto cold = Bm25{cache_root}.score(reference_memories(), query, with_bodies);
            REQUIRE(std::filesystem::exists(cache_root / "bm25" / "tokens-v1.bin"));
            const auto warm = Bm25{cache_root}.score(reference_memories(), query, with_bodies);
            CHECK(cold == uncached);
            CHECK(warm == uncached);
        }
    }
}

TEST_CASE("bm25 scores alike when only some texts are cached", "[policy][bm25][reference][cache]") {
    starling::test::TempDir scratch{"bm25-cache"};
    const auto cache_root = scratch / "index" / "cache";
    (void)Bm25{cache_root}.score(reference_memories(), "kafka", false);

    auto edited = reference_memories();
    edited[1].summary = "Billing queue consumers lag on Fridays, kafka says";
    edited[4].tags = "kafka\nnaming\nbilling";
    edited.push_back({"A new memory about kafka retention", "kafka\nretention", "", now, 0, 0});
    for (const auto &query : queries) {
        INFO("query '" << query << "'");
        CHECK(Bm25{cache_root}.score(edited, query, false) == Bm25{}.score(edited, query, false));
    }
}

TEST_CASE("bm25 scores alike when its cache cannot be written", "[policy][bm25][reference][cache]") {
    starling::test::TempDir scratch{"bm25-cache"};
    std::ofstream(scratch / "index") << "a file where the store's index directory should be";
    const Bm25 unwritable{scratch / "index" / "cache"};
    for (const auto &query : queries) {
        INFO("query '" << query << "'");
        CHECK(unwritable.score(reference_memories(), query, true) == Bm25{}.score(reference_memories(), query, true));
    }
}

// A scorer keeps the last batch with bodies it tokenised and reuses its terms (then its postings)
// for the next query over the same memories; an edit, a new memory or other fields make it
// tokenise again, and a batch without bodies scored in between leaves it be. Either way a score is
// what a new scorer gives, to the last bit.
TEST_CASE("bm25 scores a batch it kept as a new scorer scores it", "[policy][bm25][reference][cache]") {
    starling::test::TempDir scratch{"bm25-kept"};
    for (const bool with_cache : {false, true}) {
        INFO("cache " << with_cache);
        const Bm25 kept = with_cache ? Bm25{scratch / "cache"} : Bm25{};
        if (with_cache) { // prepared, as `starling ui` prepares its searches
            CHECK(kept.score(reference_memories(), "", true) == std::vector<double>(reference_memories().size()));
        }
        for (int round = 0; round < 3; ++round) {
            for (const auto &query : queries) {
                INFO("query '" << query << "', round " << round);
                CHECK(kept.score(reference_memories(), query, true) == Bm25{}.score(reference_memories(), query, true));
                CHECK(kept.score(reference_memories(), query, false) == Bm25{}.score(reference_memories(), query, false));
            }
        }
        CHECK(kept.score(reference_memories(), "", true) == std::vector<double>(reference_memories().size()));

        auto edited = reference_memories();
        edited[2].summary = "Use pnpm, never npm; kafka clients pin their versions";
        const auto before = kept.score(reference_memories(), "kafka", true);
        const auto after = kept.score(edited, "kafka", true);
        CHECK(after == Bm25{}.score(edited, "kafka", true));
        CHECK(before[2] == 0.0);
        CHECK(after[2] > 0.0);

        edited.push_back({"Kafka retention is seven days", "kafka", "", now, 0, 0});
        CHECK(kept.score(edited, "kafka", true) == Bm25{}.score(edited, "kafka", true));
        CHECK(kept.score(reference_memories(), "kafka", true) == before);
    }
}

TEST_CASE("bm25 refuses a setting it cannot use, naming it and the value", "[policy][bm25][settings]") {
    PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins(), std::vector<std::string>{"bm25"});
    const auto refusal = [&](const std::string &settings_json) {
        try {
            static_cast<void>(registry.create_relevance_policy("bm25", settings_json));
        } catch (const std::exception &failure) {
            return std::string{failure.what()};
        }
        return std::string{"created"};
    };
    CHECK_THAT(refusal(R"({"k1": "many"})"), Catch::Contains("setting 'k1' must be a number, got 'many'"));
    CHECK_THAT(refusal(R"({"feedback": {"documents": 2.5}})"),
               Catch::Contains("setting 'feedback.documents' must be a whole number, got '2.5'"));
    CHECK_THAT(refusal(R"({"stem_english": "yes"})"),
               Catch::Contains("setting 'stem_english' must be true or false, got 'yes'"));
    CHECK_THAT(refusal(R"({"b": 2})"), Catch::Contains("bm25 setting 'b' must be between 0 and 1, got 2"));
    CHECK_THAT(refusal(R"({"prior": {"length": -0.1}})"),
               Catch::Contains("bm25 setting 'prior.length' must be between 0 and 2, got -0.1"));
    CHECK_THAT(refusal(R"({"lexicon": {"phrase_gap": 11}})"),
               Catch::Contains("bm25 setting 'lexicon.phrase_gap' must be between 0 and 10, got 11"));
    CHECK_THAT(refusal(R"({"prior": {"length": "long"}})"),
               Catch::Contains("setting 'prior.length' must be a number, got 'long'"));
    CHECK(refusal(R"({"k1": 1.5, "feedback": {"documents": 3}, "stem_english": false})") == "created");

    SECTION("synonym groups are lists of two or more words, each one term") {
        CHECK_THAT(refusal(R"({"synonyms": {"groups": [["k8s", "kubernetes"], ["db"]]}})"),
                   Catch::Contains("bm25 setting 'synonyms.groups': group 2 must be a list of at least two "
                                   "different words"));
        CHECK_THAT(refusal(R"({"synonyms": {"groups": [["deploy", "deploying"]]}})"),
                   Catch::Contains("group 1 must be a list of at least two different words")); // one stem
        CHECK_THAT(refusal(R"({"synonyms": {"groups": [["pr", "pull request"]]}})"),
                   Catch::Contains("group 1 holds 'pull request', which is 2 words; each member must be one word"));
        CHECK_THAT(refusal(R"({"stop_words": {"languages": ["en"]}, "synonyms": {"groups": [["the", "a"]]}})"),
                   Catch::Contains("holds 'the', which is a stop word or no word at all"));
        CHECK_THAT(refusal(R"({"synonyms": {"groups": ["k8s", "kubernetes"]}})"),
                   Catch::Contains("group 1 is the word 'k8s', not a list of words"));
        CHECK_THAT(refusal(R"({"synonyms": {"groups": [[["k8s"], "kubernetes"]]}})"),
                   Catch::Contains("group 1 holds a list; each member must be a word"));
        CHECK_THAT(refusal(R"({"synonyms": {"weight": 1.5}})"),
                   Catch::Contains("bm25 setting 'synonyms.weight' must be between 0 and 1, got 1.5"));
        CHECK(refusal(R"({"synonyms": {"groups": [["k8s", "Kubernetes"], ["db", "databases", "postgres"]]}})") ==
              "created");
        // An identifier in camel case is one word, though the tokenizer also makes terms of its parts.
        CHECK(refusal(R"({"synonyms": {"groups": [["maxRetries", "attempts"]]}})") == "created");
    }
}

TEST_CASE("a synonym group may name an identifier written in camel case", "[policy][bm25][settings]") {
    const std::vector<Memory> memories{
        {"The HTTP client sets maxRetries to 5", "", "", now, 0, 0},
        {"Invoices are kept for seven years", "", "", now, 0, 0},
    };
    const auto declared = Bm25{std::nullopt, R"({"synonyms": {"groups": [["maxRetries", "attempts"]]}})"}.score(
        memories, "how many attempts before we give up?", false);
    CHECK(declared[0] > 0.0);
    CHECK(declared[1] == 0.0);
    CHECK(Bm25{}.score(memories, "how many attempts before we give up?", false)[0] == 0.0);
}
