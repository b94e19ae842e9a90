// SPDX-License-Identifier: Apache-2.0
//
// isolation through the plugin host, as Starling runs it: the cognitive layer's connection-based
// aging (seed-systems.md §5.4, steps 2, 4, 6, 7 and 11) with the host's similarity, and each of the
// seed's defects the policy fixes. The substance check is also tested below the plugin boundary.
#include <starling/plugins/plugin_registry.hpp>

#include "policies/cognitive-layer/isolation/isolation_plan.hpp"
#include "policies/cognitive-layer/isolation/isolation_settings.hpp"
#include "policies/cognitive-layer/isolation/substance.hpp"
#include "support/decay_batch.hpp"
#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

using starling::sdk::LifecycleAction;
using starling::test::DecayBatch;
using starling::test::quiet_logger;
using Kind = LifecycleAction::Kind;

namespace {

constexpr std::int64_t day = starling::test::seconds_per_day;
// 2026-04-06T12:00:00Z
constexpr std::int64_t now = 20'549 * day + 12 * 3600;

/// Scores a memory by how many of its tags occur as lines of the query. A memory's query holds its
/// tags one per line, so the host's similarity of two memories is |shared tags| / max(|tags|): the
/// tests set similarities exactly by choosing tags.
class TagScorer final : public starling::core::RelevanceScorer {
public:
    std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override {
        std::vector<std::string_view> lines;
        for (std::size_t at = 0; at <= query.size();) {
            const auto end = std::min(query.find('\n', at), query.size());
            lines.push_back(query.substr(at, end - at));
            at = end + 1;
        }
        std::vector<double> scores(batch.count, 0.0);
        for (std::size_t index = 0; index < batch.count; ++index) {
            std::string_view tags = starling::sdk::as_string_view(batch.items[index]->tags);
            while (!tags.empty()) {
                const auto end = std::min(tags.find('\n'), tags.size());
                if (std::find(lines.begin(), lines.end(), tags.substr(0, end)) != lines.end()) {
                    scores[index] += 1.0;
                }
                tags.remove_prefix(std::min(end + 1, tags.size()));
            }
        }
        return scores;
    }
};

class Isolation {
public:
    explicit Isolation(const nlohmann::json &overrides = nlohmann::json::object(), bool offer_similarity = true)
        : registry_{quiet_logger(), options(offer_similarity)} {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(registry_.find("isolation")->default_settings_json);
        settings.merge_patch(overrides);
        policy_.emplace(registry_.create_decay_policy("isolation", settings.dump()));
    }

    std::vector<LifecycleAction> plan(DecayBatch &batch) const { return policy_->plan(batch.batch()); }
    [[nodiscard]] bool plans_with_bodies() const { return policy_->plans_with_bodies(); }
    std::vector<double> similarity(const std::string &text, DecayBatch &batch) const {
        return *policy_->similarity(text, batch.batch());
    }

private:
    starling::plugins::PluginHostOptions options(bool offer_similarity) const {
        starling::plugins::PluginHostOptions made;
        made.similarity_from = offer_similarity ? &scorer_ : nullptr;
        return made;
    }

