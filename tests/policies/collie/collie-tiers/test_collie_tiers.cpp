// SPDX-License-Identifier: Apache-2.0
//
// collie-tiers through the plugin host, as Starling runs it: every rule on both sides of its boundary,
// the merges, the settings, and the order the host applies a plan in.
#include <starling/plugins/plugin_registry.hpp>

#include "support/decay_batch.hpp"
#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

using starling::plugins::LoadErrorKind;
using starling::plugins::PluginLoadError;
using starling::plugins::PluginRegistry;
using starling::sdk::LifecycleAction;
using starling::test::DecayBatch;
using Kind = LifecycleAction::Kind;
using Lines = std::vector<std::string>;

using starling::test::quiet_logger;

namespace {

constexpr std::int64_t day = starling::test::seconds_per_day;
constexpr std::int64_t now = 1'800'000'000;

class TiersPolicy {
public:
    explicit TiersPolicy(const nlohmann::json &settings) : registry_(quiet_logger()) {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        policy_.emplace(registry_.create_decay_policy("collie-tiers", settings.dump()));
    }
    TiersPolicy() : TiersPolicy(collie_rules()) {}

    std::vector<LifecycleAction> plan(DecayBatch &batch) const { return policy_->plan(batch.batch()); }

    static nlohmann::json defaults() {
        PluginRegistry registry{quiet_logger()};
        registry.add_static_plugins(starling::plugins::linked_static_plugins());
        return nlohmann::json::parse(registry.find("collie-tiers")->default_settings_json);
    }

    /// collie's rules, which most tests here pin down: the declared defaults, no type kept.
    static nlohmann::json collie_rules() {
        nlohmann::json settings = defaults();
        settings["keep"]["types"] = nlohmann::json::array();
        return settings;
    }

private:
    PluginRegistry registry_;
    std::optional<starling::plugins::DecayPolicyInstance> policy_;
};

nlohmann::json defaults_with(const std::string &pointer, const nlohmann::json &value) {
    nlohmann::json settings = TiersPolicy::collie_rules();
    settings[nlohmann::json::json_pointer{pointer}] = value;
    return settings;
}

std::string line_of(const LifecycleAction &action) {
    std::string line = std::string{starling::sdk::to_string(action.kind)} + " " + action.key;
    return action.kind == Kind::merge ? line + " -> " + action.into : line;
}

Lines lines_of(const std::vector<LifecycleAction> &plan) {
    Lines lines;
    for (const auto &action : plan) {
        lines.push_back(line_of(action));
    }
    return lines;
}

Lines plan_lines(DecayBatch &batch, const nlohmann::json &settings = TiersPolicy::collie_rules()) {
    return lines_of(TiersPolicy{settings}.plan(batch));
}

std::string user_key(const std::string &tier, const std::string &name) {
    return "memory/user/" + tier + "/" + name + ".md";
}

/// A memory last read `idle` seconds ago, with a summary no other memory of a test shares.
DecayBatch::Memory memory(const std::string &tier, const std::string &name, std::int64_t idle) {
    return {.key = user_key(tier, name),
            .summary = "about " + name,
            .created = now - idle - 30 * day,
            .last_accessed = now - idle};
}

DecayBatch::Memory under_review(DecayBatch::Memory memory) {
    memory.under_review = true;
    return memory;
}

DecayBatch::Memory read(DecayBatch::Memory memory, std::uint32_t reads, std::uint32_t sessions) {
    memory.access_count = reads;
    memory.session_count = sessions;
    return memory;
}

/// A long-term memory read yesterday: the only kind that may merge.
DecayBatch::Memory duplicate(const std::string &key, const std::string &summary, std::uint32_t reads = 1,
                             std::int64_t created = now - 100 * day) {
    return {
        .key = key, .summary = summary, .created = created, .last_accessed = now - day, .access_count = reads};
}

const LifecycleAction &action_for(const std::vector<LifecycleAction> &plan, const std::string &key) {
    for (const auto &action : plan) {
        if (action.key == key) {
            return action;
        }
    }
    FAIL("no action for " << key);
    return plan.front();
}

/// Applies a plan the way the host does, one action after another, and fails on the first action
/// whose memory (or merge target) no longer exists at that point.
void require_applies_in_order(const DecayBatch &batch, const std::vector<LifecycleAction> &plan) {
    std::set<std::string> existing;
    for (const auto &memory : batch.memories()) {
        existing.insert(memory.key);
    }
    for (const auto &action : plan) {
        INFO(line_of(action));
        REQUIRE(existing.count(action.key) == 1);
        if (action.kind == Kind::archive) {
            existing.erase(action.key);
        } else if (action.kind == Kind::merge) {
            REQUIRE(action.into != action.key);
            REQUIRE(existing.count(action.into) == 1);
            existing.erase(action.key);
        } else if (action.kind == Kind::promote) {
            existing.erase(action.key);
            const auto tier = action.key.find("/short/");
            REQUIRE(tier != std::string::npos);
            existing.insert(std::string{action.key}.replace(tier, 7, "/long/"));
        }
    }
}

} // namespace

