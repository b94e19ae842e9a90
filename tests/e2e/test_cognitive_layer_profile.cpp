// SPDX-License-Identifier: Apache-2.0
//
// The cognitive-layer profile (claude-memory-lifecycle, seed-systems.md §5), step by step through the
// real binary on the controllable clock: entries added, linked, a cluster of three consolidated
// without losing a word, an isolated substantive entry reprieved on three days and archived on the
// fourth, a trivial one archived at once, and a decision and a user thought that never expire.
#include "support/process.hpp"
#include "support/profile_home.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::ProcessOptions;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";

nlohmann::json cli_json(const std::vector<std::string> &arguments, const ProcessOptions &options) {
    const auto result = run_process(kStarling, arguments, options);
    INFO(arguments.front() << ": " << result.stderr_text);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.stdout_text);
}

struct Entry {
    std::string id;
    std::string key; ///< where it was written; the archive names it by this key
};

/// `memory-buffer.py add <text>`: an entry the agent hands the buffer, which nobody pinned.
Entry added_entry(const ScratchHome &home, const std::string &now, const std::string &text) {
    const auto options = home.options_at(now);
    const auto stored = cli_json({"remember", "--force", "--json", "--type", "project", "--scope", "user", text}, options);
    const std::string id = stored["id"];
    static_cast<void>(cli_json({"unpin", "--json", id}, options));
    return {id, stored["key"]};
}

std::string added(const ScratchHome &home, const std::string &now, const std::string &text) {
    return added_entry(home, now, text).id;
}

