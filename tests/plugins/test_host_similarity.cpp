// SPDX-License-Identifier: Apache-2.0
//
// starling.host.similarity/1 (ABI 1.5): how similar memories are, as the active relevance policy
// judges them — the normalisation of docs/plugin-abi.md ("Similarity"), the host context that offers
// it, the SDK's wrapper, and a decay policy asking for it through the plugin host.
#include "plugins/src/host_context.hpp"

#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/relevance_similarity.hpp>
#include <starling/sdk/plugin.hpp>

#include "support/quiet_logger.hpp"
#include "support/test_batch.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

using starling::plugins::HostContext;
using starling::test::quiet_logger;
using starling::test::TestBatch;

namespace {

/// Scores from a table: the row is chosen by the query's first line (the memory's summary), the
/// column is the memory's position in the batch. Counts its calls.
class TableScorer final : public starling::core::RelevanceScorer {
public:
    std::map<std::string, std::vector<double>> rows;
    mutable int calls = 0;

    std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override {
        ++calls;
        const std::string first_line{query.substr(0, query.find('\n'))};
        const auto found = rows.find(first_line);
        if (found == rows.end()) {
            throw std::runtime_error("no scores for the query '" + first_line + "'");
        }
        auto scores = found->second;
        scores.resize(batch.count, 0.0);
        return scores;
    }
};

/// Three memories whose summaries name their rows.
TestBatch three_memories() {
    TestBatch batch;
    batch.add({"memory/user/short/a.md", "a", "", "alpha text"});
    batch.add({"memory/user/short/b.md", "b", "", "beta text"});
    batch.add({"memory/user/short/c.md", "c", "", "gamma text"});
    return batch;
}

double at(const std::vector<double> &matrix, std::size_t count, std::size_t row, std::size_t column) {
    return matrix.at(row * count + column);
}

const starling_host_similarity_v1 *similarity_extension(const starling_host *host) {
    return static_cast<const starling_host_similarity_v1 *>(
        host->get_extension(host->context, STARLING_HOST_SIMILARITY_EXTENSION_V1));
}

} // namespace

TEST_CASE("similarity: each row is normalised by the memory's own score, and a pair takes the smaller direction",
          "[plugins][host][similarity]") {
    TableScorer scorer;
    scorer.rows["a"] = {4.0, 3.0, 0.0};
    scorer.rows["b"] = {1.0, 2.0, 5.0}; // b finds c better than itself: clamped to 1
    scorer.rows["c"] = {0.0, 2.0, 2.0};
    auto batch = three_memories();
    const auto matrix = starling::plugins::relevance_similarities(scorer, batch.batch());
    REQUIRE(matrix.size() == 9);
    CHECK(scorer.calls == 3);
    for (std::size_t index = 0; index < 3; ++index) {
        CHECK(at(matrix, 3, index, index) == 1.0);
    }
    // a→b 3/4, b→a 1/2: the smaller.
    CHECK(at(matrix, 3, 0, 1) == Approx(0.5));
    CHECK(at(matrix, 3, 1, 0) == Approx(0.5));
    // b→c clamped to 1, c→b 2/2.
    CHECK(at(matrix, 3, 1, 2) == Approx(1.0));
    CHECK(at(matrix, 3, 2, 1) == Approx(1.0));
    // a→c 0: whatever c says of a.
    CHECK(at(matrix, 3, 0, 2) == 0.0);
    CHECK(at(matrix, 3, 2, 0) == 0.0);
}

TEST_CASE("similarity: a memory its own query does not find is similar to nothing", "[plugins][host][similarity]") {
    TableScorer scorer;
    scorer.rows["a"] = {0.0, 3.0, 3.0};
    scorer.rows["b"] = {3.0, std::numeric_limits<double>::quiet_NaN(), 3.0};
    scorer.rows["c"] = {1.0, 1.0, 1.0};
    auto batch = three_memories();
    const auto matrix = starling::plugins::relevance_similarities(scorer, batch.batch());
    CHECK(at(matrix, 3, 0, 2) == 0.0);
    CHECK(at(matrix, 3, 1, 2) == 0.0);
    CHECK(at(matrix, 3, 0, 1) == 0.0);
    CHECK(at(matrix, 3, 0, 0) == 1.0);
}

TEST_CASE("similarity: a text is compared as a memory not yet stored", "[plugins][host][similarity]") {
    TableScorer scorer;
    scorer.rows["a"] = {2.0, 0.0, 0.0, 2.0};
    scorer.rows["b"] = {0.0, 2.0, 0.0, 1.0};
    scorer.rows["c"] = {0.0, 0.0, 2.0, 0.0};
    scorer.rows["new text"] = {4.0, 2.0, 4.0, 4.0};
    auto batch = three_memories();
    const auto similarities = starling::plugins::relevance_similarity_to_text(scorer, "new text", batch.batch());
    REQUIRE(similarities.size() == 3);
    CHECK(similarities[0] == Approx(1.0));
    CHECK(similarities[1] == Approx(0.5));
    CHECK(similarities[2] == 0.0); // the text finds c, c does not find the text
}