TEST_CASE("collie-tiers is a decay policy declaring default_settings.json", "[policy][collie-tiers]") {
    PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    const auto *info = registry.find("collie-tiers");
    REQUIRE(info != nullptr);
    CHECK(starling::plugins::kind_name(info->kind) == "decay");
    std::ifstream file{std::filesystem::path{STARLING_SOURCE_DIR} / "policies" / "collie" / "collie-tiers" /
                       "default_settings.json"};
    REQUIRE(file);
    const auto declared = nlohmann::json::parse(std::string{std::istreambuf_iterator<char>{file}, {}});
    CHECK(nlohmann::json::parse(info->default_settings_json) == declared);
    CHECK(declared.at("short").at("max_idle_days") == 7);
    CHECK(declared.at("merge").at("min_similarity") == 0.5);
}

TEST_CASE("a short-term memory untouched more than 7 days is archived", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(memory("short", "fresh", 0))
        .add(memory("short", "seven-days", 7 * day))
        .add(memory("short", "seven-days-and-a-second", 7 * day + 1));
    const auto plan = TiersPolicy{}.plan(batch);
    CHECK(lines_of(plan) == Lines{"archive memory/user/short/seven-days-and-a-second.md"});
    CHECK_THAT(plan.front().reason,
               Catch::Contains("7 d 00:00:01") && Catch::Contains("short.max_idle_days = 7 d"));
}

TEST_CASE("promotion needs 3 reads in at least 2 distinct sessions", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(read(memory("short", "a-two-reads-two-sessions", day), 2, 2))
        .add(read(memory("short", "b-three-reads-one-session", day), 3, 1))
        .add(read(memory("short", "c-three-reads-two-sessions", day), 3, 2))
        .add(read(memory("short", "d-nine-reads-five-sessions", day), 9, 5))
        .add(read(memory("short", "e-due-for-archiving", 7 * day + 1), 9, 5))
        .add(read(memory("long", "f-already-long", day), 9, 5));
    const auto plan = TiersPolicy{}.plan(batch);
    CHECK(lines_of(plan) == Lines{"promote memory/user/short/c-three-reads-two-sessions.md",
                                  "promote memory/user/short/d-nine-reads-five-sessions.md",
                                  "archive memory/user/short/e-due-for-archiving.md"});
    CHECK_THAT(plan.front().reason, Catch::Contains("read 3 times in 2 sessions"));
}

TEST_CASE("a long-term memory untouched more than 60 days is marked for review", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(memory("long", "a-sixty-days", 60 * day))
        .add(memory("long", "b-sixty-days-and-a-second", 60 * day + 1))
        .add(memory("long", "c-a-year-never-marked", 365 * day));
    const auto plan = TiersPolicy{}.plan(batch);
    CHECK(lines_of(plan) == Lines{"mark_review memory/user/long/b-sixty-days-and-a-second.md",
                                  "mark_review memory/user/long/c-a-year-never-marked.md"});
    CHECK_THAT(plan.front().reason,
               Catch::Contains("60 d 00:00:01") && Catch::Contains("long.review_idle_days"));
}

