// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/plugin_registry.hpp>
#include <starling/sdk/bytes.hpp>

#include <catch2/catch.hpp>

#include "support/history_batch.hpp"
#include "support/quiet_logger.hpp"
#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

using starling::plugins::PluginLoadError;
using starling::plugins::PluginRegistry;
using starling::plugins::RelevancePolicyInstance;

using starling::test::quiet_logger;

namespace {

constexpr std::int64_t day = 86400;
constexpr std::int64_t now = 1'700'000'000;

/// The bm25 policy with its declared defaults overlaid by `overrides` (a JSON merge patch).
/// Settings that leave out the built-in lexicon and the background, for tests of BM25F's own
/// mechanics over a handful of memories (idf, feedback, context), which either would blur.
const nlohmann::json kStoreAlone = {
    {"lexicon", {{"same", 0.0}, {"sibling", 0.0}, {"broader", 0.0}, {"narrower", 0.0}}},
    {"background", {{"documents", 0.0}}}};

RelevancePolicyInstance bm25_policy(const nlohmann::json &overrides = nlohmann::json::object()) {
    static PluginRegistry registry{quiet_logger()};
    if (registry.plugins().empty()) {
        registry.add_static_plugins(starling::plugins::linked_static_plugins());
    }
    const auto *info = registry.find("bm25");
    REQUIRE(info != nullptr);
    auto settings = nlohmann::json::parse(info->default_settings_json);
    settings.merge_patch(overrides);
    return registry.create_relevance_policy("bm25", settings.dump());
}

struct Memory {
    Memory(std::string summary_text, std::string tag_lines = {}, std::string body_text = {},
           std::int64_t accessed = now, std::uint32_t accesses = 0, std::uint32_t sessions = 0)
        : summary(std::move(summary_text)), tags(std::move(tag_lines)), body(std::move(body_text)),
          last_accessed(accessed), access_count(accesses), session_count(sessions) {}

    std::string summary;
    std::string tags;
    std::string body;
    std::int64_t last_accessed;
    std::uint32_t access_count;
    std::uint32_t session_count;
};

/// A batch whose access history each test sets, which recency and reinforcement need.
class Batch {
public:
    explicit Batch(bool with_bodies = true) : with_bodies_(with_bodies) {}

    Batch &add(Memory memory) {
        memories_.push_back(std::move(memory));
        const Memory &stored = memories_.back();
        starling_memory_view view{};
        view.struct_size = sizeof(starling_memory_view);
        view.key = starling::sdk::as_bytes("memory.md");
        view.summary = starling::sdk::as_bytes(stored.summary);
        view.tags = starling::sdk::as_bytes(stored.tags);
        view.body = starling::sdk::as_bytes(stored.body);
        view.created = now - 100 * day;
        view.last_accessed = stored.last_accessed;
        view.access_count = stored.access_count;
        view.session_count = stored.session_count;
        views_.push_back(view);
        return *this;
    }

    std::vector<double> score(const RelevancePolicyInstance &policy, std::string_view query) {
        return policy.score(query, batch());
    }

    std::vector<double> score_first_pass(const RelevancePolicyInstance &policy, std::string_view query) {
        return policy.score_first_pass(query, batch());
    }

private:
    /// The memories added so far; valid until the next add().
    starling_memory_batch batch() {
        pointers_.clear();
        for (const auto &view : views_) {
            pointers_.push_back(&view);
        }
        return {sizeof(starling_memory_batch), with_bodies_ ? STARLING_BATCH_HAS_BODIES : 0U, now, pointers_.size(),
                pointers_.data()};
    }

    bool with_bodies_;
    std::deque<Memory> memories_;
    std::deque<starling_memory_view> views_;
    std::vector<const starling_memory_view *> pointers_;
};

/// A memory of the user's scope with an id and, in `fields`, its links (ABI 1.4).
starling::test::HistoryMemory linked_memory(std::string id, std::string summary, std::string fields = "{}") {
    starling::test::HistoryMemory made;
    made.key = id + ".md";
    made.id = std::move(id);
    made.scope = "user";
    made.summary = std::move(summary);
    made.fields = std::move(fields);
    made.last_accessed = now;
    return made;
}

} // namespace

TEST_CASE("bm25 is linked in and declares its settings", "[policy][bm25]") {
    PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    const auto *info = registry.find("bm25");
    REQUIRE(info != nullptr);
    CHECK(starling::plugins::kind_name(info->kind) == "relevance");
    const auto defaults = nlohmann::json::parse(info->default_settings_json);
    CHECK(defaults.at("k1").get<double>() == Approx(1.2));
    CHECK(defaults.at("fields").contains("body"));
    CHECK(defaults.at("stop_words").at("languages") == nlohmann::json::array({"en", "de"}));
}

