// SPDX-License-Identifier: Apache-2.0
// The viewer over a real store: routing, escaping of what memories say, and the writes its forms
// make, refused when the file changed since the page showed it.
#include <starling/app/ui/memory_version.hpp>
#include <starling/app/ui/http_exchange.hpp>

#include "viewer_fixture.hpp"

#include <starling/core/lifecycle/receipts.hpp>
#include <starling/core/lifecycle/session_log.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/record/memory_links.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <vector>

using starling::test::ViewerFixture;

namespace {

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

/// The value of the hidden `version` field of the page's first form.
std::string version_on(const std::string &html) {
    std::smatch match;
    REQUIRE(std::regex_search(html, match, std::regex{"name=\"version\" value=\"([0-9a-f]{64})\""}));
    return match[1];
}

std::string location_of(const starling::app::ui::HttpResponse &response) {
    for (const auto &[name, value] : response.headers) {
        if (name == "Location") {
            return value;
        }
    }
    return {};
}

void append_to(const std::filesystem::path &file, const std::string &text) {
    std::ofstream stream(file, std::ios::app);
    stream << text;
}

} // namespace

TEST_CASE("every page answers, each in its place of the navigation", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Deploys go through the staging cluster", "Use make deploy-staging first.");
    const auto id = fixture.id_of(key);
    for (const auto &[target, marker] : std::vector<std::pair<std::string, std::string>>{
             {"/", "<h1>Overview</h1>"},
             {"/memories", "<h1>Memories</h1>"},
             {"/memory?id=" + id, "<h1>Memory " + id + "</h1>"},
             {"/sessions", "<h1>Sessions</h1>"},
             {"/archive", "<h1>Archive</h1>"},
             {"/sharing", "<h1>Sharing</h1>"}}) {
        const auto response = fixture.handle(ViewerFixture::get(target));
        INFO(target);
        CHECK(response.status == 200);
        CHECK(contains(response.body, marker));
    }
    const auto css = fixture.handle(ViewerFixture::get("/assets/style.css"));
    CHECK(css.content_type.starts_with("text/css"));
    CHECK(contains(css.body, "svg.chart"));
}

TEST_CASE("the overview counts the memories and shows the health findings with their advice", "[ui][viewer]") {
    ViewerFixture fixture;
    static_cast<void>(fixture.add_memory("First", "one"));
    static_cast<void>(fixture.add_memory("Second", "two"));
    const auto body = fixture.handle(ViewerFixture::get("/")).body;
    CHECK(contains(body, "<h2>2 memories</h2>"));
    CHECK(contains(body, "Stale memories"));
    CHECK(contains(body, "review them"));
    CHECK(contains(body, "<svg class=\"chart\""));
}

TEST_CASE("unknown paths are 404, and a form's address read or a page posted to is 405", "[ui][viewer]") {
    ViewerFixture fixture;
    CHECK(fixture.handle(ViewerFixture::get("/nowhere")).status == 404);
    CHECK(fixture.handle(ViewerFixture::get("/memory/forget?id=x")).status == 405);
    CHECK(fixture.handle(ViewerFixture::post("/memories", "q=x")).status == 405);
    CHECK(fixture.handle(ViewerFixture::get("/memory?id=zzzzzzz")).status == 404);
    CHECK(fixture.handle(ViewerFixture::get("/memory?id=/etc/passwd")).status == 400);
    CHECK(fixture.handle(ViewerFixture::get("/session?id=../../etc")).status == 400);
}

TEST_CASE("a request the guard refuses reaches no page", "[ui][viewer]") {
    ViewerFixture fixture;
    static_cast<void>(fixture.add_memory("Secret plans", "nothing to see"));
    auto request = ViewerFixture::get("/memories");
    request.cookie.clear();
    const auto response = fixture.handle(request);
    CHECK(response.status == 403);
    CHECK_FALSE(contains(response.body, "Secret plans"));
}