TEST_CASE("a memory under review is archived after 30 more days, and cleared when read",
          "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(under_review(memory("long", "a-ninety-days", 90 * day)))
        .add(under_review(memory("long", "b-ninety-days-and-a-second", 90 * day + 1)))
        .add(under_review(memory("long", "c-sixty-days", 60 * day)))
        .add(under_review(memory("long", "d-sixty-days-and-a-second", 60 * day + 1)))
        .add(under_review(memory("long", "e-read-in-the-future", -3600)))
        .add(under_review(memory("short", "f-hand-edited", day)))
        .add(under_review(read(memory("short", "g-promoted", day), 3, 2)));
    const auto plan = TiersPolicy{}.plan(batch);
    CHECK(lines_of(plan) == Lines{"archive memory/user/long/b-ninety-days-and-a-second.md",
                                  "clear_review memory/user/long/c-sixty-days.md",
                                  "clear_review memory/user/long/e-read-in-the-future.md",
                                  "clear_review memory/user/short/f-hand-edited.md",
                                  "clear_review memory/user/short/g-promoted.md",
                                  "promote memory/user/short/g-promoted.md"});
    CHECK_THAT(plan.front().reason, Catch::Contains("90 d 00:00:01") &&
                                        Catch::Contains("long.review_idle_days = 60 d") &&
                                        Catch::Contains("long.archive_after_review_days = 30 d"));
    require_applies_in_order(batch, plan);
}

TEST_CASE("settings move every threshold", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(memory("long", "a-review-after-ten-days", 10 * day + 1))
        .add(under_review(memory("long", "b-archive-after-fifteen", 15 * day)))
        .add(under_review(memory("long", "c-archive-after-fifteen-and-a-second", 15 * day + 1)))
        .add(memory("short", "d-one-day", day))
        .add(memory("short", "e-one-day-and-a-second", day + 1))
        .add(read(memory("short", "f-two-reads-one-session", 0), 2, 1));
    nlohmann::json settings = TiersPolicy::collie_rules();
    settings["short"]["max_idle_days"] = 1;
    settings["long"]["review_idle_days"] = 10;
    settings["long"]["archive_after_review_days"] = 5;
    settings["promote"]["min_access_count"] = 2;
    settings["promote"]["min_session_count"] = 1;
    CHECK(plan_lines(batch, settings) ==
          Lines{"mark_review memory/user/long/a-review-after-ten-days.md",
                "archive memory/user/long/c-archive-after-fifteen-and-a-second.md",
                "archive memory/user/short/e-one-day-and-a-second.md",
                "promote memory/user/short/f-two-reads-one-session.md"});
    CHECK(plan_lines(batch) == Lines{"clear_review memory/user/long/b-archive-after-fifteen.md",
                                     "clear_review memory/user/long/c-archive-after-fifteen-and-a-second.md"});
}

TEST_CASE("settings out of range are refused when the policy is created", "[policy][collie-tiers]") {
    const auto refusal = [](const nlohmann::json &settings) -> std::string {
        try {
            TiersPolicy policy{settings};
        } catch (const PluginLoadError &failure) {
            CHECK(failure.error().kind == LoadErrorKind::create_failed);
            return failure.what();
        }
        return "accepted";
    };
    CHECK_THAT(refusal(defaults_with("/short/max_idle_days", -1)), Catch::Contains("short.max_idle_days"));
    CHECK_THAT(refusal(defaults_with("/long/review_idle_days", "sixty")),
               Catch::Contains("long.review_idle_days"));
    CHECK_THAT(refusal(defaults_with("/promote/min_access_count", -3)),
               Catch::Contains("promote.min_access_count"));
    CHECK_THAT(refusal(defaults_with("/short/max_idle_days", 7.5)), Catch::Contains("short.max_idle_days"));
    CHECK_THAT(refusal(defaults_with("/merge/enabled", "maybe")), Catch::Contains("merge.enabled"));
    CHECK_THAT(refusal(defaults_with("/merge/min_similarity", 0.0)), Catch::Contains("merge.min_similarity"));
    CHECK_THAT(refusal(defaults_with("/merge/min_similarity", 1.5)), Catch::Contains("merge.min_similarity"));
    CHECK_THAT(refusal(defaults_with("/merge/max_candidates_per_token", 0)),
               Catch::Contains("merge.max_candidates_per_token"));
    CHECK(refusal(defaults_with("/merge/min_similarity", 1.0)) == "accepted");
}

