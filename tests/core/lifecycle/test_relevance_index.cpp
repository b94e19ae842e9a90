// SPDX-License-Identifier: Apache-2.0
//
// Keeping a relevance policy's indexes in step with the store, and injection ranking from them:
// what the store's index version promises, when indexes are rebuilt, and that a prompt's injection
// is the same whether it was ranked from an index or scored from a listing.
#include <starling/core/lifecycle/injection.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/core/store/memory_view_batch.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include "support/fake_policies.hpp"
#include "support/store_fixture.hpp"
#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

using namespace starling;

using starling::test::quiet_logger;

namespace {

core::Memory memory_about(std::string summary, std::string body = "Details.") {
    core::Memory memory;
    memory.type = "feedback";
    memory.summary = std::move(summary);
    memory.body = std::move(body);
    return memory;
}

/// A scorer that keeps an "index" of what it was given, to count builds and check their input.
class RecordingIndexScorer final : public core::RelevanceScorer {
public:
    std::vector<double> score(std::string_view, const starling_memory_batch &batch) const override {
        return std::vector<double>(batch.count, 0.0);
    }
    bool keeps_index() const override { return true; }
    bool index_current(const core::MemoryCollection &collection) const override {
        const auto found = built.find(collection.id);
        return found != built.end() && found->second.first == collection.version;
    }
    void build_index(const core::MemoryCollection &collection, const starling_memory_batch &batch) const override {
        std::vector<std::string> keys;
        for (std::size_t index = 0; index < batch.count; ++index) {
            keys.emplace_back(sdk::as_string_view(batch.items[index]->key));
            bodies[std::string{sdk::as_string_view(batch.items[index]->key)}] =
                sdk::as_string_view(batch.items[index]->body);
        }
        built[collection.id] = {collection.version, keys};
        with_bodies = with_bodies && (batch.flags & STARLING_BATCH_HAS_BODIES) != 0;
        ++builds;
    }
    mutable std::map<std::string, std::pair<std::string, std::vector<std::string>>> built;
    /// The body each memory was last built with, and whether every batch said it carried bodies.
    mutable std::map<std::string, std::string> bodies;
    mutable bool with_bodies = true;
    mutable int builds = 0;
};

/// The real bm25, with its cache (and so its indexes) in the store's cache directory.
class Bm25ForStore {
public:
    explicit Bm25ForStore(const core::MemoryStore &store)
        : registry_(quiet_logger(), {core::plugin_cache_root(store.root()), std::nullopt}) {
        registry_.add_static_plugins(plugins::linked_static_plugins());
        policy_.emplace(registry_.create_relevance_policy("bm25", registry_.find("bm25")->default_settings_json));
    }
    [[nodiscard]] const plugins::RelevancePolicyInstance &policy() const { return *policy_; }

private:
    plugins::PluginRegistry registry_;
    std::optional<plugins::RelevancePolicyInstance> policy_;
};

/// bm25 seen through an interface that keeps no index: injection always scores a listing.
class ScoringOnly final : public core::RelevanceScorer {
public:
    explicit ScoringOnly(const core::RelevanceScorer &scorer) : scorer_(&scorer) {}
    std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override {
        return scorer_->score(query, batch);
    }
    std::vector<double> score_first_pass(std::string_view query, const starling_memory_batch &batch) const override {
        return scorer_->score_first_pass(query, batch);
    }

private:
    const core::RelevanceScorer *scorer_;
};

/// A scorer that ranks from its policy's indexes and counts the listings it is asked to score.
class CountingScorer final : public core::RelevanceScorer {
public:
    explicit CountingScorer(const core::RelevanceScorer &scorer) : scorer_(&scorer) {}
    std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override {
        ++listings_scored;
        return scorer_->score(query, batch);
    }
    bool keeps_index() const override { return scorer_->keeps_index(); }
    bool index_current(const core::MemoryCollection &collection) const override {
        return scorer_->index_current(collection);
    }
    std::optional<std::vector<core::RankedKey>> rank(std::string_view query,
                                                     std::span<const core::MemoryCollection> collections,
                                                     std::chrono::sys_seconds now, std::size_t limit) const override {
        return scorer_->rank(query, collections, now, limit);
    }
    std::vector<double> score_first_pass(std::string_view query, const starling_memory_batch &batch) const override {
        ++listings_scored;
        return scorer_->score_first_pass(query, batch);
    }
    std::optional<std::vector<core::RankedKey>> rank_first_pass(std::string_view query,
                                                                std::span<const core::MemoryCollection> collections,
                                                                std::chrono::sys_seconds now,
                                                                std::size_t limit) const override {
        return scorer_->rank_first_pass(query, collections, now, limit);
    }

