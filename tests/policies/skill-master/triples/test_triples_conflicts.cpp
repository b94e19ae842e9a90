// SPDX-License-Identifier: Apache-2.0
//
// triples-conflicts through the plugin host: conflicts recorded as links and flags, nothing archived.
#include "rule_memories.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::sdk::LifecycleAction;
using starling::test::linked_plugins;
using starling::test::RuleMemories;
using Kind = LifecycleAction::Kind;

namespace {

constexpr std::int64_t day = 86'400;
constexpr std::int64_t now = 1'800'000'000;

std::vector<LifecycleAction> plan_of(RuleMemories &memories) {
    const auto policy = linked_plugins().create_decay_policy("triples-conflicts", "{}");
    return policy.plan(memories.batch());
}

std::string line_of(const LifecycleAction &action) {
    std::string line = std::string{starling::sdk::to_string(action.kind)} + " " + action.key;
    if (action.kind == Kind::link || action.kind == Kind::unlink) {
        return line + " " + action.relation + " " + action.into;
    }
    if (action.kind == Kind::set_field) {
        return line + " " + action.field + "=" + starling::sdk::to_json(action.value).dump();
    }
    return line;
}

std::vector<std::string> lines_of(const std::vector<LifecycleAction> &plan) {
    std::vector<std::string> lines;
    for (const auto &action : plan) {
        lines.push_back(line_of(action));
    }
    return lines;
}

} // namespace

TEST_CASE("triples-conflicts: nothing is ever archived, however old", "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "ancient", .kind = "rule", .subject = "pnpm", .predicate = "use", .stated = now - 3650 * day})
        .add({.id = "note", .stated = now - 3650 * day});
    CHECK(plan_of(memories).empty());
}

TEST_CASE("triples-conflicts: the winner of a clear conflict supersedes the loser", "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "npm", .kind = "rule", .subject = "install", .predicate = "use", .object = "npm", .stated = now - 10 * day})
        .add({.id = "pnpm", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now - day})
        .add({.id = "english", .kind = "constraint", .subject = "commit message", .predicate = "be", .object = "in english", .stated = now - 10 * day})
        .add({.id = "german", .kind = "rule", .subject = "commit message", .predicate = "be", .object = "in german", .stated = now - day});
    const auto plan = plan_of(memories);
    CHECK(lines_of(plan) == std::vector<std::string>{
                                "link " + memories.key("pnpm") + " supersedes " + memories.key("npm"),
                                "link " + memories.key("english") + " supersedes " + memories.key("german")});
    CHECK_THAT(plan[1].reason, Catch::Contains("older constraint"));
}

TEST_CASE("triples-conflicts: a link already there is not planned again — one the other way is undone",
          "[policies][triples]") {
    RuleMemories memories{now};
    // npm was superseded by pnpm, then stated again: it is the newer rule now.
    memories.add({.id = "npm", .kind = "rule", .subject = "install", .predicate = "use", .object = "npm", .stated = now - day})
        .add({.id = "pnpm", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now - 5 * day,
              .links = {"supersedes:npm"}});
    CHECK(lines_of(plan_of(memories)) == std::vector<std::string>{
                                             "link " + memories.key("npm") + " supersedes " + memories.key("pnpm"),
                                             "unlink " + memories.key("pnpm") + " supersedes " + memories.key("npm")});

    RuleMemories settled{now};
    settled.add({.id = "npm", .kind = "rule", .subject = "install", .predicate = "use", .object = "npm", .stated = now - 5 * day})
        .add({.id = "pnpm", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now - day,
              .links = {"supersedes:npm"}});
    CHECK(plan_of(settled).empty());
}

TEST_CASE("triples-conflicts: an ambiguous conflict keeps both and flags each with the other's id",
          "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "tabs", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "tab", .stated = now - 3 * day})
        .add({.id = "spaces", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "space", .stated = now - day})
        .add({.id = "same-second-a", .kind = "rule", .subject = "install", .predicate = "use", .object = "npm", .stated = now})
        .add({.id = "same-second-b", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now});
    CHECK(lines_of(plan_of(memories)) == std::vector<std::string>{
                                             "set_field " + memories.key("tabs") + " conflict=\"spaces\"",
                                             "set_field " + memories.key("spaces") + " conflict=\"tabs\"",
                                             "set_field " + memories.key("same-second-a") + " conflict=\"same-second-b\"",
                                             "set_field " + memories.key("same-second-b") + " conflict=\"same-second-a\""});
}

TEST_CASE("triples-conflicts: a flag is removed once the conflict is resolved, and kept while it holds",
          "[policies][triples]") {
    RuleMemories flagged{now};
    flagged.add({.id = "tabs", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "tab", .stated = now - 3 * day, .conflict = {"spaces"}})
        .add({.id = "spaces", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "space", .stated = now - day, .conflict = {"tabs"}});
    CHECK(plan_of(flagged).empty());

    // The other was forgotten: nothing conflicts any more.
    RuleMemories forgotten{now};
    forgotten.add({.id = "tabs", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "tab", .stated = now - 3 * day, .conflict = {"spaces"}});
    CHECK(lines_of(plan_of(forgotten)) == std::vector<std::string>{"set_field " + forgotten.key("tabs") + " conflict=null"});

    // Someone settled it with a supersedes link.
    RuleMemories settled{now};
    settled.add({.id = "tabs", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "tab", .stated = now - 3 * day,
                 .links = {"supersedes:spaces"}, .conflict = {"spaces"}})
        .add({.id = "spaces", .kind = "constraint", .subject = "indent", .predicate = "use", .object = "space", .stated = now - day, .conflict = {"tabs"}});
    CHECK(lines_of(plan_of(settled)) == std::vector<std::string>{"set_field " + settled.key("tabs") + " conflict=null",
                                                                 "set_field " + settled.key("spaces") + " conflict=null"});
}

TEST_CASE("triples-conflicts: rules of different scopes never conflict", "[policies][triples]") {
    RuleMemories memories{now};
    memories.add({.id = "project-npm", .kind = "rule", .subject = "install", .predicate = "use", .object = "npm", .stated = now - day})
        .add({.id = "user-pnpm", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now, .project = ""})
        .add({.id = "other-yarn", .kind = "rule", .subject = "install", .predicate = "use", .object = "yarn", .stated = now, .project = "p2"});
    CHECK(plan_of(memories).empty());
}

TEST_CASE("triples-conflicts: from a host older than ABI 1.4, which passes no fields, the plan is empty",
          "[policies][triples]") {
    RuleMemories memories{now, /*before_1_4=*/true};
    memories.add({.id = "npm", .kind = "rule", .subject = "install", .predicate = "use", .object = "npm", .stated = now - 10 * day})
        .add({.id = "pnpm", .kind = "rule", .subject = "install", .predicate = "use", .object = "pnpm", .stated = now - day});
    CHECK(plan_of(memories).empty());
}