    TagScorer scorer_;
    starling::plugins::PluginRegistry registry_;
    std::optional<starling::plugins::DecayPolicyInstance> policy_;
};

/// One line per action: "archive K", "merge K > INTO", "link K > INTO", "set_field K field=value".
std::vector<std::string> lines_of(const std::vector<LifecycleAction> &plan) {
    std::vector<std::string> lines;
    for (const auto &action : plan) {
        std::string line = std::string{starling::sdk::to_string(action.kind)} + " " + action.key;
        if (!action.into.empty()) {
            line += " > " + action.into;
        }
        if (action.kind == Kind::set_field) {
            line += " " + action.field + "=";
            if (const auto *text = std::get_if<std::string>(&action.value)) {
                line += *text;
            } else if (std::holds_alternative<std::monostate>(action.value)) {
                line += "null";
            }
        }
        lines.push_back(line);
    }
    return lines;
}

/// The lines of one kind only.
std::vector<std::string> only(const std::vector<LifecycleAction> &plan, Kind kind) {
    std::vector<LifecycleAction> kept;
    std::copy_if(plan.begin(), plan.end(), std::back_inserter(kept),
                 [&](const LifecycleAction &action) { return action.kind == kind; });
    return lines_of(kept);
}

const std::string substantive_text =
    "The deploy script fails with EACCES unless ~/.npmrc sets prefix; run `npm config set prefix ~/.npm-global`.";
const std::string trivial_text = "fixed a typo";

/// A batch of memories with bodies at `now`.
DecayBatch batch_with_bodies() { return DecayBatch{now, /*has_bodies=*/true}; }

/// `count` newer memories of `scope`, each on a topic of its own, a day old: they make the others old
/// enough by count and are too young to age themselves.
void add_newer(DecayBatch &batch, std::size_t count, const std::string &scope = "memory/projects/p1/short/") {
    for (std::size_t index = 0; index < count; ++index) {
        batch.add({.key = scope + "newer-" + std::to_string(index) + ".md",
                   .summary = "newer " + std::to_string(index),
                   .tags = "newer-" + std::to_string(index),
                   .created = now - day,
                   .id = "n" + std::to_string(1000000 + index).substr(1),
                   .fields = R"({"entry_type":"insight"})",
                   .body = substantive_text});
    }
}

bool holds_line(const std::vector<std::string> &lines, const std::string &line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

} // namespace

TEST_CASE("isolation: reads the memories' texts and loads its defaults", "[policies][isolation]") {
    const Isolation isolation;
    CHECK(isolation.plans_with_bodies());
}

TEST_CASE("isolation: a setting out of range or of the wrong shape is refused, naming it", "[policies][isolation]") {
    CHECK_THROWS_WITH(Isolation(nlohmann::json{{"link", {{"threshold", 1.5}}}}),
                      Catch::Contains("isolation setting 'link.threshold' must be a number above 0 and at most 1"));
    CHECK_THROWS_WITH(Isolation(nlohmann::json{{"link", {{"relation", "Connected To"}}}}),
                      Catch::Contains("'link.relation' must be lowercase letters"));
    CHECK_THROWS_WITH(Isolation(nlohmann::json{{"cluster", {{"min_size", 1}}}}),
                      Catch::Contains("'cluster.min_size' must be a whole number from 2"));
    CHECK_THROWS_WITH(Isolation(nlohmann::json{{"substance", {{"error_words", {"error", ""}}}}}),
                      Catch::Contains("'substance.error_words' holds an empty word"));
}

TEST_CASE("isolation: memories at least 0.75 similar are linked both ways, once", "[policies][isolation]") {
    auto batch = batch_with_bodies();
    // a and b share 3 of 4 tags: 0.75. c shares 2 of 4 with a: 0.5.
    batch.add({.key = "memory/projects/p1/short/a.md", .summary = "a", .tags = "t1\nt2\nt3\nt4", .created = now,
               .id = "aaaaaaa", .body = substantive_text});
    batch.add({.key = "memory/projects/p1/short/b.md", .summary = "b", .tags = "t1\nt2\nt3\nt5", .created = now,
               .id = "bbbbbbb", .body = substantive_text});
    batch.add({.key = "memory/projects/p1/short/c.md", .summary = "c", .tags = "t1\nt2\nt6\nt7", .created = now,
               .id = "ccccccc", .body = substantive_text});
    const auto plan = Isolation{}.plan(batch);
    CHECK(only(plan, Kind::link) == std::vector<std::string>{"link memory/projects/p1/short/a.md > memory/projects/p1/short/b.md",
                                                            "link memory/projects/p1/short/b.md > memory/projects/p1/short/a.md"});
    const auto link = std::find_if(plan.begin(), plan.end(), [](const LifecycleAction &action) { return action.kind == Kind::link; });
    CHECK(link->relation == "connected");
    CHECK(link->reason == "similarity 0.75 of at least 0.75");

    SECTION("a link already written is not planned again") {
        auto linked = batch_with_bodies();
        linked.add({.key = "memory/projects/p1/short/a.md", .summary = "a", .tags = "t1\nt2\nt3\nt4", .created = now,
                    .id = "aaaaaaa", .fields = R"({"links":["connected:bbbbbbb"],"entry_type":"insight"})",
                    .body = substantive_text});
        linked.add({.key = "memory/projects/p1/short/b.md", .summary = "b", .tags = "t1\nt2\nt3\nt5", .created = now,
                    .id = "bbbbbbb", .body = substantive_text});
        CHECK(only(Isolation{}.plan(linked), Kind::link) ==
              std::vector<std::string>{"link memory/projects/p1/short/b.md > memory/projects/p1/short/a.md"});
    }
}

TEST_CASE("isolation: every memory is given its entry type once", "[policies][isolation]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/user/short/d.md", .tags = "d", .created = now, .id = "ddddddd",
               .body = "#decision Use Postgres BECAUSE we need transactions; CONSEQUENCE: no Mongo."});
    batch.add({.key = "memory/user/short/u.md", .tags = "u", .created = now, .id = "uuuuuuu",
               .body = "#user-gedanke maybe the buffer should be per project"});
    batch.add({.key = "memory/user/short/s.md", .tags = "s", .created = now, .id = "sssssss",
               .body = "#session-save worked on the importer"});
    batch.add({.key = "memory/user/short/i.md", .tags = "i", .created = now, .id = "iiiiiii",
               .fields = R"({"entry_type":"insight"})", .body = "an insight"});
    CHECK(only(Isolation{}.plan(batch), Kind::set_field) ==
          std::vector<std::string>{"set_field memory/user/short/d.md entry_type=decision",
                                   "set_field memory/user/short/u.md entry_type=user-gedanke",
                                   "set_field memory/user/short/s.md entry_type=session-save"});
}