    mutable int listings_scored = 0;

private:
    const core::RelevanceScorer *scorer_;
};

void fill_store(core::MemoryStore &store, const std::string &project) {
    const std::vector<std::string> topics{"deploy the billing queue with terraform", "kafka consumer lag on mondays",
                                          "use pnpm never npm", "commit messages in english",
                                          "postgres migrations run in CI", "dark mode in every editor",
                                          "retry flaky tests once", "rotate vault tokens weekly"};
    for (std::size_t index = 0; index < 40; ++index) {
        const auto &topic = topics[index % topics.size()];
        const auto scope = index % 3 == 0 ? core::Scope::project(project) : core::Scope::user();
        const auto tier = index % 4 == 0 ? core::Tier::long_term : core::Tier::short_term;
        store.create(scope, tier, memory_about(topic + " " + std::to_string(index), "Because " + topic + "."));
    }
}

/// Fills the store for /work/app (fill_store) and returns its two scopes: the user's, then the project's.
std::vector<core::Scope> filled_scopes(core::MemoryStore &store) {
    const auto project = store.resolve_project("/work/app");
    fill_store(store, project);
    return {core::Scope::user(), core::Scope::project(project)};
}

} // namespace

TEST_CASE("the store's index version changes with every change to a memory, and only then",
          "[lifecycle][relevance-index]") {
    test::StoreFixture fixture{"index-version"};
    auto &store = fixture.store;
    CHECK_FALSE(store.index_version());
    const auto key = store.create(core::Scope::user(), core::Tier::short_term, memory_about("use pnpm"));
    CHECK_FALSE(store.index_version()); // a journal without a snapshot is no index yet
    static_cast<void>(store.list());   // which the first listing builds
    const auto created = store.index_version();
    REQUIRE(created);

    static_cast<void>(store.read(key));
    static_cast<void>(store.list());
    store.note_access(key, "session-1"); // a hook's noted use changes no memory yet
    CHECK(store.index_version() == created);

    store.apply_noted_accesses();
    const auto used = store.index_version();
    CHECK(used != created);
    store.update(key, [](core::Memory &memory) { memory.body = "Edited."; });
    const auto edited = store.index_version();
    CHECK(edited != used);
    store.archive(key, "test");
    const auto archived = store.index_version();
    CHECK(archived != edited);
    store.rebuild_index();
    CHECK(store.index_version() != archived);
}

TEST_CASE("indexes are built for the scopes asked, once per version, from exactly their listing",
          "[lifecycle][relevance-index]") {
    test::StoreFixture fixture{"index-refresh"};
    auto &store = fixture.store;
    const auto scopes = filled_scopes(store);
    const std::string &project = scopes[1].project_id();
    RecordingIndexScorer scorer;
    // The recording lives in this process's memory, so every build is made here.
    core::IndexBuilds here;
    here.at_once = 1;

    CHECK(core::refresh_relevance_indexes(store, scorer, scopes, here) == 2);
    for (const auto &scope : scopes) {
        core::ListFilter filter;
        filter.scope = scope;
        std::vector<std::string> listed;
        for (const auto &memory : store.list_indexed(filter)) {
            listed.emplace_back(memory.key);
        }
        const auto &built = scorer.built.at(core::collection_id(scope));
        CHECK(built.first == *store.index_version());
        CHECK(built.second == listed);
    }
    // Bodies come from the machine index's excerpts, not from the files.
    CHECK(scorer.with_bodies);
    for (const auto &memory : store.list_indexed()) {
        CHECK(scorer.bodies.at(std::string{memory.key}) == memory.body_excerpt);
        CHECK(memory.body_excerpt.starts_with("Because "));
    }
    CHECK(core::refresh_relevance_indexes(store, scorer, scopes, here) == 0);

    store.create(core::Scope::user(), core::Tier::short_term, memory_about("a new one"));
    CHECK(core::refresh_relevance_indexes(store, scorer, scopes, here) == 2); // one version for the whole store
    CHECK(scorer.builds == 4);
    CHECK(core::collection_id(core::Scope::project(project)) == "projects/" + project);
    CHECK(core::collection_id(core::Scope::user()) == "user");

    const test::WordOverlapScorer without_index;
    CHECK(core::refresh_relevance_indexes(store, without_index, scopes) == 0);
}