TEST_CASE("a memory that shares no query term scores 0", "[policy][bm25]") {
    const auto policy = bm25_policy();
    Batch batch;
    batch.add({"Prefers dark mode in editors", "ui", "", now, 40, 12})
        .add({"Uses bun instead of pnpm", "tooling", "", now, 0, 0});
    const auto scores = batch.score(policy, "which package manager: pnpm?");
    CHECK(scores[0] == 0.0);
    CHECK(scores[1] > 0.0);
    CHECK(batch.score(policy, "") == std::vector<double>{0.0, 0.0});
    CHECK(batch.score(policy, "the of and") == std::vector<double>{0.0, 0.0});
}

TEST_CASE("a rarer query term weighs more than a common one", "[policy][bm25]") {
    const auto policy = bm25_policy(kStoreAlone);
    Batch batch;
    batch.add({"deploy with terraform"})
        .add({"deploy with kubectl"})
        .add({"deploy the docs"})
        .add({"deploy on friday"})
        .add({"kubectl context"});
    // memory 0 matches the rare "terraform", memory 1 the common "deploy" and "kubectl"'s partner
    const auto scores = batch.score(policy, "terraform deploy");
    CHECK(scores[0] > scores[1]);
    CHECK(scores[0] > scores[2]);
    CHECK(scores[4] == 0.0);
}

TEST_CASE("field weights decide between a summary match and a body match", "[policy][bm25]") {
    Batch batch;
    batch.add({"postgres connection pooling", "", "notes about the database"})
        .add({"database notes", "", "postgres postgres connection pooling details"})
        .add({"unrelated memory", "", "nothing here"});

    const auto summary_first = batch.score(bm25_policy(), "postgres");
    CHECK(summary_first[0] > summary_first[1]);

    const auto body_first =
        batch.score(bm25_policy({{"fields", {{"summary", 0.2}, {"tags", 0.2}, {"body", 3.0}}}}), "postgres");
    CHECK(body_first[1] > body_first[0]);
    CHECK(body_first[2] == 0.0);
}

TEST_CASE("tags are searched as their own field", "[policy][bm25]") {
    Batch batch;
    batch.add({"always squash merge", "git\nworkflow"}).add({"prefer rebase", "style"});
    const auto scores = batch.score(bm25_policy(), "git workflow");
    CHECK(scores[0] > 0.0);
    CHECK(scores[1] == 0.0);
    CHECK(batch.score(bm25_policy({{"fields", {{"tags", 0.0}}}}), "git workflow")[0] == 0.0);
}

TEST_CASE("bodies count only when the batch carries them", "[policy][bm25]") {
    Batch without_bodies{false};
    without_bodies.add({"release checklist", "", "run the migration script"});
    CHECK(without_bodies.score(bm25_policy(), "migration")[0] == 0.0);

    Batch with_bodies;
    with_bodies.add({"release checklist", "", "run the migration script"});
    CHECK(with_bodies.score(bm25_policy(), "migration")[0] > 0.0);
}

TEST_CASE("recency and reinforcement break ties but never lift a non-match", "[policy][bm25]") {
    const auto policy = bm25_policy();
    Batch batch;
    batch.add({"use ripgrep for search", "", "", now - 200 * day, 0, 0})
        .add({"use ripgrep for search", "", "", now - 1 * day, 0, 0})
        .add({"use ripgrep for search", "", "", now - 200 * day, 30, 9})
        .add({"completely different topic", "", "", now, 1000, 500});
    const auto scores = batch.score(policy, "ripgrep");
    CHECK(scores[1] > scores[0]);
    CHECK(scores[2] > scores[0]);
    CHECK(scores[3] == 0.0);

    const auto flat =
        batch.score(bm25_policy({{"recency", {{"weight", 0.0}}},
                                 {"reinforcement", {{"access_weight", 0.0}, {"session_weight", 0.0}}}}),
                    "ripgrep");
    CHECK(flat[0] == flat[1]);
    CHECK(flat[0] == flat[2]);
}

TEST_CASE("the boosts stay small next to a better lexical match", "[policy][bm25]") {
    Batch batch;
    batch.add({"ripgrep flags for hidden files", "", "", now - 400 * day, 0, 0})
        .add({"ripgrep", "", "", now, 20, 5})
        .add({"ripgrep hidden files with --hidden", "", "", now - 400 * day, 0, 0});
    const auto scores = batch.score(bm25_policy(), "ripgrep hidden files");
    CHECK(scores[2] > scores[1]);
}

