// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/memory_view_batch.hpp>

#include <starling/sdk/memory_view.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

using starling::core::FixedClock;
using starling::core::IndexEntry;
using starling::core::MemoryStore;
using starling::core::MemoryViewBatch;
using starling::core::Scope;
using starling::core::Tier;
using starling::test::at;
using starling::test::make_memory;

TEST_CASE("a view batch exposes index entries through the plugin ABI", "[store][view-batch]") {
    const starling::test::TempDir root("batch");
    FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    auto memory = make_memory("Dark mode everywhere", "feedback");
    memory.tags = {"ui", "editor"};
    memory.created = at("2026-01-01T00:00:00Z");
    const std::string first = store.create(Scope::user(), Tier::long_term, memory);
    const std::string project = store.resolve_project("/p");
    const std::string second =
        store.create(Scope::project(project), Tier::short_term, make_memory("Ports", "project"));
    store.bump_access(second, "s1");
    static_cast<void>(store.update(second, [](starling::core::Memory &stored) { stored.review = true; }));

    MemoryViewBatch moved_from(store.list(), clock.now());
    const MemoryViewBatch batch(std::move(moved_from));
    REQUIRE(batch.size() == 2);
    const starling_memory_batch &raw = batch.batch();
    CHECK(raw.struct_size == sizeof(starling_memory_batch));
    CHECK(raw.flags == 0);
    CHECK(raw.now == at("2026-11-22T10:00:00Z").time_since_epoch().count());
    REQUIRE(raw.count == 2);

    const starling::sdk::MemoryBatch view(raw);
    const auto project_view = view[0];
    CHECK(project_view.key() == second);
    CHECK(project_view.scope() == "project");
    CHECK(project_view.tier() == "short");
    CHECK(project_view.type() == "project");
    CHECK(project_view.access_count() == 2);
    CHECK(project_view.session_count() == 1);
    CHECK(project_view.under_review());
    CHECK(project_view.tags().empty());
    CHECK(project_view.body().empty());
    CHECK(batch.memory(0).key == second);

    const auto user_view = view[1];
    CHECK(user_view.key() == first);
    CHECK(user_view.scope() == "user");
    CHECK(user_view.tier() == "long");
    CHECK(user_view.summary() == "Dark mode everywhere");
    CHECK(user_view.tags() == std::vector<std::string_view>{"ui", "editor"});
    CHECK(user_view.created() == at("2026-01-01T00:00:00Z").time_since_epoch().count());
    CHECK(user_view.last_accessed() == at("2026-01-01T00:00:00Z").time_since_epoch().count());
    CHECK_FALSE(user_view.under_review());
    CHECK(raw.items[1]->struct_size == sizeof(starling_memory_view));
    CHECK_THROWS_AS(batch.memory(2), std::out_of_range);
}

TEST_CASE("a view batch can carry bodies", "[store][view-batch]") {
    const starling::test::TempDir root("batch");
    FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    auto memory = make_memory("With body");
    memory.body = "\nThe body text.\n";
    static_cast<void>(store.create(Scope::user(), Tier::short_term, memory));

    const MemoryViewBatch batch = MemoryViewBatch::with_bodies(store, store.list());
    CHECK(batch.batch().flags == STARLING_BATCH_HAS_BODIES);
    const starling::sdk::MemoryBatch view(batch.batch());
    CHECK(view.has_bodies());
    CHECK(view[0].body() == "\nThe body text.\n");

    std::vector<IndexEntry> entries = store.list();
    CHECK_THROWS_AS(MemoryViewBatch(entries, std::vector<std::string>{}, clock.now()), std::invalid_argument);
    const MemoryViewBatch empty(std::vector<IndexEntry>{}, std::vector<std::string>{}, clock.now());
    CHECK(empty.batch().count == 0);
    CHECK(empty.batch().flags == STARLING_BATCH_HAS_BODIES);
}

TEST_CASE("a view batch over a listing read in place points into the index, not into copies", "[store][view-batch]") {
    const starling::test::TempDir root("batch");
    FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    auto memory = make_memory("Tagged twice", "reference");
    memory.tags = {"ci", "deploy"};
    const std::string key = store.create(Scope::user(), Tier::long_term, memory);
    const std::string project = store.resolve_project("/p");
    static_cast<void>(store.create(Scope::project(project), Tier::short_term, make_memory("Project one")));

    starling::core::IndexedMemories listing = store.list_indexed();
    REQUIRE(listing.size() == 2);
    const char *summary_in_index = listing[1].summary.data();
    const MemoryViewBatch batch(std::move(listing), clock.now());
    const starling::sdk::MemoryBatch view(batch.batch());
    REQUIRE(view.size() == 2);
    CHECK(view[1].key() == key);
    CHECK(view[1].scope() == "user");
    CHECK(view[1].tier() == "long");
    CHECK(view[1].type() == "reference");
    CHECK(view[1].tags() == std::vector<std::string_view>{"ci", "deploy"});
    CHECK(view[1].summary().data() == summary_in_index);
    CHECK(view[0].scope() == "project");
    CHECK_FALSE(view.has_bodies());
    CHECK(batch.memory(1).key == key);
}

TEST_CASE("a view batch can carry the index's body excerpts as bodies, read in place", "[store][view-batch][excerpt]") {
    const starling::test::TempDir root("batch");
    FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    auto memory = make_memory("Deploys");
    memory.body = "Deploys\n\nNever kubectl apply\nby hand.\n";
    static_cast<void>(store.create(Scope::user(), Tier::short_term, memory));
    auto bare = make_memory("Nothing more");
    bare.body = "Nothing more\n";
    static_cast<void>(store.create(Scope::user(), Tier::short_term, bare));

    starling::core::IndexedMemories listing = store.list_indexed();
    REQUIRE(listing.size() == 2);
    const char *excerpt_in_index = listing[0].body_excerpt.data();
    const MemoryViewBatch batch = MemoryViewBatch::with_body_excerpts(std::move(listing), clock.now());
    CHECK(batch.batch().flags == STARLING_BATCH_HAS_BODIES);
    const starling::sdk::MemoryBatch view(batch.batch());
    REQUIRE(view.size() == 2);
    CHECK(view.has_bodies());
    CHECK(view[0].summary() == "Deploys");
    CHECK(view[0].body() == "Never kubectl apply by hand.");
    CHECK(view[0].body().data() == excerpt_in_index);
    CHECK(view[1].body().empty());
}

TEST_CASE("plugins see a memory's superseded_by in its fields, as before it was a typed field", "[store][supersession]") {
    using starling::core::Memory;
    Memory memory;
    memory.type = "project";
    memory.summary = "staging database is db-staging-1";
    CHECK(starling::core::fields_json(memory).empty());
    starling::core::supersede(memory, "k2new00");
    CHECK(memory.superseded_by == "k2new00");
    CHECK(starling::core::fields_json(memory) == R"({"superseded_by":"k2new00"})");
    memory.set_extra_field("salience", "0.7");
    // The other fields first, in file order, then the typed ones plugins see there.
    CHECK(starling::core::fields_json(memory) == R"({"salience":"0.7","superseded_by":"k2new00"})");
    CHECK(starling::core::lift_supersession(memory) == "k2new00");
    CHECK(memory.superseded_by.empty());
}