TEST_CASE("indexes of several collections are built at once, all but one in child processes",
          "[lifecycle][relevance-index]") {
    test::StoreFixture fixture{"index-children"};
    auto &store = fixture.store;
    const auto scopes = filled_scopes(store);
    const Bm25ForStore bm25{store};
    core::IndexBuilds together;
    together.at_once = 2;

    CHECK(core::refresh_relevance_indexes(store, bm25.policy(), scopes, together) == 2);
    for (const auto &scope : scopes) {
        CHECK(bm25.policy().index_current({core::collection_id(scope), *store.index_version()}));
    }
    CHECK(core::refresh_relevance_indexes(store, bm25.policy(), scopes, together) == 0);
}

/// A scorer whose build fails for the user's collection, or hangs there; it records the others.
class FailingIndexScorer final : public core::RelevanceScorer {
public:
    explicit FailingIndexScorer(bool hang) : hang_(hang) {}
    std::vector<double> score(std::string_view, const starling_memory_batch &batch) const override {
        return std::vector<double>(batch.count, 0.0);
    }
    bool keeps_index() const override { return true; }
    bool index_current(const core::MemoryCollection &) const override { return false; }
    void build_index(const core::MemoryCollection &collection, const starling_memory_batch &) const override {
        if (collection.id == "user") {
            while (hang_) {
                ::pause();
            }
            throw std::runtime_error("no space left on device");
        }
        built.push_back(collection.id);
    }
    mutable std::vector<std::string> built;

private:
    bool hang_;
};

TEST_CASE("a build that fails or hangs in a child process is reported by collection, after the others",
          "[lifecycle][relevance-index]") {
    test::StoreFixture fixture{"index-child-failure"};
    auto &store = fixture.store;
    const auto scopes = filled_scopes(store);
    const std::string &project = scopes[1].project_id();
    core::IndexBuilds together;
    together.at_once = 2;
    together.child_budget = std::chrono::milliseconds{1000};

    SECTION("fails") {
        const FailingIndexScorer scorer{false};
        CHECK_THROWS_WITH(core::refresh_relevance_indexes(store, scorer, scopes, together),
                          "the relevance index of 'user' was not built: no space left on device");
        CHECK(scorer.built == std::vector<std::string>{"projects/" + project});
    }
    SECTION("hangs past its budget") {
        const FailingIndexScorer scorer{true};
        CHECK_THROWS_WITH(core::refresh_relevance_indexes(store, scorer, scopes, together),
                          "the relevance index of 'user' was not built: its build overran the budget of 1000 ms "
                          "(plugins.call_budget_ms) and was ended");
        CHECK(scorer.built == std::vector<std::string>{"projects/" + project});
    }
    SECTION("fails where it runs in this process, one at a time") {
        together.at_once = 1;
        const FailingIndexScorer scorer{false};
        CHECK_THROWS_WITH(core::refresh_relevance_indexes(store, scorer, scopes, together),
                          "the relevance index of 'user' was not built: no space left on device");
        CHECK(scorer.built == std::vector<std::string>{"projects/" + project});
    }
}