TEST_CASE("near-duplicate long-term memories merge into the most read one", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(duplicate("memory/user/long/a.md", "Use bun instead of pnpm for installs", 2))
        .add(duplicate("memory/user/long/b.md", "use BUN instead of pnpm, for all installs", 5))
        .add(duplicate("memory/user/long/c.md", "Commit messages are written in English", 9));
    const auto plan = TiersPolicy{}.plan(batch);
    CHECK(lines_of(plan) == Lines{"merge memory/user/long/a.md -> memory/user/long/b.md"});
    CHECK_THAT(plan.front().reason, Catch::Contains("7 of 8 tokens") &&
                                        Catch::Contains("0.88 >= merge.min_similarity 0.50") &&
                                        Catch::Contains("more reads (5 > 2)"));
}

TEST_CASE("among equally read duplicates the older one is kept, then the smaller key",
          "[policy][collie-tiers]") {
    SECTION("older wins") {
        DecayBatch batch{now};
        batch.add(duplicate("memory/user/long/a.md", "tabs not spaces", 3, now - 10 * day))
            .add(duplicate("memory/user/long/b.md", "tabs not spaces", 3, now - 20 * day));
        CHECK(plan_lines(batch) == Lines{"merge memory/user/long/a.md -> memory/user/long/b.md"});
    }
    SECTION("same age: the smaller key wins") {
        DecayBatch batch{now};
        batch.add(duplicate("memory/user/long/b.md", "tabs not spaces", 3))
            .add(duplicate("memory/user/long/a.md", "tabs not spaces", 3));
        CHECK(plan_lines(batch) == Lines{"merge memory/user/long/b.md -> memory/user/long/a.md"});
    }
}

TEST_CASE("merging needs a similarity of at least merge.min_similarity", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    // 2 of 4 tokens: exactly 0.5. 3 of 7 tokens: 0.43.
    batch.add(duplicate("memory/user/long/half-a.md", "alpha bravo charlie"))
        .add(duplicate("memory/user/long/half-b.md", "alpha bravo delta"))
        .add(duplicate("memory/user/long/less-a.md", "one two three four five"))
        .add(duplicate("memory/user/long/less-b.md", "one two three six seven"));
    CHECK(plan_lines(batch) == Lines{"merge memory/user/long/half-b.md -> memory/user/long/half-a.md"});
    CHECK(plan_lines(batch, defaults_with("/merge/min_similarity", 0.4)) ==
          Lines{"merge memory/user/long/half-b.md -> memory/user/long/half-a.md",
                "merge memory/user/long/less-b.md -> memory/user/long/less-a.md"});
    CHECK(plan_lines(batch, defaults_with("/merge/enabled", false)).empty());
}

TEST_CASE("tags count toward similarity unless merge.include_tags is off", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch
        .add({.key = "memory/user/long/a.md",
              .summary = "prefers dark mode",
              .tags = "ui\ntheme\ndark-mode",
              .created = now - 9 * day,
              .last_accessed = now - day})
        .add({.key = "memory/user/long/b.md",
              .summary = "theme choice",
              .tags = "ui\ntheme\ndark-mode",
              .created = now - 8 * day,
              .last_accessed = now - day});
    CHECK(plan_lines(batch) == Lines{"merge memory/user/long/b.md -> memory/user/long/a.md"});
    CHECK(plan_lines(batch, defaults_with("/merge/include_tags", false)).empty());
}