/// The original keys of the archive's entries.
std::vector<std::string> archived_keys(const ScratchHome &home, const std::string &now) {
    std::vector<std::string> keys;
    for (const auto &entry : cli_json({"archive", "--json"}, home.options_at(now))) {
        keys.push_back(entry["key"]);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

std::vector<std::string> sorted(std::vector<std::string> keys) {
    std::sort(keys.begin(), keys.end());
    return keys;
}

void consolidate(const ScratchHome &home, const std::string &now) {
    static_cast<void>(cli_json({"consolidate", "--json"}, home.options_at(now)));
}

/// The memory as `starling show --json` gives it; nothing when it is no longer in the store.
std::optional<nlohmann::json> shown(const ScratchHome &home, const std::string &id, const std::string &now) {
    const auto result = run_process(kStarling, {"show", "--json", id}, home.options_at(now));
    if (result.exit_code != 0) {
        return std::nullopt;
    }
    return nlohmann::json::parse(result.stdout_text);
}

std::string field_of(const nlohmann::json &memory, const std::string &field) {
    const auto &fields = memory["other_fields"];
    if (!fields.contains(field)) {
        return "(none)";
    }
    return fields[field].is_string() ? fields[field].get<std::string>() : fields[field].dump();
}

std::string file_text(const ScratchHome &home, const std::string &id, const std::string &now) {
    return run_process(kStarling, {"show", id}, home.options_at(now)).stdout_text;
}

const std::string kLoner =
    "The release build fails with `undefined reference to sqlite3_open` unless CMakeLists.txt links SQLite::SQLite3.";
const std::string kTrivial = "fixed a typo";
const std::string kDecision =
    "#decision Use pnpm BECAUSE the monorepo needs workspaces; CONSEQUENCE: npm lockfiles are deleted.";
const std::string kThought = "#user-gedanke maybe memories should fade slower on weekends";
const std::string kFirst = "Staging deploys need kubectl rollout restart deploy/api after every configmap change.";
const std::string kSecond = "After every configmap change, staging deploys need kubectl rollout restart deploy/api.";
const std::string kThird = "Staging deploys need, after every configmap change, kubectl rollout restart deploy/api.";

/// Twenty entries on topics of their own, each too short to be substantive.
void add_unrelated(const ScratchHome &home) {
    const std::vector<std::string> words{"walrus", "quartz", "tundra", "falcon", "banjo",  "lagoon", "mosaic",
                                         "piston", "saffron", "glacier", "violin", "cobalt", "meadow", "lantern",
                                         "origami", "harbor", "thimble", "canyon", "pepper", "zephyr"};
    for (std::size_t index = 0; index < words.size(); ++index) {
        const std::string minute = (index < 10 ? "0" : "") + std::to_string(index);
        static_cast<void>(added(home, "2026-03-04T10:" + minute + ":00Z", "note on " + words[index]));
    }
}

} // namespace

TEST_CASE("the cognitive-layer profile: entries linked, a cluster of three consolidated without a lost word, a loner "
          "reprieved three times then archived, a trivial entry archived at once, decisions kept for good",
          "[cli][profiles][cognitive-layer]") {
    ScratchHome home{"cognitive-layer"};
    starling::test::use_profile_in_foreground(home, "cognitive-layer");

    // Phase 1, Buffer: everything goes in.
    const Entry loner_entry = added_entry(home, "2026-03-02T09:00:00Z", kLoner);
    const Entry trivial_entry = added_entry(home, "2026-03-02T09:01:00Z", kTrivial);
    const std::string loner = loner_entry.id;
    const std::string trivial = trivial_entry.id;
    const std::string decision = added(home, "2026-03-02T09:02:00Z", kDecision);
    const std::string thought = added(home, "2026-03-02T09:03:00Z", kThought);
    const std::string first = added(home, "2026-03-02T09:04:00Z", kFirst);
    const Entry second_entry = added_entry(home, "2026-03-02T09:05:00Z", kSecond);
    const std::string second = second_entry.id;

    // Phase 2, Connect: the two deploy entries link to each other; each entry gets its type.
    consolidate(home, "2026-03-02T09:10:00Z");
    const auto first_now = *shown(home, first, "2026-03-02T09:11:00Z");
    const auto second_now = *shown(home, second, "2026-03-02T09:11:00Z");
    CHECK(field_of(first_now, "links") == "[connected:" + second + "]");
    CHECK(field_of(second_now, "links") == "[connected:" + first + "]");
    CHECK(field_of(*shown(home, decision, "2026-03-02T09:11:00Z"), "entry_type") == "decision");
    CHECK(field_of(*shown(home, thought, "2026-03-02T09:11:00Z"), "entry_type") == "user-gedanke");
    CHECK(field_of(*shown(home, loner, "2026-03-02T09:11:00Z"), "links") == "(none)");

    // Phase 3, Consolidate: a third makes a cluster; it is merged into the oldest, which is proven.
    const Entry third_entry = added_entry(home, "2026-03-03T09:00:00Z", kThird);
    const std::string third = third_entry.id;
    consolidate(home, "2026-03-03T09:10:00Z");
    CHECK_FALSE(shown(home, second, "2026-03-03T09:11:00Z"));
    CHECK_FALSE(shown(home, third, "2026-03-03T09:11:00Z"));
    const auto consolidated = *shown(home, first, "2026-03-03T09:11:00Z");
    CHECK_THAT(consolidated["key"].get<std::string>(), Catch::Contains("/long/"));
    CHECK(field_of(consolidated, "consolidated") == "2026-03-03");
    const std::string text = file_text(home, first, "2026-03-03T09:11:00Z");
    CHECK_THAT(text, Catch::Contains(kFirst) && Catch::Contains(kSecond) && Catch::Contains(kThird));
    CHECK(archived_keys(home, "2026-03-03T09:12:00Z") == sorted({second_entry.key, third_entry.key}));

    // Twenty more entries make the first six old by count; they are two days newer.
    add_unrelated(home);

    // Phase 5, Age, one week on: the trivial entry goes at once, the substantive loner is reprieved —
    // once that day, however often consolidation runs.
    consolidate(home, "2026-03-11T09:00:00Z");
    CHECK_FALSE(shown(home, trivial, "2026-03-11T09:01:00Z"));
    auto loner_now = *shown(home, loner, "2026-03-11T09:01:00Z");
    CHECK(field_of(loner_now, "reprieve_count") == "1");
    CHECK(field_of(loner_now, "last_reprieved") == "2026-03-11");
    consolidate(home, "2026-03-11T15:00:00Z");
    consolidate(home, "2026-03-11T18:00:00Z");
    CHECK(field_of(*shown(home, loner, "2026-03-11T18:01:00Z"), "reprieve_count") == "1");

    consolidate(home, "2026-03-12T09:00:00Z");
    CHECK(field_of(*shown(home, loner, "2026-03-12T09:01:00Z"), "reprieve_count") == "2");
    consolidate(home, "2026-03-13T09:00:00Z");
    CHECK(field_of(*shown(home, loner, "2026-03-13T09:01:00Z"), "reprieve_count") == "3");
    consolidate(home, "2026-03-14T09:00:00Z");
    CHECK_FALSE(shown(home, loner, "2026-03-14T09:01:00Z"));

    // Archived, not deleted: every entry that left the store is in the archive, with its text.
    CHECK(archived_keys(home, "2026-03-14T09:02:00Z") ==
          sorted({loner_entry.key, trivial_entry.key, second_entry.key, third_entry.key}));

    // Decisions and the user's thoughts never expire, a year on; the proven memory stays too.
    consolidate(home, "2027-03-14T09:00:00Z");
    CHECK(shown(home, decision, "2027-03-14T09:01:00Z"));
    CHECK(shown(home, thought, "2027-03-14T09:01:00Z"));
    CHECK(shown(home, first, "2027-03-14T09:01:00Z"));
}

TEST_CASE("the cognitive-layer profile: the same text added twice is one entry", "[cli][profiles][cognitive-layer]") {
    ScratchHome home{"cognitive-layer-duplicates"};
    starling::test::use_profile_in_foreground(home, "cognitive-layer");
    const std::string once = added(home, "2026-03-02T09:00:00Z", kLoner);
    const std::string again = added(home, "2026-03-02T09:01:00Z", "  " + kLoner + "  ");
    CHECK(once == again);
    CHECK(cli_json({"list", "--json"}, home.options_at("2026-03-02T09:02:00Z")).size() == 1);
}