TEST_CASE("a prompt's injection is the same ranked from bm25's index as scored from a listing",
          "[lifecycle][relevance-index]") {
    test::StoreFixture fixture{"index-injection"};
    auto &store = fixture.store;
    const auto scopes = filled_scopes(store);
    const std::string &project = scopes[1].project_id();
    const Bm25ForStore bm25{store};
    const ScoringOnly scoring{bm25.policy()};
    REQUIRE(bm25.policy().keeps_index());

    core::InjectionSettings settings;
    settings.budget_tokens = 300;
    settings.min_relevance = 0.1; // on bm25's scale, normalised per prompt
    const std::vector<std::string> prompts{"how do we deploy billing with terraform?", "kafka lag", "pnpm or npm",
                                           "nothing about anything", "retry the flaky deploy tests"};
    const auto check_alike = [&](const std::vector<std::string> &already, bool expect_stale) {
        for (const auto &prompt : prompts) {
            INFO("prompt '" << prompt << "'");
            const auto scored = core::prompt_injection(store, scoring, prompt, project, already, settings);
            const auto ranked = core::prompt_injection(store, bm25.policy(), prompt, project, already, settings);
            CHECK(ranked.index_stale == expect_stale);
            CHECK_FALSE(scored.index_stale);
            CHECK(ranked.context == scored.context);
            REQUIRE(ranked.memories.size() == scored.memories.size());
            for (std::size_t index = 0; index < ranked.memories.size(); ++index) {
                CHECK(ranked.memories[index].key == scored.memories[index].key);
                CHECK(ranked.memories[index].score == scored.memories[index].score);
            }
        }
    };
    check_alike({}, true);
    REQUIRE(core::refresh_relevance_indexes(store, bm25.policy(), scopes) == 2);
    check_alike({}, false);

    // Memories already given are skipped; the ranking goes deeper to replace them.
    const auto first = core::prompt_injection(store, scoring, "deploy terraform billing queue", project, {}, settings);
    std::vector<std::string> already;
    for (const auto &memory : first.memories) {
        already.push_back(memory.key);
    }
    REQUIRE_FALSE(already.empty());
    check_alike(already, false);

    // A change makes the index stale until it is refreshed; the injection is right either way.
    store.create(core::Scope::project(project), core::Tier::short_term,
                 memory_about("kafka lag alerts page the billing team"));
    check_alike({}, true);
    REQUIRE(core::refresh_relevance_indexes(store, bm25.policy(), scopes) == 2);
    check_alike({}, false);

    // Memories below the threshold that follow a best one above it, alike on both paths: the
    // threshold is put between the best memory's score and the next one's.
    settings.min_relevance = 0.0;
    settings.budget_tokens = 3000;
    settings.max_memories = 12;
    const auto all = core::prompt_injection(store, scoring, "retry the flaky deploy tests", project, {}, settings);
    REQUIRE(all.memories.size() > 1);
    REQUIRE(all.memories[0].score > all.memories[1].score);
    settings.min_relevance = (all.memories[0].score + all.memories[1].score) / 2.0;
    settings.relative_relevance = 0.25;
    const auto followed = core::prompt_injection(store, scoring, "retry the flaky deploy tests", project, {}, settings);
    REQUIRE(followed.memories.size() > 1);
    CHECK(followed.memories.front().score >= settings.min_relevance);
    CHECK(followed.memories.back().score < settings.min_relevance);
    check_alike({}, false);
}

TEST_CASE("a general question is held by bm25's first pass alike ranked from the index and scored from a listing",
          "[lifecycle][relevance-index][prompt-kind]") {
    test::StoreFixture fixture{"index-question"};
    auto &store = fixture.store;
    const auto scopes = filled_scopes(store);
    const std::string &project = scopes[1].project_id();
    const Bm25ForStore bm25{store};
    const ScoringOnly scoring{bm25.policy()};
    const CountingScorer counting{bm25.policy()};
    REQUIRE(core::refresh_relevance_indexes(store, bm25.policy(), scopes) == 2);
    const std::string question = "how does kafka guarantee ordering within a partition?";

    core::InjectionSettings settings;
    settings.min_relevance = 0.01;
    settings.question_relevance = 100.0; // above any score: held, naming its best first-pass memory
    const auto held = core::prompt_injection(store, counting, question, project, {}, settings);
    CHECK(counting.listings_scored == 0);
    CHECK(held.held_as_question);
    CHECK(held.memories.empty());
    REQUIRE(held.best_below_threshold);
    const auto held_scored = core::prompt_injection(store, scoring, question, project, {}, settings);
    CHECK(held_scored.held_as_question);
    REQUIRE(held_scored.best_below_threshold);
    CHECK(held_scored.best_below_threshold->key == held.best_below_threshold->key);
    CHECK(held_scored.best_below_threshold->score == held.best_below_threshold->score);

    settings.question_relevance = 0.0;
    const auto unheld = core::prompt_injection(store, bm25.policy(), question, project, {}, settings);
    REQUIRE_FALSE(unheld.memories.empty());
    CHECK(unheld.memories.front().score > held.best_below_threshold->score); // feedback lifted it

    // Just below the first pass's best: answered as any prompt, with the full pass's scores.
    settings.question_relevance = held.best_below_threshold->score * 0.99;
    const auto answered = core::prompt_injection(store, counting, question, project, {}, settings);
    CHECK(counting.listings_scored == 0);
    CHECK_FALSE(answered.held_as_question);
    CHECK(answered.context == unheld.context);
    CHECK(core::prompt_injection(store, scoring, question, project, {}, settings).context == unheld.context);
}