TEST_CASE("similarity: a relevance policy that answers the wrong number of scores fails the call",
          "[plugins][host][similarity]") {
    class ShortScorer final : public starling::core::RelevanceScorer {
    public:
        std::vector<double> score(std::string_view, const starling_memory_batch &) const override { return {1.0}; }
    };
    auto batch = three_memories();
    CHECK_THROWS_WITH(starling::plugins::relevance_similarities(ShortScorer{}, batch.batch()),
                      "the relevance policy returned 1 scores for 3 memories");
}

TEST_CASE("the similarity extension is offered only from a relevance policy", "[plugins][host][similarity]") {
    const HostContext without{quiet_logger(), "plugin isolation"};
    CHECK(similarity_extension(without.host()) == nullptr);
    TableScorer scorer;
    const HostContext with{quiet_logger(), "plugin isolation", std::nullopt, &scorer};
    const auto *table = similarity_extension(with.host());
    REQUIRE(table != nullptr);
    CHECK(table->struct_size == sizeof(starling_host_similarity_v1));
    CHECK(with.host()->get_extension(with.host()->context, "starling.host.similarity/2") == nullptr);
    CHECK(with.host()->get_extension(with.host()->context, STARLING_HOST_CACHE_EXTENSION_V1) == nullptr);
}

TEST_CASE("the similarity extension reports failures as statuses with the reason", "[plugins][host][similarity]") {
    TableScorer scorer; // no rows: every query throws
    const HostContext context{quiet_logger(), "plugin isolation", std::nullopt, &scorer};
    const auto *table = similarity_extension(context.host());
    REQUIRE(table != nullptr);
    auto batch = three_memories();
    std::vector<double> out(9, 0.0);
    starling::sdk::StringSink error;

    SECTION("the relevance policy fails") {
        CHECK(table->memories(context.host()->context, &batch.batch(), out.data(), error.sink()) ==
              STARLING_STATUS_INTERNAL_ERROR);
        CHECK(error.text() == "no scores for the query 'a'");
    }
    SECTION("no batch") {
        CHECK(table->memories(context.host()->context, nullptr, out.data(), error.sink()) ==
              STARLING_STATUS_INVALID_INPUT);
        CHECK_THAT(error.text(), Catch::Contains("without a batch"));
    }
    SECTION("no result buffer") {
        CHECK(table->text(context.host()->context, starling::sdk::as_bytes("x"), &batch.batch(), nullptr,
                          error.sink()) == STARLING_STATUS_INVALID_INPUT);
    }
    SECTION("a batch with a missing memory") {
        starling_memory_batch broken = batch.batch();
        std::vector<const starling_memory_view *> items(broken.items, broken.items + broken.count);
        items[1] = nullptr;
        broken.items = items.data();
        CHECK(table->memories(context.host()->context, &broken, out.data(), error.sink()) ==
              STARLING_STATUS_INVALID_INPUT);
        CHECK_THAT(error.text(), Catch::Contains("missing memory"));
    }
}

TEST_CASE("a relevance policy cannot ask for a similarity while it scores for one", "[plugins][host][similarity]") {
    class AskingScorer final : public starling::core::RelevanceScorer {
    public:
        const starling_host *host = nullptr;
        mutable std::string nested_error;
        mutable starling_status nested_status = STARLING_STATUS_OK;
        std::vector<double> score(std::string_view, const starling_memory_batch &batch) const override {
            const auto *table = similarity_extension(host);
            std::vector<double> out(batch.count * batch.count, 0.0);
            starling::sdk::StringSink error;
            nested_status = table->memories(host->context, &batch, out.data(), error.sink());
            nested_error = error.text();
            return std::vector<double>(batch.count, 1.0);
        }
    };
    AskingScorer scorer;
    const HostContext context{quiet_logger(), "plugin recursive", std::nullopt, &scorer};
    scorer.host = context.host();
    auto batch = three_memories();
    std::vector<double> out(9, 0.0);
    starling::sdk::StringSink error;
    CHECK(similarity_extension(context.host())->memories(context.host()->context, &batch.batch(), out.data(),
                                                        error.sink()) == STARLING_STATUS_OK);
    CHECK(scorer.nested_status == STARLING_STATUS_UNSUPPORTED);
    CHECK_THAT(scorer.nested_error, Catch::Contains("from within a similarity"));
    // The guard is lifted once the outer call is done.
    CHECK(similarity_extension(context.host())->memories(context.host()->context, &batch.batch(), out.data(),
                                                        error.sink()) == STARLING_STATUS_OK);
}