TEST_CASE("memories merge only within one scope and one type", "[policy][collie-tiers]") {
    const std::string summary = "Run the test suite with ctest before pushing";
    DecayBatch batch{now};
    batch.add(duplicate("memory/user/long/a.md", summary))
        .add(duplicate("memory/user/long/b.md", summary))
        .add({.key = "memory/user/long/c.md",
              .summary = summary,
              .type = "reference",
              .created = now - 100 * day,
              .last_accessed = now - day})
        .add(duplicate("memory/projects/alpha/long/a.md", summary))
        .add(duplicate("memory/projects/alpha/long/b.md", summary))
        .add(duplicate("memory/projects/beta/long/a.md", summary))
        .add(duplicate("memory/projects/alphabet/long/a.md", summary))
        .add(duplicate("notes/long/a.md", summary));
    CHECK(plan_lines(batch) == Lines{"merge memory/projects/alpha/long/b.md -> memory/projects/alpha/long/a.md",
                                     "merge memory/user/long/b.md -> memory/user/long/a.md"});
}

TEST_CASE("memories under review, due for review or archiving, or short-term are not merged",
          "[policy][collie-tiers]") {
    const std::string summary = "Prefer small pull requests";
    DecayBatch batch{now};
    batch
        .add({.key = "memory/user/long/a-under-review.md",
              .summary = summary,
              .last_accessed = now - day,
              .access_count = 50,
              .under_review = true})
        .add({.key = "memory/user/long/b-stale.md",
              .summary = summary,
              .last_accessed = now - 61 * day,
              .access_count = 50})
        .add({.key = "memory/user/long/c-forgotten.md",
              .summary = summary,
              .last_accessed = now - 91 * day,
              .access_count = 50,
              .under_review = true})
        .add(duplicate("memory/user/long/d.md", summary, 2))
        .add(duplicate("memory/user/long/e.md", summary, 1))
        .add({.key = "memory/user/short/f.md",
              .summary = summary,
              .last_accessed = now - day,
              .access_count = 50});
    CHECK(plan_lines(batch) == Lines{"clear_review memory/user/long/a-under-review.md",
                                     "mark_review memory/user/long/b-stale.md",
                                     "archive memory/user/long/c-forgotten.md",
                                     "merge memory/user/long/e.md -> memory/user/long/d.md"});
}

TEST_CASE("Chinese and German summaries merge", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(duplicate("memory/user/long/commit-zh.md", "提交信息用中文写", 4))
        .add(duplicate("memory/user/long/commit-zh-2.md", "提交信息要用中文写", 1))
        .add(duplicate("memory/user/long/comments-zh.md", "不要写注释", 1))
        .add(duplicate("memory/user/long/review-de.md", "Überprüfe Änderungen vor dem Commit", 3))
        .add(duplicate("memory/user/long/review-de-2.md", "ÜBERPRÜFE änderungen VOR dem commit!", 1));
    CHECK(plan_lines(batch) == Lines{"merge memory/user/long/commit-zh-2.md -> memory/user/long/commit-zh.md",
                                     "merge memory/user/long/review-de-2.md -> memory/user/long/review-de.md"});
}

TEST_CASE("a chain of duplicates merges into one survivor, each memory once", "[policy][collie-tiers]") {
    // a ~ b ~ c ~ d (similarity 0.6 each), but a and c share only 2 of 6 tokens, a and d one.
    DecayBatch batch{now};
    batch.add(duplicate("memory/user/long/d.md", "charlie echo foxtrot golf", 1))
        .add(duplicate("memory/user/long/c.md", "bravo charlie echo foxtrot", 3))
        .add(duplicate("memory/user/long/b.md", "alpha bravo charlie echo", 5))
        .add(duplicate("memory/user/long/a.md", "alpha bravo charlie delta", 9));
    const auto plan = TiersPolicy{}.plan(batch);
    CHECK(lines_of(plan) == Lines{"merge memory/user/long/b.md -> memory/user/long/a.md",
                                  "merge memory/user/long/c.md -> memory/user/long/a.md",
                                  "merge memory/user/long/d.md -> memory/user/long/a.md"});
    CHECK_THAT(action_for(plan, "memory/user/long/d.md").reason,
               Catch::Contains("shared with memory/user/long/c.md") &&
                   Catch::Contains("which merges into memory/user/long/a.md"));
    require_applies_in_order(batch, plan);
}