TEST_CASE("settings override the declared defaults", "[policy][bm25]") {
    Batch batch;
    batch.add({"the"}).add({"other"});
    CHECK(batch.score(bm25_policy(), "the")[0] == 0.0);
    CHECK(batch.score(bm25_policy({{"stop_words", {{"languages", nlohmann::json::array()}}}}), "the")[0] >
          0.0);
    CHECK(batch.score(bm25_policy({{"stop_words", {{"keep", {"The"}}}}}), "the")[0] > 0.0);
    CHECK(batch.score(bm25_policy({{"stop_words", {{"extra", {"OTHER"}}}}}), "other")[1] == 0.0);
    CHECK(batch.score(bm25_policy({{"stop_words", {{"languages", {"fr"}}}}}), "the")[0] > 0.0);

    Batch stems;
    stems.add({"researching adoption agencies"});
    CHECK(stems.score(bm25_policy(), "research")[0] > 0.0);
    CHECK(stems.score(bm25_policy({{"stem_english", false}}), "research")[0] == 0.0);
}

TEST_CASE("out-of-range settings make creation fail with the key named", "[policy][bm25]") {
    CHECK_THROWS_AS(bm25_policy({{"b", 1.5}}), PluginLoadError);
    CHECK_THROWS_WITH(bm25_policy({{"k1", -1.0}}), Catch::Contains("k1"));
    CHECK_THROWS_WITH(bm25_policy({{"normalisation", {{"min_terms", -1.0}}}}), Catch::Contains("normalisation.min_terms"));
    CHECK_THROWS_WITH(bm25_policy({{"stop_words", {{"languages", {"xx"}}}}}),
                      Catch::Contains("names 'xx'") && Catch::Contains("de, en, es, fr"));
}

TEST_CASE("a short query is measured against normalisation.min_terms terms, a longer one against its own",
          "[policy][bm25][normalised]") {
    Batch batch;
    batch.add({"Works at Finlane, a fintech in Berlin"}).add({"Deploys run from CI"}).add({"Use pnpm, never npm"});
    // Two terms, one matched: measured as five terms, every score of the query is two fifths.
    const auto alone = batch.score(bm25_policy({{"normalisation", {{"min_terms", 0.0}}}}), "thanks, that worked!");
    const auto floored = batch.score(bm25_policy(), "thanks, that worked!");
    CHECK(alone[0] > 0.0);
    CHECK(floored[0] == Approx(alone[0] * 2.0 / 5.0));
    // Five terms or more: the query is measured against its own.
    const std::string longer = "where does the fintech team in berlin work and deploy services today";
    CHECK(batch.score(bm25_policy({{"normalisation", {{"min_terms", 0.0}}}}), longer) ==
          batch.score(bm25_policy(), longer));
}

TEST_CASE("a Chinese query finds the Chinese memory", "[policy][bm25]") {
    const auto policy = bm25_policy();
    Batch batch;
    batch.add({"用户喜欢深色模式", "界面"}).add({"项目使用 pnpm 管理依赖"}).add({"Prefers dark mode"});
    const auto scores = batch.score(policy, "深色模式");
    CHECK(scores[0] > 0.0);
    CHECK(scores[1] == 0.0);
    CHECK(scores[2] == 0.0);
    CHECK(batch.score(policy, "依赖管理")[1] > 0.0);
}

TEST_CASE("German queries match across case and sharp s", "[policy][bm25]") {
    Batch batch;
    batch.add({"Die Straße zum Büro ist gesperrt"}).add({"Kaffee im Büro"});
    const auto scores = batch.score(bm25_policy(), "STRASSE büro");
    CHECK(scores[0] > scores[1]);
    CHECK(scores[1] > 0.0);
}

TEST_CASE("feedback lifts memories that share terms with the best matches", "[policy][bm25]") {
    Batch batch;
    batch.add({"kafka consumer lag kafka"})
        .add({"kafka lunch"})
        .add({"kafka consumer lag"})
        .add({"consumer lag dashboards"})
        .add({"coffee"})
        .add({"tea"});
    const auto plain = batch.score(bm25_policy(kStoreAlone), "kafka");
    CHECK(plain[1] > plain[2]); // shorter memory wins without feedback

    auto with_feedback = kStoreAlone;
    with_feedback["feedback"] = {{"documents", 1}, {"terms", 2}, {"weight", 0.5}};
    const auto expanded = batch.score(bm25_policy(with_feedback), "kafka");
    CHECK(expanded[2] > expanded[1]);
    CHECK(expanded[3] == 0.0); // shares only feedback terms, none of the query's
    CHECK(expanded[4] == 0.0);
}