// ---- Through the plugin host: a decay policy asks, as the isolation policy does. ----

namespace {

/// Writes, for each memory, its row of similarities to the others (or "none" when the host offers
/// no similarity) into a field, so that a test can read what the plugin was told.
class SimilarityProbe final : public starling::sdk::DecayPolicy {
public:
    SimilarityProbe(const starling::sdk::HostServices &host, const starling::sdk::Settings &) : host_(host) {}

    std::vector<starling::sdk::LifecycleAction> plan(const starling::sdk::MemoryBatch &memories) override {
        std::vector<starling::sdk::LifecycleAction> actions;
        const auto matrix = host_.similarities(memories);
        for (std::size_t row = 0; row < memories.size(); ++row) {
            starling::sdk::LifecycleAction action;
            action.kind = starling::sdk::LifecycleAction::Kind::set_field;
            action.key = std::string{memories[row].key()};
            action.field = "similarities";
            if (!matrix) {
                action.value = "none";
            } else {
                std::vector<std::string> values;
                for (std::size_t column = 0; column < memories.size(); ++column) {
                    values.push_back(std::to_string((*matrix)[row * memories.size() + column]).substr(0, 4));
                }
                action.value = values;
            }
            actions.push_back(std::move(action));
        }
        return actions;
    }

private:
    starling::sdk::HostServices host_;
};

/// What the application does: a stand-in for the relevance policy, which exists only once the
/// registry that creates it does.
class ForwardingScorer final : public starling::core::RelevanceScorer {
public:
    const starling::core::RelevanceScorer *to = nullptr;
    std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override {
        return to->score(query, batch);
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(similarity_probe, SimilarityProbe, "similarity-probe", "1.0.0",
                        "test: reports the host's similarities", "{}")

namespace {

const starling::plugins::StaticPlugin probe_plugin[] = {{"similarity_probe", &starling_plugin_entry_similarity_probe}};

} // namespace

TEST_CASE("a decay policy asks the active relevance policy how similar memories are, through the plugin host",
          "[plugins][host][similarity]") {
    ForwardingScorer forwarding;
    starling::plugins::PluginHostOptions options;
    options.similarity_from = &forwarding;
    starling::plugins::PluginRegistry registry{quiet_logger(), options};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    registry.add_static_plugins(probe_plugin);
    const auto bm25 = registry.create_relevance_policy("bm25", registry.find("bm25")->default_settings_json);
    forwarding.to = &bm25;
    const auto probe = registry.create_decay_policy("similarity-probe", "{}");

    TestBatch batch;
    batch.add({"memory/user/short/a.md", "kafka consumer lag alert", "", "the kafka consumer lag alert fires at 5000"});
    batch.add({"memory/user/short/b.md", "kafka consumer lag alert", "", "the kafka consumer lag alert fires at 5000"});
    batch.add({"memory/user/short/c.md", "postgres vacuum schedule", "", "autovacuum runs nightly on orders"});
    const auto plan = probe.plan(batch.batch());
    REQUIRE(plan.size() == 3);
    using Row = std::vector<std::string>;
    CHECK(std::get<Row>(plan[0].value) == Row{"1.00", "1.00", "0.00"});
    CHECK(std::get<Row>(plan[1].value) == Row{"1.00", "1.00", "0.00"});
    CHECK(std::get<Row>(plan[2].value) == Row{"0.00", "0.00", "1.00"});
}

TEST_CASE("without a relevance policy the host offers no similarity, and the plugin is told so",
          "[plugins][host][similarity]") {
    starling::plugins::PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(probe_plugin);
    const auto probe = registry.create_decay_policy("similarity-probe", "{}");
    auto batch = three_memories();
    const auto plan = probe.plan(batch.batch());
    REQUIRE(plan.size() == 3);
    CHECK(std::get<std::string>(plan[0].value) == "none");
}

TEST_CASE("a relevance policy that fails fails the decay plan that asked, with its reason",
          "[plugins][host][similarity]") {
    TableScorer failing; // no rows
    starling::plugins::PluginHostOptions options;
    options.similarity_from = &failing;
    starling::plugins::PluginRegistry registry{quiet_logger(), options};
    registry.add_static_plugins(probe_plugin);
    const auto probe = registry.create_decay_policy("similarity-probe", "{}");
    auto batch = three_memories();
    CHECK_THROWS_WITH(probe.plan(batch.batch()), Catch::Contains("the host's similarity failed: no scores for the "
                                                                 "query 'a'"));
}