TEST_CASE("isolation: a cluster of three is merged into its oldest member, which becomes proven, without a word lost",
          "[policies][isolation]") {
    auto batch = batch_with_bodies();
    for (const auto &[name, created] : {std::pair{"x", now - 3 * day}, std::pair{"y", now - 5 * day},
                                        std::pair{"z", now - 1 * day}}) {
        batch.add({.key = std::string{"memory/projects/p1/short/"} + name + ".md", .summary = name,
                   .tags = "k1\nk2\nk3", .created = created, .id = std::string(7, name[0]),
                   .body = std::string{"fact "} + name});
    }
    const auto plan = Isolation{}.plan(batch);
    CHECK(lines_of(plan) ==
          std::vector<std::string>{
              "merge memory/projects/p1/short/x.md > memory/projects/p1/short/y.md",
              "merge memory/projects/p1/short/z.md > memory/projects/p1/short/y.md",
              "promote memory/projects/p1/short/y.md",
              "set_field memory/projects/p1/short/y.md consolidated=2026-04-06",
              "set_field memory/projects/p1/short/y.md entry_type=insight",
          });
    CHECK(plan[0].reason == "consolidated: a cluster of 3 memories at least 0.80 similar to each other");
}

TEST_CASE("isolation: a memory linked to one merged away is linked to the memory that holds its text",
          "[policies][isolation]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/short/x.md", .tags = "k1\nk2\nk3", .created = now - 3 * day,
               .id = "xxxxxxx", .body = "fact x"});
    batch.add({.key = "memory/projects/p1/short/y.md", .tags = "k1\nk2\nk3", .created = now - 5 * day,
               .id = "yyyyyyy", .body = "fact y"});
    batch.add({.key = "memory/projects/p1/short/z.md", .tags = "k1\nk2\nk3", .created = now - 1 * day,
               .id = "zzzzzzz", .body = "fact z"});
    batch.add({.key = "memory/projects/p1/short/w.md", .tags = "w", .created = now, .id = "wwwwwww",
               .fields = R"({"links":["connected:zzzzzzz"],"entry_type":"insight"})", .body = "about z"});
    const auto plan = Isolation{}.plan(batch);
    CHECK(only(plan, Kind::unlink) == std::vector<std::string>{"unlink memory/projects/p1/short/w.md > memory/projects/p1/short/z.md"});
    CHECK(holds_line(only(plan, Kind::link), "link memory/projects/p1/short/w.md > memory/projects/p1/short/y.md"));
}