TEST_CASE("a prompt in the words of a memory's body finds it, ranked from the index or scored",
          "[lifecycle][relevance-index][excerpt]") {
    test::StoreFixture fixture{"index-bodies"};
    auto &store = fixture.store;
    const auto scopes = filled_scopes(store);
    const std::string &project = scopes[1].project_id();
    const std::string key = store.create(
        core::Scope::project(project), core::Tier::short_term,
        memory_about("Card data rules", "Card data rules\nThe PAN is never written to postgres or any log."));
    const Bm25ForStore bm25{store};
    const ScoringOnly scoring{bm25.policy()};
    REQUIRE(core::refresh_relevance_indexes(store, bm25.policy(), scopes) == 2);

    core::InjectionSettings settings;
    settings.min_relevance = 0.2;
    const std::string prompt = "may I store the PAN in a log line?";
    const auto ranked = core::prompt_injection(store, bm25.policy(), prompt, project, {}, settings);
    const auto scored = core::prompt_injection(store, scoring, prompt, project, {}, settings);
    CHECK_FALSE(ranked.index_stale);
    REQUIRE_FALSE(ranked.memories.empty());
    CHECK(ranked.memories.front().key == key);
    REQUIRE(scored.memories.size() == ranked.memories.size());
    CHECK(scored.memories.front().key == key);
    CHECK(scored.memories.front().score == ranked.memories.front().score);
}

TEST_CASE("a prompt right after uses are folded ranks from the index of the same texts, and asks for the new one",
          "[lifecycle][relevance-index][same-texts]") {
    test::StoreFixture fixture{"index-same-texts"};
    auto &store = fixture.store;
    const auto scopes = filled_scopes(store);
    const std::string &project = scopes[1].project_id();
    const Bm25ForStore bm25{store};
    REQUIRE(core::refresh_relevance_indexes(store, bm25.policy(), scopes) == 2);
    core::InjectionSettings settings;
    settings.min_relevance = 0.1;
    const std::string prompt = "how do we deploy billing with terraform?";
    const auto before = core::prompt_injection(store, bm25.policy(), prompt, project, {}, settings);
    REQUIRE_FALSE(before.index_stale);
    REQUIRE_FALSE(before.memories.empty());

    // What session start does first: the uses noted since the last session folded into the memories.
    store.note_access(before.memories.front().key, "s-1");
    REQUIRE(store.apply_noted_accesses() == 1);
    const CountingScorer counting{bm25.policy()};
    const auto folded = core::prompt_injection(store, counting, prompt, project, {}, settings);
    CHECK(counting.listings_scored == 0);
    CHECK(folded.index_stale);
    CHECK(folded.context == before.context);
    REQUIRE(folded.memories.size() == before.memories.size());
    for (std::size_t index = 0; index < folded.memories.size(); ++index) {
        CHECK(folded.memories[index].key == before.memories[index].key);
        CHECK(folded.memories[index].score == before.memories[index].score);
    }

    SECTION("while the indexes are rebuilt, one already of the new version, the other not yet") {
        REQUIRE(core::refresh_relevance_indexes(store, bm25.policy(), std::span{scopes}.first(1)) == 1);
        const auto halfway = core::prompt_injection(store, counting, prompt, project, {}, settings);
        CHECK(counting.listings_scored == 0);
        CHECK(halfway.index_stale);
        CHECK_FALSE(halfway.memories.empty());
    }
    SECTION("once rebuilt, the current index answers") {
        REQUIRE(core::refresh_relevance_indexes(store, bm25.policy(), scopes) == 2);
        const auto rebuilt = core::prompt_injection(store, counting, prompt, project, {}, settings);
        CHECK(counting.listings_scored == 0);
        CHECK_FALSE(rebuilt.index_stale);
        CHECK_FALSE(rebuilt.memories.empty());
    }
    SECTION("a memory written since is not in that index: the listing is scored") {
        store.create(core::Scope::project(project), core::Tier::short_term,
                     memory_about("terraform deploys of billing need a second reviewer"));
        const auto written = core::prompt_injection(store, counting, prompt, project, {}, settings);
        CHECK(counting.listings_scored == 1);
        CHECK(written.index_stale);
    }
}