TEST_CASE("two groups bridged by one memory become one group with one survivor", "[policy][collie-tiers]") {
    // collie merged pair by pair: the bridge could be absorbed by one side, then compared, stale, with
    // the other.
    DecayBatch batch{now};
    batch.add(duplicate("memory/user/long/left.md", "alpha bravo charlie", 4))
        .add(duplicate("memory/user/long/left-2.md", "alpha bravo charlie", 1))
        .add(duplicate("memory/user/long/bridge.md", "alpha bravo charlie delta echo foxtrot", 2))
        .add(duplicate("memory/user/long/right.md", "delta echo foxtrot", 6))
        .add(duplicate("memory/user/long/right-2.md", "delta echo foxtrot", 1));
    const auto plan = TiersPolicy{}.plan(batch);
    CHECK(lines_of(plan) == Lines{"merge memory/user/long/bridge.md -> memory/user/long/right.md",
                                  "merge memory/user/long/left-2.md -> memory/user/long/right.md",
                                  "merge memory/user/long/left.md -> memory/user/long/right.md",
                                  "merge memory/user/long/right-2.md -> memory/user/long/right.md"});
    require_applies_in_order(batch, plan);
}

namespace {

/// A mixed store: every rule fires somewhere, and near-duplicates abound (a vocabulary of 12 words).
DecayBatch mixed_store(const std::vector<std::size_t> &order) {
    static const std::vector<std::string> words{"bun",  "pnpm", "tests", "ctest",  "tabs", "spaces",
                                                "dark", "mode", "rust",  "python", "docs", "commit"};
    std::vector<DecayBatch::Memory> memories;
    for (std::size_t index = 0; index < 120; ++index) {
        const std::string tier = index % 5 == 0 ? "short" : "long";
        const std::string scope = index % 7 == 0 ? "memory/projects/p1/" : "memory/user/";
        std::string summary;
        for (std::size_t word = 0; word < 3 + index % 3; ++word) {
            summary += words[(index * 7 + word * (index % 4 + 1)) % words.size()] + " ";
        }
        const std::size_t idle_days = tier == "short" ? index / 5 % 10 : index * 13 % 100;
        const auto idle = static_cast<std::int64_t>(idle_days) * day + static_cast<std::int64_t>(index % 2);
        memories.push_back({.key = scope + tier + "/m" + std::to_string(index) + ".md",
                            .summary = summary,
                            .type = index % 11 == 0 ? "reference" : "feedback",
                            .created = now - 200 * day + static_cast<std::int64_t>(index % 9),
                            .last_accessed = now - idle,
                            .access_count = static_cast<std::uint32_t>(index % 6),
                            .session_count = static_cast<std::uint32_t>(index % 3),
                            .under_review = index % 4 == 0});
    }
    DecayBatch batch{now};
    for (const std::size_t index : order) {
        batch.add(memories[index]);
    }
    return batch;
}

std::vector<std::size_t> indices(std::size_t count) {
    std::vector<std::size_t> order(count);
    for (std::size_t index = 0; index < count; ++index) {
        order[index] = index;
    }
    return order;
}

} // namespace