TEST_CASE("isolation: a chain whose ends are not similar is not consolidated, and its members do not age",
          "[policies][isolation]") {
    auto batch = batch_with_bodies();
    // a–b and b–c share 4 of 5 tags (0.8); a–c share 3 of 5 (0.6): one component, not coherent.
    batch.add({.key = "memory/projects/p1/short/a.md", .tags = "s1\ns2\ns3\ns4\na1", .created = now - 30 * day,
               .id = "aaaaaaa", .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    batch.add({.key = "memory/projects/p1/short/b.md", .tags = "s1\ns2\ns3\ns4\ns5", .created = now - 30 * day,
               .id = "bbbbbbb", .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    batch.add({.key = "memory/projects/p1/short/c.md", .tags = "s2\ns3\ns4\ns5\nc1", .created = now - 30 * day,
               .id = "ccccccc", .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    add_newer(batch, 20);
    const auto plan = Isolation{}.plan(batch);
    CHECK(only(plan, Kind::merge).empty());
    CHECK(only(plan, Kind::archive).empty());
}

TEST_CASE("isolation: an isolated substantive memory is reprieved three times, once a day, then archived",
          "[policies][isolation]") {
    const auto plan_for = [](const std::string &fields) {
        auto batch = batch_with_bodies();
        batch.add({.key = "memory/projects/p1/short/lone.md", .tags = "lone", .created = now - 10 * day,
                   .id = "lllllll", .fields = fields, .body = substantive_text});
        add_newer(batch, 20);
        const auto plan = Isolation{}.plan(batch);
        std::vector<std::string> lines;
        for (const auto &line : lines_of(plan)) {
            if (line.find("lone.md") != std::string::npos) {
                lines.push_back(line);
            }
        }
        return std::pair{lines, plan};
    };
    const auto [first, first_plan] = plan_for(R"({"entry_type":"insight"})");
    CHECK(first == std::vector<std::string>{"set_field memory/projects/p1/short/lone.md reprieve_count=1",
                                            "set_field memory/projects/p1/short/lone.md last_reprieved=2026-04-06"});
    CHECK_THAT(first_plan.front().reason,
               Catch::StartsWith("isolated (in no cluster of 3, 20 newer memories, 10 days old), substantive (") &&
                   Catch::EndsWith("): reprieve 1 of 3"));
    CHECK(plan_for(R"({"entry_type":"insight","reprieve_count":"1","last_reprieved":"2026-04-06"})").first.empty());
    CHECK(plan_for(R"({"entry_type":"insight","reprieve_count":"2","last_reprieved":"2026-04-05"})").first ==
          std::vector<std::string>{"set_field memory/projects/p1/short/lone.md reprieve_count=3",
                                   "set_field memory/projects/p1/short/lone.md last_reprieved=2026-04-06"});
    CHECK(plan_for(R"({"entry_type":"insight","reprieve_count":"3","last_reprieved":"2026-04-06"})").first.empty());
    const auto [last, last_plan] = plan_for(R"({"entry_type":"insight","reprieve_count":"3","last_reprieved":"2026-04-05"})");
    CHECK(last == std::vector<std::string>{"archive memory/projects/p1/short/lone.md"});
    CHECK_THAT(last_plan.front().reason, Catch::EndsWith("after 3 reprieves"));
    // A count that is no number counts as none.
    CHECK(plan_for(R"({"entry_type":"insight","reprieve_count":"many"})").first.front() ==
          "set_field memory/projects/p1/short/lone.md reprieve_count=1");
}

TEST_CASE("isolation: an isolated memory that is trivial or holds nothing concrete is archived at once",
          "[policies][isolation]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/short/typo.md", .tags = "typo", .created = now - 10 * day, .id = "ttttttt",
               .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    batch.add({.key = "memory/projects/p1/short/vague.md", .tags = "vague", .created = now - 10 * day,
               .id = "vvvvvvv", .fields = R"({"entry_type":"insight"})",
               .body = "We talked about how the project could be organised better in general, at some point."});
    add_newer(batch, 20);
    const auto plan = Isolation{}.plan(batch);
    REQUIRE(only(plan, Kind::archive) == std::vector<std::string>{"archive memory/projects/p1/short/typo.md",
                                                                 "archive memory/projects/p1/short/vague.md"});
    CHECK_THAT(plan[0].reason, Catch::EndsWith("not substantive: 12 characters, fewer than 50"));
    CHECK_THAT(plan[1].reason, Catch::EndsWith("not substantive: 84 characters, no concrete technical content"));
}

TEST_CASE("isolation: a memory in a cluster, on the long-term tier or pinned does not age", "[policies][isolation]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/long/proven.md", .tags = "proven", .created = now - 90 * day,
               .id = "ppppppp", .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    batch.add({.key = "memory/projects/p1/short/pinned.md", .tags = "pinned", .created = now - 90 * day,
               .id = "qqqqqqq", .fields = R"({"entry_type":"insight"})", .pinned = true, .body = trivial_text});
    add_newer(batch, 20);
    CHECK(only(Isolation{}.plan(batch), Kind::archive).empty());
}

TEST_CASE("isolation: an automatic session save without a user message is archived at once", "[policies][isolation]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/user/short/empty.md", .tags = "e", .created = now, .id = "eeeeeee",
               .body = "AUTO-SESSION-SAVE 2026-04-06\nUser Messages: 0\nTool Calls: 3"});
    batch.add({.key = "memory/user/short/full.md", .tags = "f", .created = now, .id = "fffffff",
               .body = "AUTO-SESSION-SAVE 2026-04-06\nUser Messages: 04\nTool Calls: 3"});
    const auto plan = Isolation{}.plan(batch);
    CHECK(only(plan, Kind::archive) == std::vector<std::string>{"archive memory/user/short/empty.md"});
    CHECK(plan[0].reason == "an automatic session save without a user message");
}

TEST_CASE("isolation: the seed's exact duplicate is the same text with runs of blanks as one", "[policies][isolation]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/user/short/a.md", .summary = "a", .body = "Use  pnpm,\nnot npm."});
    batch.add({.key = "memory/user/short/b.md", .summary = "b", .body = "use pnpm, not npm."});
    CHECK(Isolation{}.similarity("  Use pnpm, not   npm. ", batch) == std::vector<double>{1.0, 0.0});
    CHECK(Isolation{}.similarity("   ", batch) == std::vector<double>{0.0, 0.0});
    // As the host asks: the new memory's summary, then its text.
    CHECK(Isolation{}.similarity("b\nuse pnpm,  not npm.", batch) == std::vector<double>{0.0, 1.0});

    DecayBatch listed{now};
    listed.add({.key = "memory/user/short/a.md", .summary = "Use pnpm,", .body = "ignored without bodies"});
    listed.add({.key = "memory/user/short/b.md", .summary = "Use yarn", .body = "ignored without bodies"});
    CHECK(Isolation{}.similarity("Use pnpm,\nUse pnpm, not npm.", listed) == std::vector<double>{1.0, 0.0});
}

// ---- The seed's defects, each fixed. ----

TEST_CASE("isolation defect fixed: a decision or the user's thought never expires, by no path", "[policies][isolation][defects]") {
    auto batch = batch_with_bodies();
    // On its last reprieve, trivial, isolated and old: everything that archives an insight.
    for (const auto &[name, text, tags] :
         {std::tuple{"decision", "#decision use pnpm", ""}, std::tuple{"german", "#Entscheidung: pnpm", ""},
          std::tuple{"thought", "#user-gedanke hmm", ""}, std::tuple{"tagged", "short", "decision"},
          std::tuple{"saved", "AUTO-SESSION-SAVE User Messages: 0 #decision keep", ""}}) {
        batch.add({.key = std::string{"memory/projects/p1/short/"} + name + ".md",
                   .tags = std::string{tags}.empty() ? std::string{name} : std::string{name} + "\n" + tags,
                   .created = now - 60 * day, .id = std::string{name}.substr(0, 7),
                   .fields = R"({"reprieve_count":"3","last_reprieved":"2026-01-01"})", .body = text});
    }
    batch.add({.key = "memory/projects/p1/short/typed.md", .tags = "typed", .created = now - 60 * day, .id = "typed00",
               .fields = R"({"entry_type":"user-gedanke","reprieve_count":"3"})", .body = "a thought"});
    add_newer(batch, 20);
    const auto plan = Isolation{}.plan(batch);
    CHECK(only(plan, Kind::archive).empty());
    CHECK(only(plan, Kind::merge).empty());
}

TEST_CASE("isolation defect fixed: a decision in a cluster is never merged away — the others merge into it",
          "[policies][isolation][defects]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/short/old.md", .tags = "k1\nk2\nk3", .created = now - 9 * day,
               .id = "ooooooo", .body = "fact one"});
    batch.add({.key = "memory/projects/p1/short/decision.md", .tags = "k1\nk2\nk3", .created = now - 2 * day,
               .id = "ddddddd", .body = "#decision fact two"});
    batch.add({.key = "memory/projects/p1/short/thought.md", .tags = "k1\nk2\nk3", .created = now - 3 * day,
               .id = "ttttttt", .body = "#user-gedanke fact three"});
    batch.add({.key = "memory/projects/p1/short/new.md", .tags = "k1\nk2\nk3", .created = now - 1 * day,
               .id = "nnnnnnn", .body = "fact four"});
    const auto plan = Isolation{}.plan(batch);
    CHECK(only(plan, Kind::merge) ==
          std::vector<std::string>{"merge memory/projects/p1/short/old.md > memory/projects/p1/short/decision.md",
                                   "merge memory/projects/p1/short/new.md > memory/projects/p1/short/decision.md"});
    CHECK(holds_line(lines_of(plan), "set_field memory/projects/p1/short/decision.md entry_type=decision"));
}