TEST_CASE("a memory's HTML is shown as text everywhere", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("<script>alert(1)</script> summary", "<script>alert(1)</script><img src=x>");
    const auto id = fixture.id_of(key);
    for (const auto &target : {std::string{"/memory?id="} + id, std::string{"/memories"}, std::string{"/memories?q=alert"}}) {
        const auto body = fixture.handle(ViewerFixture::get(target)).body;
        INFO(target);
        CHECK_FALSE(contains(body, "<script>"));
        CHECK_FALSE(contains(body, "<img src=x>"));
        CHECK(contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    }
}

TEST_CASE("the memories page filters and searches", "[ui][viewer]") {
    ViewerFixture fixture;
    static_cast<void>(fixture.add_memory("Deploy with the staging cluster", "deploy staging"));
    const auto pinned = fixture.add_memory("Commit messages in English", "write commit messages in English");
    fixture.application().store().update(pinned, [](starling::core::Memory &memory) { memory.pinned = true; });
    const auto all = fixture.handle(ViewerFixture::get("/memories")).body;
    CHECK(contains(all, "2 of 2 memories"));
    const auto only_pinned = fixture.handle(ViewerFixture::get("/memories?pinned=yes")).body;
    CHECK(contains(only_pinned, "1 of 2 memories"));
    CHECK(contains(only_pinned, "Commit messages"));
    const auto searched = fixture.handle(ViewerFixture::get("/memories?q=staging+deploy")).body;
    CHECK(contains(searched, "Deploy with the staging cluster"));
    CHECK_FALSE(contains(searched, "Commit messages in English"));
    CHECK(contains(fixture.handle(ViewerFixture::get("/memories?tier=short")).body, "0 of 2 memories"));
    CHECK(fixture.handle(ViewerFixture::get("/memories?page=x")).status == 400);
}

TEST_CASE("an edit is saved through the store, redacted, and the page says so", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Old summary", "old text");
    const auto id = fixture.id_of(key);
    const auto version = version_on(fixture.handle(ViewerFixture::get("/memory?id=" + id)).body);
    const auto response = fixture.handle(ViewerFixture::post(
        "/memory/edit", "id=" + id + "&version=" + version +
                            "&summary=New+summary&type=reference&tags=a%2C+b&body=new+text%0D%0Awith+key+"
                            "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"));
    CHECK(response.status == 303);
    CHECK(location_of(response) == "/memory?id=" + id + "&done=edited");
    const auto memory = fixture.application().store().read(key);
    CHECK(memory.summary == "New summary");
    CHECK(memory.tags == std::vector<std::string>{"a", "b"});
    CHECK(memory.body.starts_with("new text\nwith key "));
    CHECK_FALSE(contains(memory.body, "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R")); // redacted as every write is
    CHECK(contains(fixture.handle(ViewerFixture::get(location_of(response))).body, "Saved."));
}

TEST_CASE("an edit of a file changed since it was shown is refused, and the change on disk kept", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Shown summary", "shown text");
    const auto id = fixture.id_of(key);
    const auto version = version_on(fixture.handle(ViewerFixture::get("/memory?id=" + id)).body);
    const auto path = fixture.application().store().path_of(key);
    append_to(path, "\nchanged by hand\n");
    const auto on_disk = starling::core::read_file(path);
    const auto response = fixture.handle(ViewerFixture::post(
        "/memory/edit", "id=" + id + "&version=" + version + "&summary=Mine&type=reference&tags=&body=my+text"));
    CHECK(response.status == 409);
    CHECK(contains(response.body, "changed on disk since this page showed it"));
    CHECK(contains(response.body, "my text")); // what was typed, to copy
    CHECK(starling::core::read_file(path) == on_disk);
    CHECK(version_on(response.body) == starling::app::ui::memory_version(on_disk)); // the page shows the new file
}

TEST_CASE("pin, forget and restore go through the store and check the version too", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Keep me", "text");
    const auto id = fixture.id_of(key);
    auto version = version_on(fixture.handle(ViewerFixture::get("/memory?id=" + id)).body);
    CHECK(fixture.handle(ViewerFixture::post("/memory/pin", "id=" + id + "&version=" + version + "&pinned=yes")).status == 303);
    CHECK(fixture.application().store().read(key).pinned);
    // The pin changed the file: the old version no longer forgets it.
    const auto stale = fixture.handle(ViewerFixture::post("/memory/forget", "id=" + id + "&version=" + version));
    CHECK(stale.status == 409);
    CHECK(fixture.application().store().contains(key));
    version = version_on(fixture.handle(ViewerFixture::get("/memory?id=" + id)).body);
    const auto forgotten = fixture.handle(ViewerFixture::post("/memory/forget", "id=" + id + "&version=" + version));
    CHECK(forgotten.status == 303);
    CHECK_FALSE(fixture.application().store().contains(key));
    const auto archived = fixture.application().store().archived();
    REQUIRE(archived.size() == 1);
    CHECK(archived.front().reason == "forgotten in starling ui");
    CHECK(contains(fixture.handle(ViewerFixture::get(location_of(forgotten))).body, archived.front().id));
    const auto restored = fixture.handle(ViewerFixture::post("/archive/restore", "archive=" + archived.front().id));
    CHECK(restored.status == 303);
    CHECK(fixture.application().store().contains(key));
}

TEST_CASE("a form without the version it was made from is refused", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Summary", "text");
    const auto response = fixture.handle(ViewerFixture::post("/memory/pin", "id=" + fixture.id_of(key) + "&pinned=yes"));
    CHECK(response.status == 400);
    CHECK_FALSE(fixture.application().store().read(key).pinned);
}

TEST_CASE("update_if_unchanged writes at the shown version and refuses at another", "[ui][viewer]") {
    ViewerFixture fixture;
    auto &store = fixture.application().store();
    const auto key = fixture.add_memory("Summary", "text");
    const auto shown = starling::app::ui::current_version(store, key);
    starling::app::ui::update_if_unchanged(store, key, shown, [](starling::core::Memory &memory) { memory.body = "next"; });
    CHECK(store.read(key).body == "next");
    CHECK_THROWS_AS(starling::app::ui::update_if_unchanged(store, key, shown,
                                                           [](starling::core::Memory &memory) { memory.body = "lost"; }),
                    starling::app::ui::EditConflict);
    CHECK(store.read(key).body == "next");
}

TEST_CASE("a search asked again ranks the store as it is now, not as it was", "[ui][viewer]") {
    ViewerFixture fixture;
    static_cast<void>(fixture.add_memory("Deploy with the staging cluster", "deploy staging"));
    const auto other = fixture.add_memory("Commit messages in English", "write commit messages in English");
    CHECK(contains(fixture.handle(ViewerFixture::get("/memories?q=staging")).body, "1 of 2 memories"));
    CHECK(contains(fixture.handle(ViewerFixture::get("/memories?q=staging")).body, "1 of 2 memories"));
    fixture.application().store().update(other, [](starling::core::Memory &memory) {
        memory.summary = "Staging commits are squashed";
        memory.body = "squash staging commits";
    });
    CHECK(contains(fixture.handle(ViewerFixture::get("/memories?q=staging")).body, "2 of 2 memories"));
}

// What `starling ui` does once it serves: the searches after it rank as if it had not, and follow
// the store's edits.
TEST_CASE("searches prepared at start rank as unprepared ones, and follow edits", "[ui][viewer]") {
    ViewerFixture fixture;
    static_cast<void>(fixture.add_memory("Deploy with the staging cluster", "deploy staging"));
    static_cast<void>(fixture.add_memory("Commit messages in English", "write commit messages in English"));
    const auto unprepared = fixture.handle(ViewerFixture::get("/memories?q=staging+commit")).body;
    ViewerFixture prepared_fixture;
    static_cast<void>(prepared_fixture.add_memory("Deploy with the staging cluster", "deploy staging"));
    const auto prepared_other = prepared_fixture.add_memory("Commit messages in English", "write commit messages in English");
    prepared_fixture.viewer().prepare_search();
    const auto prepared = prepared_fixture.handle(ViewerFixture::get("/memories?q=staging+commit")).body;
    CHECK(contains(prepared, "2 of 2 memories"));
    const auto scores = [](const std::string &page) {
        std::vector<std::string> found;
        const std::regex score{"<td class=\"number\">([0-9.]+)</td>"};
        for (auto match = std::sregex_iterator(page.begin(), page.end(), score); match != std::sregex_iterator(); ++match) {
            found.push_back((*match)[1]);
        }
        return found;
    };
    CHECK(scores(prepared) == scores(unprepared));
    CHECK(scores(prepared).size() == 2);

    prepared_fixture.application().store().update(prepared_other, [](starling::core::Memory &memory) {
        memory.summary = "Review rules";
        memory.body = "sort findings into blockers and nits";
    });
    CHECK(contains(prepared_fixture.handle(ViewerFixture::get("/memories?q=staging+commit")).body, "1 of 2 memories"));
}

TEST_CASE("a superseded memory is restored from its page: both are injected again", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto newer = fixture.add_memory("Deploy from main", "deploy from the main branch");
    const auto older = fixture.add_memory("Deploy from release branches", "deploy from release branches");
    fixture.application().store().update(older, [&](starling::core::Memory &memory) {
        starling::core::supersede(memory, fixture.id_of(newer));
    });
    const auto id = fixture.id_of(older);
    const auto page = fixture.handle(ViewerFixture::get("/memory?id=" + id)).body;
    CHECK(contains(page, "superseded by"));
    CHECK(contains(page, "Restore (no longer superseded)"));
    const auto lifted = fixture.handle(ViewerFixture::post("/memory/restore", "id=" + id + "&version=" + version_on(page)));
    CHECK(lifted.status == 303);
    CHECK(fixture.application().store().read(older).superseded_by.empty());
    CHECK(contains(fixture.handle(ViewerFixture::get(location_of(lifted))).body, "No longer superseded"));
}

TEST_CASE("a memory's page says what its links mean and never shows it without what changed it in part",
          "[ui][viewer]") {
    ViewerFixture fixture;
    const auto older = fixture.add_memory("CI uses Node 18; the dev boxes use Node 18 too", "");
    const auto newer = fixture.add_memory("CI uses Node 20 now", "");
    const auto alike = fixture.add_memory("Dev boxes run Node 18", "");
    auto &store = fixture.application().store();
    store.update(older, [&](starling::core::Memory &memory) {
        starling::core::add_link(memory, starling::core::amended_by_link_relation, fixture.id_of(newer));
        starling::core::add_link(memory, starling::core::alike_link_relation, fixture.id_of(alike));
        starling::core::add_link(memory, "related", "zzzzzzz"); // gone: archived or deleted by hand
    });
    store.update(newer, [&](starling::core::Memory &memory) {
        starling::core::add_link(memory, starling::core::amends_link_relation, fixture.id_of(older));
    });

    const auto page = fixture.handle(ViewerFixture::get("/memory?id=" + fixture.id_of(older))).body;
    CHECK(contains(page, "Changed in part since (<a href=\"/memory?id=" + fixture.id_of(newer) +
                             "\">" + fixture.id_of(newer) + "</a>, newer): CI uses Node 20 now"));
    CHECK(contains(page, "<td>changed in part by (newer)</td>"));
    CHECK(contains(page, "<td>said alike, kept apart</td>"));
    CHECK(contains(page, "<td>Dev boxes run Node 18</td>"));
    CHECK(contains(page, "gone (archived or deleted)"));
    CHECK_FALSE(contains(page, "amended_by"));

    const auto changer = fixture.handle(ViewerFixture::get("/memory?id=" + fixture.id_of(newer))).body;
    CHECK(contains(changer, "<td>changes in part (older)</td>"));
    CHECK_FALSE(contains(changer, "Changed in part since"));
}

TEST_CASE("a memory's page shows its history, and the viewer's own changes join it", "[ui][viewer][provenance]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Deploys go through staging", "Deploys go through staging first.");
    const auto id = fixture.id_of(key);
    auto &store = fixture.application().store();
    starling::core::ProvenanceEvent origin;
    origin.time = store.clock().now();
    origin.kind = starling::core::ProvenanceKind::created;
    origin.agent = "claude-code";
    origin.session = "s-1";
    origin.message = "s-1#0";
    origin.text = "remember: deploys go through <b>staging</b> first";
    origin.decision = "reference, user";
    origin.reason = "STEP 3d: where an external system lives";
    starling::core::record_provenance(store.root(), store.redactor(), id, origin);

    const auto page = fixture.handle(ViewerFixture::get("/memory?id=" + id)).body;
    CHECK(contains(page, "id=\"history\""));
    CHECK(contains(page, "by claude-code in session <a href=\"/session?id=s-1\">s-1</a>, message 1"));
    CHECK(contains(page, "remember: deploys go through &lt;b&gt;staging&lt;/b&gt; first")); // escaped, its log gone
    CHECK(contains(page, "reference, user — STEP 3d: where an external system lives"));

    const auto version = version_on(page);
    REQUIRE(fixture.handle(ViewerFixture::post("/memory/edit", "id=" + id + "&version=" + version +
                                                                   "&summary=Deploys+go+through+staging+first&type=reference&tags=&body=Deploys+go+through+staging+first%2C+always."))
                .status == 303);
    const auto edited = fixture.handle(ViewerFixture::get("/memory?id=" + id)).body;
    CHECK(contains(edited, "edited by ui"));
    CHECK(contains(edited, "changed its summary and text"));
}