TEST_CASE("the same memories give the same plan, whatever the batch order", "[policy][collie-tiers]") {
    const TiersPolicy policy;
    auto in_order = mixed_store(indices(120));
    const auto plan = policy.plan(in_order);
    REQUIRE(plan.size() > 20);
    const auto count = [&](Kind kind) {
        return std::count_if(plan.begin(), plan.end(),
                             [&](const LifecycleAction &action) { return action.kind == kind; });
    };
    CHECK(count(Kind::archive) > 0);
    CHECK(count(Kind::mark_review) > 0);
    CHECK(count(Kind::clear_review) > 0);
    CHECK(count(Kind::promote) > 0);
    CHECK(count(Kind::merge) > 0);
    require_applies_in_order(in_order, plan);

    auto reversed_order = indices(120);
    std::reverse(reversed_order.begin(), reversed_order.end());
    auto interleaved_order = indices(120);
    std::stable_partition(interleaved_order.begin(), interleaved_order.end(),
                          [](std::size_t index) { return index % 3 == 1; });
    for (const auto &order : {reversed_order, interleaved_order}) {
        auto shuffled = mixed_store(order);
        const auto again = policy.plan(shuffled);
        CHECK(lines_of(again) == lines_of(plan));
        for (std::size_t index = 0; index < std::min(plan.size(), again.size()); ++index) {
            CHECK(again[index].reason == plan[index].reason);
        }
    }
    CHECK(lines_of(policy.plan(in_order)) == lines_of(plan));
}

TEST_CASE("a batch holding one key twice is refused", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    batch.add(memory("long", "twice", day)).add(memory("long", "twice", 2 * day));
    CHECK_THROWS_WITH(TiersPolicy{}.plan(batch), Catch::Contains("memory/user/long/twice.md"));
}

TEST_CASE("by default a user's role and preferences, and a project's constraints, are never archived or "
          "reviewed for going unread",
          "[policy][collie-tiers]") {
    DecayBatch batch{now};
    auto role = memory("short", "role", 400 * day);
    role.type = "user";
    auto preference = memory("long", "preference", 400 * day);
    preference.type = "feedback";
    auto stale_flag = under_review(memory("long", "flagged", 400 * day));
    stale_flag.type = "user";
    auto note = memory("short", "note", 8 * day);
    note.type = "project";
    auto episode = memory("short", "episode", 8 * day);
    episode.type = "episodic";
    batch.add(role).add(preference).add(stale_flag).add(note).add(episode);
    CHECK(plan_lines(batch, TiersPolicy::defaults()) ==
          Lines{"clear_review memory/user/long/flagged.md", "archive memory/user/short/episode.md"});
    CHECK(plan_lines(batch, TiersPolicy::collie_rules()) ==
          Lines{"archive memory/user/long/flagged.md", "mark_review memory/user/long/preference.md",
                "archive memory/user/short/episode.md", "archive memory/user/short/note.md",
                "archive memory/user/short/role.md"});
    CHECK(plan_lines(batch, defaults_with("/keep/types", {"project"})) ==
          Lines{"archive memory/user/long/flagged.md", "mark_review memory/user/long/preference.md",
                "archive memory/user/short/episode.md", "archive memory/user/short/role.md"});
}

TEST_CASE("a memory a correction superseded decays as any other, whatever its type", "[policy][collie-tiers]") {
    DecayBatch batch{now};
    auto replaced = memory("short", "replaced", 8 * day);
    replaced.type = "project";
    replaced.fields = R"({"superseded_by": "k2new00"})";
    auto current = memory("short", "current", 8 * day);
    current.type = "project";
    auto old_rule = memory("long", "old-rule", 400 * day);
    old_rule.fields = R"({"superseded_by": "k2new01", "links": ["episode:abc"]})";
    batch.add(replaced).add(current).add(old_rule);
    CHECK(plan_lines(batch, TiersPolicy::defaults()) ==
          Lines{"mark_review memory/user/long/old-rule.md", "archive memory/user/short/replaced.md"});
}

TEST_CASE("keep.types must be a list of strings", "[policy][collie-tiers]") {
    CHECK_THROWS(TiersPolicy{defaults_with("/keep/types", "user")});
}