TEST_CASE("isolation defect fixed: a burst of new memories does not age a memory written days ago",
          "[policies][isolation][defects]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/short/recent.md", .tags = "recent", .created = now - 2 * day,
               .id = "rrrrrrr", .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    add_newer(batch, 40);
    CHECK(only(Isolation{}.plan(batch), Kind::archive).empty());
    // With a two-day minimum it is old enough.
    CHECK(only(Isolation{nlohmann::json{{"age", {{"min_days", 2}}}}}.plan(batch), Kind::archive) ==
          std::vector<std::string>{"archive memory/projects/p1/short/recent.md"});
}

TEST_CASE("isolation defect fixed: memories of the user and of another project never link or cluster with a project's",
          "[policies][isolation][defects]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/short/a.md", .tags = "k1\nk2\nk3", .created = now, .id = "aaaaaaa",
               .fields = R"({"entry_type":"insight"})", .body = "a"});
    batch.add({.key = "memory/user/short/b.md", .tags = "k1\nk2\nk3", .created = now, .id = "bbbbbbb",
               .fields = R"({"entry_type":"insight"})", .body = "b"});
    batch.add({.key = "memory/projects/p2/short/c.md", .tags = "k1\nk2\nk3", .created = now, .id = "ccccccc",
               .fields = R"({"entry_type":"insight"})", .body = "c"});
    CHECK(Isolation{}.plan(batch).empty());
}