TEST_CASE("a session's page shows the receipts of its injections and its decisions", "[ui][viewer][receipts]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Use pnpm", "I prefer pnpm over npm.");
    const auto id = fixture.id_of(key);
    auto &store = fixture.application().store();
    const auto sessions = store.root() / "sessions";
    std::filesystem::create_directories(sessions);
    starling::core::SessionLog log{sessions, "s-2"};
    log.append({store.clock().now(), "install the <pnpm> packages", "/work/app", "claude-code"});
    const starling::core::ReceiptLog receipts{sessions, "s-2", store.redactor()};
    starling::core::InjectionReceipt receipt;
    receipt.time = store.clock().now();
    receipt.event = "prompt";
    receipt.session = "s-2";
    receipt.message = 0;
    receipt.budget_tokens = 1500;
    receipt.tokens = 40;
    receipt.threshold = 0.28;
    receipt.injected.push_back({key, 0.61, 40, "relevant to the prompt (score 0.61; matched: pnpm)"});
    receipt.left_out.push_back({"memory/user/long/gone.md", 0.3, 900, "left out: over the budget"});
    receipts.append(receipt);
    starling::core::DecisionReceipt decision;
    decision.time = store.clock().now();
    decision.message = 0;
    decision.action = "discarded";
    decision.reason = "STEP 1: an instruction for now";
    receipts.append(decision);

    const auto page = fixture.handle(ViewerFixture::get("/session?id=s-2")).body;
    CHECK(contains(page, "id=\"receipts\""));
    CHECK(contains(page, "prompt, "));
    CHECK(contains(page, "40 of 1500 tokens; threshold 0.28"));
    CHECK(contains(page, "/memory?id=" + id));
    CHECK(contains(page, "relevant to the prompt (score 0.61; matched: pnpm)"));
    CHECK(contains(page, "memory/user/long/gone.md <span class=\"muted\">(no longer in the store)</span>"));
    CHECK(contains(page, "discarded"));
    CHECK(contains(page, "STEP 1: an instruction for now"));
    CHECK(contains(page, "install the &lt;pnpm&gt; packages"));
}

TEST_CASE("a memory's injections are one row of its fields, in words", "[ui][viewer]") {
    ViewerFixture fixture;
    const auto key = fixture.add_memory("Injected once", "text");
    auto &store = fixture.application().store();
    store.update(key, [&](starling::core::Memory &memory) {
        starling::core::record_injections(memory, 1, store.clock().now());
    });
    const auto page = fixture.handle(ViewerFixture::get("/memory?id=" + fixture.id_of(key))).body;
    CHECK(contains(page, "<tr><th>injected</th><td>1 time, last "));
    CHECK_FALSE(contains(page, "<th>injection_count</th>"));
    CHECK_FALSE(contains(page, "<th>last_injected</th>"));
}