TEST_CASE("the first pass scores as bm25 without feedback, and feedback lifts a lone match above it",
          "[policy][bm25][first-pass]") {
    Batch batch;
    batch.add({"kafka consumer lag kafka"})
        .add({"kafka lunch"})
        .add({"kafka consumer lag"})
        .add({"consumer lag dashboards"})
        .add({"coffee"});
    auto with_feedback = kStoreAlone;
    with_feedback["feedback"] = {{"documents", 1}, {"terms", 2}, {"weight", 0.5}};
    auto without_feedback = kStoreAlone;
    without_feedback["feedback"] = {{"documents", 0}};
    const auto policy = bm25_policy(with_feedback);
    const auto first = batch.score_first_pass(policy, "kafka");
    CHECK(first == batch.score(bm25_policy(without_feedback), "kafka"));
    const auto full = batch.score(policy, "kafka");
    CHECK(full != first);
    CHECK(full[0] > first[0]); // the best match lends itself its own words

    // Bodies or not, the batch is scored the same way in both passes.
    Batch summaries_only{false};
    summaries_only.add({"kafka consumer lag kafka"}).add({"kafka lunch"}).add({"coffee"});
    CHECK(summaries_only.score_first_pass(policy, "kafka") ==
          summaries_only.score(bm25_policy(without_feedback), "kafka"));
}

TEST_CASE("what was said around a memory raises it through its links, but never brings in one that shares nothing",
          "[policy][bm25][context]") {
    using starling::test::HistoryBatch;
    const std::vector<starling::test::HistoryMemory> memories{
        linked_memory("aaaaaaa", "Caroline: I went to the support group yesterday"),
        linked_memory("bbbbbbb", "Melanie: how was the LGBTQ meeting?", R"({"links": ["episode:aaaaaaa"]})"),
        linked_memory("ccccccc", "Caroline: my painting class starts monday"),
        linked_memory("ddddddd", "Caroline: the support group helped me a lot"),
    };
    const HistoryBatch batch{memories, false, now};
    const auto scores = [&](const RelevancePolicyInstance &policy, const std::string &query) {
        return policy.score(query, batch.get());
    };
    const auto linked = scores(bm25_policy(kStoreAlone), "LGBTQ support group");
    // Memories 0 and 3 say "support group" alike; the meeting the next turn named lifts memory 0.
    CHECK(linked[0] > linked[3]);
    CHECK(linked[3] > 0.0);
    CHECK(linked[2] == 0.0);
    auto without_context = kStoreAlone;
    without_context["context"] = {{"relations", nlohmann::json::array()}};
    CHECK(scores(bm25_policy(without_context), "LGBTQ support group")[0] ==
          scores(bm25_policy(without_context), "LGBTQ support group")[3]);
    auto heavy_context = kStoreAlone;
    heavy_context["fields"] = {{"context", 3.0}};
    CHECK(scores(bm25_policy(heavy_context), "LGBTQ support group")[0] > linked[0]);

    // A memory that says none of the query's words is no match, whatever its neighbours say.
    const auto only_context = scores(bm25_policy(kStoreAlone), "LGBTQ");
    CHECK(only_context[0] == 0.0);
    CHECK(only_context[1] > 0.0);
    CHECK(scores(bm25_policy(heavy_context), "LGBTQ")[0] == 0.0);
}

TEST_CASE("context settings that are no relation or weight are refused, naming the key", "[policy][bm25][context]") {
    CHECK_THROWS_WITH(bm25_policy({{"context", {{"relations", {"episode:x"}}}}}),
                      Catch::Contains("context.relations") && Catch::Contains("episode:x"));
    CHECK_THROWS_WITH(bm25_policy({{"context", {{"relations", {""}}}}}), Catch::Contains("context.relations"));
    CHECK_THROWS_WITH(bm25_policy({{"fields", {{"context", -1.0}}}}), Catch::Contains("fields.context"));
}

TEST_CASE("a link never makes a memory's words commoner: idf counts what memories say themselves",
          "[policy][bm25][context]") {
    using starling::test::HistoryBatch;
    const std::vector<starling::test::HistoryMemory> unlinked{linked_memory("aaaaaaa", "kafka consumer lag alerts"),
                                              linked_memory("bbbbbbb", "use pnpm in every repository")};
    const std::vector<starling::test::HistoryMemory> linked{linked_memory("aaaaaaa", "kafka consumer lag alerts"),
                                            linked_memory("bbbbbbb", "use pnpm in every repository",
                                                   R"({"links": ["episode:aaaaaaa"]})")};
    auto no_feedback = kStoreAlone;
    no_feedback["feedback"] = {{"documents", 0}};
    const auto policy = bm25_policy(no_feedback);
    const HistoryBatch apart{unlinked, false, now};
    const HistoryBatch together{linked, false, now};
    const auto before = policy.score("kafka", apart.get());
    const auto after = policy.score("kafka", together.get());
    CHECK(after[0] == before[0]); // to the last bit: "kafka" is still said by one memory only
    CHECK(before[1] == 0.0);
    CHECK(after[1] == 0.0); // a link brings in no memory that says none of the query's words
}