TEST_CASE("isolation defect fixed: reprieves are counted by day, not by how often consolidation runs",
          "[policies][isolation][defects]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/short/lone.md", .tags = "lone", .created = now - 10 * day, .id = "lllllll",
               .fields = R"({"entry_type":"insight","reprieve_count":"2","last_reprieved":"2026-04-06"})",
               .body = substantive_text});
    add_newer(batch, 20);
    const Isolation isolation;
    for (int run = 0; run < 5; ++run) {
        CHECK(isolation.plan(batch).empty());
    }
}

TEST_CASE("isolation: without the host's similarity nothing is linked, consolidated or aged",
          "[policies][isolation]") {
    auto batch = batch_with_bodies();
    batch.add({.key = "memory/projects/p1/short/x.md", .tags = "k1", .created = now - 90 * day, .id = "xxxxxxx",
               .fields = R"({"entry_type":"insight","reprieve_count":"3"})", .body = trivial_text});
    batch.add({.key = "memory/projects/p1/short/y.md", .tags = "k1", .created = now - 90 * day, .id = "yyyyyyy",
               .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    batch.add({.key = "memory/projects/p1/short/z.md", .tags = "k1", .created = now - 90 * day, .id = "zzzzzzz",
               .fields = R"({"entry_type":"insight"})", .body = "AUTO-SESSION-SAVE\nUser Messages: 0"});
    add_newer(batch, 20);
    const Isolation without{nlohmann::json::object(), /*offer_similarity=*/false};
    CHECK(lines_of(without.plan(batch)) == std::vector<std::string>{"archive memory/projects/p1/short/z.md"});
}

// ---- Below the plugin boundary. ----

TEST_CASE("isolation: the substance check finds each kind of concrete content", "[policies][isolation][substance]") {
    starling::isolation::IsolationSettings settings;
    settings.command_words = {"git", "npm"};
    settings.error_words = {"error", "exit code"};
    settings.file_extensions = {"py", "toml"};
    const std::string padding = " — noted while working on the release of the service this week.";
    const auto cues = [&](const std::string &text) { return starling::isolation::judge_substance(text + padding, settings).cues; };
    using Cues = std::vector<std::string>;
    CHECK(cues("call `retry()` twice") == Cues{"code"});
    CHECK(cues("the max_retries knob") == Cues{"code"});
    CHECK(cues("edit src/app/config") == Cues{"path"});
    CHECK(cues("see settings.toml") == Cues{"path"});
    CHECK(cues("docs at https://example.org") == Cues{"path"});
    CHECK(cues("run git rebase first") == Cues{"command"});
    CHECK(cues("the build failed with an error") == Cues{"error"});
    CHECK(cues("a timeout of 30s") == Cues{"number"});
    CHECK(cues("upgrade to 3.11") == Cues{"number"});
    CHECK(cues("we liked the meeting a lot") == Cues{});
    CHECK(cues("errorless") == Cues{}); // a word inside a longer one is not the word
    CHECK(cues("it exit codes") == Cues{"error"});

    const auto verdict = starling::isolation::judge_substance("  run   git   pull  ", settings);
    CHECK(verdict.length == 12);
    CHECK_FALSE(verdict.substantive);
    CHECK(starling::isolation::judge_substance("über " + std::string(44, 'x') + " git pull", settings).length == 58);
}

TEST_CASE("isolation: calendar days are written as YYYY-MM-DD", "[policies][isolation]") {
    CHECK(starling::isolation::calendar_day(now) == "2026-04-06");
    CHECK(starling::isolation::calendar_day(0) == "1970-01-01");
    CHECK(starling::isolation::calendar_day(-1) == "1969-12-31");
    CHECK(starling::isolation::calendar_day(951'782'400) == "2000-02-29");
}

TEST_CASE("isolation: only the newest window.memories of a scope are linked, clustered and aged",
          "[policies][isolation][window]") {
    auto batch = batch_with_bodies();
    // Two old trivial memories: past the window of 20, out of reach; within it, archived.
    batch.add({.key = "memory/projects/p1/short/typo.md", .tags = "typo", .created = now - 30 * day, .id = "ttttttt",
               .fields = R"({"entry_type":"insight"})", .body = trivial_text});
    batch.add({.key = "memory/projects/p1/short/old-a.md", .tags = "shared", .created = now - 40 * day,
               .id = "aaaaaaa", .fields = R"({"entry_type":"insight"})", .body = substantive_text});
    batch.add({.key = "memory/projects/p1/short/old-b.md", .tags = "shared", .created = now - 41 * day,
               .id = "bbbbbbb", .fields = R"({"entry_type":"insight"})", .body = substantive_text + " Again."});
    add_newer(batch, 20);

    const nlohmann::json twenty{{"window", {{"memories", 20}}}};
    const auto windowed = Isolation{twenty}.plan(batch);
    CHECK(only(windowed, Kind::archive).empty());
    CHECK(only(windowed, Kind::link).empty());

    const auto whole = Isolation{}.plan(batch);
    CHECK(holds_line(only(whole, Kind::archive), "archive memory/projects/p1/short/typo.md"));
    CHECK(holds_line(only(whole, Kind::link), "link memory/projects/p1/short/old-a.md > memory/projects/p1/short/old-b.md"));
}

TEST_CASE("isolation: a window below 10 memories is refused, naming the setting", "[policies][isolation][window]") {
    const nlohmann::json too_small{{"window", {{"memories", 3}}}};
    CHECK_THROWS_WITH(Isolation{too_small}, Catch::Contains("window.memories"));
}
