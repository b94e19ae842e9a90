// SPDX-License-Identifier: Apache-2.0
//
// collie-tree through the plugin host, as Starling runs it: the static plugin, its declared default
// settings, decisions over JSON. The labelled sets are scored as a whole against the accuracy bars;
// the other cases pin each rule family in each language.
#include <starling/core/config/config_error.hpp>
#include <starling/core/config/config_loader.hpp>
#include <starling/core/config/plugin_settings.hpp>
#include <starling/plugins/plugin_registry.hpp>

#include <support/config_temp_files.hpp>

#include <catch2/catch.hpp>

#include "support/quiet_logger.hpp"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fs = std::filesystem;
using starling::sdk::Decision;
using starling::sdk::Message;

using starling::test::quiet_logger;

namespace {

const fs::path kFixtures{STARLING_TEST_DECISION_FIXTURES};
const fs::path kDevelopmentSet = fs::path{STARLING_TEST_SHARED_DIR} / "data" / "decisions" / "dev.jsonl";

/// collie-tree created by the host with its declared defaults, patched with `overrides_json`.
class CollieTree {
public:
    explicit CollieTree(std::string_view overrides_json = "{}") : registry_{quiet_logger()} {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(default_settings_json());
        settings.merge_patch(nlohmann::json::parse(overrides_json));
        policy_.emplace(registry_.create_decision_policy("collie-tree", settings.dump()));
    }

    [[nodiscard]] std::string default_settings_json() const {
        const auto *info = registry_.find("collie-tree");
        REQUIRE(info != nullptr);
        return info->default_settings_json;
    }

    [[nodiscard]] std::vector<Decision> decide(const std::vector<std::string> &texts) const {
        std::vector<Message> messages;
        for (const auto &text : texts) {
            messages.push_back({text, "claude-code", "demo-project"});
        }
        return policy_->decide(messages);
    }

    [[nodiscard]] Decision decide(const std::string &text) const {
        auto decisions = decide(std::vector<std::string>{text});
        REQUIRE(decisions.size() == 1);
        return decisions.front();
    }

    /// The decision on `text` handed over with `remember` (ABI 1.9 asked_to_keep), said in
    /// `project` (empty: outside any project).
    [[nodiscard]] Decision decide_asked_to_keep(const std::string &text, const std::string &project) const {
        Message message{text, "cli", project};
        message.asked_to_keep = true;
        auto decisions = policy_->decide({message});
        REQUIRE(decisions.size() == 1);
        return decisions.front();
    }

    [[nodiscard]] std::string review_request(int count, const std::string &log,
                                             const std::string &agent) const {
        return policy_->review_request({count, log, agent});
    }

private:
    starling::plugins::PluginRegistry registry_;
    std::optional<starling::plugins::DecisionPolicyInstance> policy_;
};

const CollieTree &default_tree() {
    static const CollieTree tree;
    return tree;
}

struct Labelled {
    std::string id;
    std::string text;
    bool store = false;
    std::vector<std::string> types; ///< accepted types when stored
    std::string scope;
};

std::vector<Labelled> read_labelled(const fs::path &file) {
    std::ifstream in{file};
    REQUIRE(in.good());
    std::vector<Labelled> items;
    for (std::string line; std::getline(in, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const auto json = nlohmann::json::parse(line);
        Labelled item{json.at("id").get<std::string>(),
                      json.at("text").get<std::string>(),
                      json.at("expect").get<std::string>() == "store",
                      {},
                      json.value("scope", "")};
        if (const auto types = json.find("type"); types != json.end()) {
            item.types = types->get<std::vector<std::string>>();
        }
        items.push_back(std::move(item));
    }
    REQUIRE_FALSE(items.empty());
    return items;
}

struct Accuracy {
    std::size_t decisions = 0;
    std::size_t right_decisions = 0;
    std::size_t stored = 0;
    std::size_t right_type_and_scope = 0;
    std::vector<std::string> misses;

    [[nodiscard]] double decision_rate() const {
        return static_cast<double>(right_decisions) / static_cast<double>(decisions);
    }
    [[nodiscard]] double type_and_scope_rate() const {
        return stored == 0 ? 1.0 : static_cast<double>(right_type_and_scope) / static_cast<double>(stored);
    }
};

Accuracy score(const CollieTree &tree, const std::vector<Labelled> &items) {
    std::vector<std::string> texts;
    std::transform(items.begin(), items.end(), std::back_inserter(texts),
                   [](const Labelled &item) { return item.text; });
    const auto decisions = tree.decide(texts);
    REQUIRE(decisions.size() == items.size());
    Accuracy accuracy;
    for (std::size_t index = 0; index < items.size(); ++index) {
        const auto &item = items[index];
        const auto &decision = decisions[index];
        ++accuracy.decisions;
        const bool right_decision = decision.store == item.store;
        accuracy.right_decisions += right_decision ? 1 : 0;
        bool right_class = true;
        if (item.store) {
            ++accuracy.stored;
            right_class = right_decision && decision.scope == item.scope &&
                          std::find(item.types.begin(), item.types.end(), decision.type) != item.types.end();
            accuracy.right_type_and_scope += right_class ? 1 : 0;
        }
        if (!right_decision || !right_class) {
            accuracy.misses.push_back(
                item.id + " \"" + item.text + "\" -> " +
                (decision.store ? "store " + decision.type + "/" + decision.scope : std::string{"discard"}) +
                " (" + decision.reason + ")");
        }
    }
    return accuracy;
}

void require_bars(const fs::path &file, double decision_bar, double type_and_scope_bar) {
    const auto accuracy = score(default_tree(), read_labelled(file));
    INFO(file.filename().string() << ": decisions " << accuracy.right_decisions << "/" << accuracy.decisions
                                  << ", type and scope " << accuracy.right_type_and_scope << "/"
                                  << accuracy.stored);
    for (const auto &miss : accuracy.misses) {
        INFO("miss: " << miss);
    }
    CHECK(accuracy.decision_rate() >= decision_bar);
    CHECK(accuracy.type_and_scope_rate() >= type_and_scope_bar);
}

struct Expected {
    std::string text;
    std::string reason_start;
};

struct ExpectedStore {
    std::string text;
    std::string type;
    std::string scope;
};

void require_discards(const std::vector<Expected> &cases) {
    for (const auto &expected : cases) {
        const auto decision = default_tree().decide(expected.text);
        INFO(expected.text << " -> " << decision.reason);
        CHECK_FALSE(decision.store);
        CHECK_THAT(decision.reason, Catch::StartsWith(expected.reason_start));
    }
}

void require_stores(const std::vector<ExpectedStore> &cases) {
    for (const auto &expected : cases) {
        const auto decision = default_tree().decide(expected.text);
        INFO(expected.text << " -> " << decision.reason);
        CHECK(decision.store);
        CHECK(decision.type == expected.type);
        CHECK(decision.scope == expected.scope);
    }
}

bool contains(const std::vector<std::string> &items, const std::string &item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

} // namespace

TEST_CASE("collie-tree is a static decision policy whose lexicons cover three languages",
          "[policy][collie-tree]") {
    starling::plugins::PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    const auto *info = registry.find("collie-tree");
    REQUIRE(info != nullptr);
    CHECK(starling::plugins::kind_name(info->kind) == "decision");
    const auto defaults = nlohmann::json::parse(info->default_settings_json);
    REQUIRE(defaults.is_object());
    CHECK(defaults.at("extra_cues").empty());
    for (const auto *language : {"en", "de", "zh"}) {
        const auto &lexicon = defaults.at("cues").at(language);
        for (const auto *rule :
             {"knowledge_question", "operation_request", "one_shot", "visible_in_code", "debug_conclusion",
              "standing_instruction", "correction", "preference", "role", "project_scope", "project_fact",
              "constraint", "location", "remember", "opinion", "acknowledgement"}) {
            INFO(language << "." << rule);
            CHECK_FALSE(lexicon.at(rule).empty());
        }
    }
}

TEST_CASE("STEP 0 vetoes knowledge questions in every language", "[policy][collie-tree]") {
    require_discards({
        {"What is the difference between a process and a thread?", "STEP 0 veto: knowledge question"},
        {"Explain how TLS session resumption works.", "STEP 0 veto: knowledge question"},
        {"Was ist ein Monoid?", "STEP 0 veto: knowledge question"},
        {"Wie funktioniert Garbage Collection in Go?", "STEP 0 veto: knowledge question"},
        {"什么是协程？", "STEP 0 veto: knowledge question"},
        {"Redis 和 Memcached 有什么区别？", "STEP 0 veto: knowledge question"},
    });
}

TEST_CASE("a question word that opens a relative clause after a comma asks nothing", "[policy][collie-tree]") {
    for (const char *statement : {"Invoices are generated on the first of each month by the billing worker, which "
                                  "Lena maintains.",
                                  "We deploy with Helm charts, which ArgoCD syncs to the cluster.",
                                  "Payments are owned by Tomasz, who reviews every schema change.",
                                  "Logs go to Loki, where they are kept for 30 days.",
                                  "Die Rechnungen erzeugt der Billing-Worker, welchen Lena pflegt.",
                                  "Wir deployen nach Frankfurt, wo auch die Datenbank liegt."}) {
        const auto decision = default_tree().decide(statement);
        INFO(statement << " -> " << decision.reason);
        CHECK_THAT(decision.reason, !Catch::Contains("knowledge question"));
    }
    // At the start of a sentence, after clause openers too, they still ask.
    require_discards({
        {"Which port does the billing API listen on", "STEP 0 veto: knowledge question"},
        {"So which port does the billing API listen on", "STEP 0 veto: knowledge question"},
        {"Who maintains the billing worker", "STEP 0 veto: knowledge question"},
        {"Wo liegt die Datenbank", "STEP 0 veto: knowledge question"},
        {"Ok, which port does the billing API listen on?", "STEP 0 veto: knowledge question"},
    });
}

TEST_CASE("STEP 0 vetoes in-session operation requests in every language", "[policy][collie-tree]") {
    require_discards({
        {"Please rename this function to load_config.", "STEP 0 veto: in-session operation request"},
        {"Run the linter again.", "STEP 0 veto: in-session operation request"},
        {"Verschiebe die Konstante in die Datei config.hpp.", "STEP 0 veto: in-session operation request"},
        {"Kannst du diesen Test nochmal laufen lassen?", "STEP 0 veto"},
        {"把超时时间改成 30 秒。", "STEP 0 veto: in-session operation request"},
        {"帮我看一下这个报错。", "STEP 0 veto: in-session operation request"},
        {"提交一下。", "STEP 0 veto: in-session operation request"},
        {"帮我用英文写一封邮件。", "STEP 0 veto: in-session operation request"},
    });
}

TEST_CASE("a polite request is one request: \"please\" adds no weight to the verb after it, so a standing rule asked "
          "for politely is kept",
          "[policy][collie-tree]") {
    require_discards({
        {"Please rename this function to load_config.", "STEP 0 veto: in-session operation request (cue: 'rename')"},
        {"Bitte schreib einen Test für den Parser.", "STEP 0 veto: in-session operation request (cue: 'schreib')"},
        {"请把超时时间改成 30 秒。", "STEP 0 veto: in-session operation request"},
    });
    require_stores({
        {"Bitte schreib Commit-Nachrichten immer auf Englisch.", "feedback", "user"},
        {"Please run the tests before every commit.", "feedback", "user"},
        {"Bitte führe vor jedem Commit die Tests aus.", "feedback", "user"},
    });
}

TEST_CASE("STEP 0 vetoes what the code shows and debug conclusions in every language",
          "[policy][collie-tree]") {
    require_discards({
        {"The handler is implemented in src/http/handler.go.", "STEP 0 veto: information visible in code"},
        {"Die Klasse ist in src/core/cache.hpp deklariert.", "STEP 0 veto: information visible in code"},
        {"这个类声明在 include/cache.h 里。", "STEP 0 veto: information visible in code"},
        {"The crash was caused by an unchecked null return.", "STEP 0 veto: debug conclusion"},
        {"Der Fehler wurde durch einen Überlauf im Puffer verursacht.", "STEP 0 veto: debug conclusion"},
        {"这次超时是因为连接池满了。", "STEP 0 veto: debug conclusion"},
    });
}

TEST_CASE("STEP 1 discards opinions, acknowledgements and messages without consequence",
          "[policy][collie-tree]") {
    require_discards({
        {"Personally I find Kotlin prettier than Java.", "STEP 1: opinion"},
        {"Ich finde Go eleganter als Java.", "STEP 1: opinion"},
        {"我觉得 Go 比 Java 优雅。", "STEP 1: opinion"},
        {"Thanks, that did it.", "STEP 1: acknowledgement"},
        {"Danke, passt so.", "STEP 1: acknowledgement"},
        {"收到，谢谢。", "STEP 1: acknowledgement"},
        {"The weather was lovely on the weekend.", "STEP 1: the next session would do nothing differently"},
    });
}

TEST_CASE("a greeting that opens a message takes nothing from what the message says, and alone keeps nothing",
          "[policy][collie-tree]") {
    require_stores({
        {"hi, backend dev here. our payments service runs on port 8081 and the ledger service on port 8082",
         "project", "project"},
        {"Hallo! Kurz zum Projekt: wir deployen nur dienstags, nie freitags.", "project", "project"},
        {"你好，我们的接口一律返回 UTC 时间，前端自己转换时区。", "feedback", "project"},
    });
    for (const std::string text : {"hi", "Hallo!", "你好", "hey there, good morning"}) {
        INFO(text);
        CHECK_FALSE(default_tree().decide(text).store);
    }
}

TEST_CASE("a plain fact or instruction a person asked to keep is kept, and a question or thanks is dropped anyway",
          "[policy][collie-tree][asked-to-keep]") {
    for (const std::string text : {"The staging database is db-staging-1.", "Jonas owns the billing service.",
                                   "Die Staging-Datenbank ist db2.", "测试环境的数据库是 db-staging-1。"}) {
        INFO(text);
        const auto in_project = default_tree().decide_asked_to_keep(text, "demo-project");
        CHECK(in_project.store);
        CHECK(in_project.type == "project");
        CHECK(in_project.scope == "project");
    }
    // Said to an agent, a statement of the setup is kept for itself ("staging" and "database"); one
    // with nothing that asks for a later session is let go by capture.
    CHECK(default_tree().decide("The staging database is db-staging-1.").store);
    CHECK(default_tree().decide("Die Staging-Datenbank ist db2.").store);
    CHECK(default_tree().decide("测试环境的数据库是 db-staging-1。").store);
    CHECK_FALSE(default_tree().decide("Jonas owns the billing service.").store);
    CHECK_FALSE(default_tree().decide("Der Staging-Server heißt kranich.").store);
    // A cue too weak to keep it alone still names what it is ("staging": a project fact); with none,
    // the asking decides, and outside any project the fact is the user's.
    CHECK_THAT(default_tree().decide_asked_to_keep("Der Staging-Server heißt kranich.", "demo-project").reason,
               Catch::Contains("project fact") && Catch::Contains("'staging'"));
    const std::string bare = "Jonas owns the billing service.";
    CHECK_THAT(default_tree().decide_asked_to_keep(bare, "demo-project").reason,
               Catch::Contains("asked to keep with remember"));
    const auto outside = default_tree().decide_asked_to_keep(bare, "");
    CHECK(outside.store);
    CHECK(outside.type == "user");
    CHECK(outside.scope == "user");
    // What carries a signal is classified by it, asked or not.
    const auto preference = default_tree().decide_asked_to_keep("I prefer pnpm over npm.", "demo-project");
    CHECK(preference.type == "user");
    CHECK(preference.scope == "user");
    // Handed over on purpose, an imperative is a standing instruction and a sentence that opens with
    // a word like "commit" a fact; said in a session, the same text is a request for now.
    for (const std::string text : {"Push access to main is limited to the release team.",
                                   "Deploy keys live in Vault under secret/deploy.", "提交代码前先跑 lint。"}) {
        INFO(text);
        CHECK_THAT(default_tree().decide(text).reason, Catch::Contains("STEP 0 veto: in-session operation request"));
        CHECK(default_tree().decide_asked_to_keep(text, "demo-project").store);
    }
    // "Commit messages" is what a convention is about, not a request to commit.
    CHECK(default_tree().decide("Commit messages follow Conventional Commits (feat:, fix:, chore:).").store);
    // Unless it says it is for every time: then it is a standing instruction however it arrives.
    for (const std::string text : {"Run the linter before every commit.", "Führe vor jedem Commit den Linter aus."}) {
        INFO(text);
        CHECK_THAT(default_tree().decide(text).reason, Catch::Contains("STEP 3a: standing instruction"));
        CHECK(default_tree().decide_asked_to_keep(text, "demo-project").store);
    }
    // A question and an acknowledgement are not memories however they arrive.
    for (const auto &[text, reason] : std::vector<std::pair<std::string, std::string>>{
             {"What is the capital of France?", "STEP 0 veto: knowledge question"},
             {"Thanks, that did it.", "STEP 1: acknowledgement"},
             {"Danke, passt so.", "STEP 1: acknowledgement"},
             {"收到，谢谢。", "STEP 1: acknowledgement"}}) {
        INFO(text);
        const auto decision = default_tree().decide_asked_to_keep(text, "demo-project");
        CHECK_FALSE(decision.store);
        CHECK_THAT(decision.reason, Catch::Contains(reason));
    }
}

TEST_CASE("STEP 3a keeps standing instructions and corrections as feedback", "[policy][collie-tree]") {
    require_stores({
        {"Never add emojis to commit messages.", "feedback", "user"},
        {"You keep renaming my variables. Stop doing that.", "feedback", "user"},
        {"Verwende in Commit-Nachrichten niemals Emojis.", "feedback", "user"},
        {"AB JETZT IMMER AUF DEUTSCH ANTWORTEN.", "feedback", "user"},
        {"提交信息里不要加表情符号。", "feedback", "user"},
        // A convention about commits, not a request to commit: "提交" opens it as a noun.
        {"提交信息用英文写。", "feedback", "user"},
        {"代码注释用中文写。", "feedback", "user"},
        {"以后写测试的时候都用 pytest。", "feedback", "user"},
        {"Always squash your commits in this repo before you push.", "feedback", "project"},
    });
}

TEST_CASE("a rule that lists what it rules out with no or 对 is kept, and the word alone is an acknowledgement",
          "[policy][collie-tree][acknowledgement]") {
    // "no trailing period" after a comma opens a clause, and was taken for "No." said to the agent:
    // `starling remember` discarded the rule.
    for (const std::string text : {"Commit messages: imperative mood, max 72 characters, no trailing period.",
                                   "API responses use camelCase, no snake_case.",
                                   "Commit-Nachrichten auf Englisch, nein zu Emojis.",
                                   "接口统一返回驼峰命名，对外不暴露内部 ID。", "每行不超过 100 个字符，行尾不要有空格。"}) {
        INFO(text);
        const auto decision = default_tree().decide_asked_to_keep(text, "demo-project");
        CHECK(decision.store);
        CHECK_THAT(decision.reason, !Catch::Contains("acknowledgement"));
    }
    require_discards({
        {"No.", "STEP 1: acknowledgement"},
        {"no", "STEP 1: acknowledgement"},
        {"No thanks", "STEP 1: acknowledgement"},
        {"Nein.", "STEP 1: acknowledgement"},
        {"对", "STEP 1: acknowledgement"},
        {"对，就是这样", "STEP 1: acknowledgement"},
        {"好", "STEP 1: acknowledgement"},
        {"行", "STEP 1: acknowledgement"},
    });
}

TEST_CASE("a correction of what was said or kept is the user's feedback and asks to supersede what it corrects",
          "[policy][collie-tree][corrections]") {
    for (const std::string text :
         {"No, that's wrong: the staging database is db-staging-2, not db-staging-1.",
          "Actually, the API runs on port 8081.", "That's wrong: the release branch is release/2.x.",
          "Nein, das stimmt nicht: der Cache ist Redis, nicht Memcached.", "不对，我们用的是 PostgreSQL 15。",
          "No, we use Podman now instead of Docker.", "No, we switched to Postgres 16 last month.",
          "Nein, wir nutzen seit Montag Podman statt Docker.",
          // Owning a slip of the tongue.
          "I misspoke: the release workflow is publish.yml.", "Sorry, I meant Node 20 in CI, not Node 18.",
          "Ich habe mich versprochen: der Workflow heißt publish.yml.", "Sorry, ich meinte Port 8081.",
          "口误，发布流程是 publish.yml。"}) {
        INFO(text);
        const auto decision = default_tree().decide(text);
        CHECK(decision.store);
        CHECK(decision.type == "feedback");
        CHECK_THAT(decision.reason, Catch::Contains("correction of what was said or kept"));
        const auto supersedes = std::find_if(decision.fields.begin(), decision.fields.end(),
                                             [](const auto &field) { return field.first == "supersedes"; });
        REQUIRE(supersedes != decision.fields.end());
        CHECK(std::get<std::string>(supersedes->second) == "closest");
    }
    // An acknowledgement that is no correction still keeps nothing, and asks to supersede nothing.
    const auto thanks = default_tree().decide("No, thanks, that's fine.");
    CHECK_FALSE(thanks.store);
    CHECK(thanks.fields.empty());
    // Nor does a reply in the session, or owning a slip of the hand there.
    for (const std::string text : {"No, we can do that later.", "Nein, wir machen das später.", "No, not that file.",
                                   "ah die datei lag im falschen ordner, mein fehler", "my bad, I saved the wrong file"}) {
        INFO(text);
        CHECK_FALSE(default_tree().decide(text).store);
    }
}

TEST_CASE("a denial alone and then a value corrects what was said: \"No, the host is pg-stage-3.\"",
          "[policy][collie-tree][corrections]") {
    for (const std::string text : {"No, the host is pg-stage-3.", "No, it's port 8443.", "Nope, we are on Python 3.12.",
                                   "Nein, der Host ist pg-stage-3.", "Nee, das läuft auf Port 8443.",
                                   "不是，端口是 7002。"}) {
        INFO(text);
        const auto decision = default_tree().decide(text);
        INFO(decision.reason);
        CHECK(decision.store);
        CHECK(decision.type == "feedback");
        CHECK_THAT(decision.reason, Catch::Contains("correction of what was said or kept"));
        CHECK(std::any_of(decision.fields.begin(), decision.fields.end(),
                          [](const auto &field) { return field.first == "supersedes"; }));
    }
    CHECK_THAT(default_tree().decide("No, the host is pg-stage-3.").reason, Catch::Contains("'no, … pg-stage-3'"));
    // Without a value it stays an answer; a request after the denial is for now; a value inside the
    // opening clause ("No 3") is no denial alone.
    for (const std::string text : {"No, the tests are fine.", "Nein, das passt so.", "No, thanks.", "No.",
                                   "No, make it 3 columns.", "Nein, mach 3 Spalten daraus.", "No 3 is fine.",
                                   "Not 3, but fine."}) {
        INFO(text);
        CHECK_FALSE(default_tree().decide(text).store);
    }
    // Handed to remember, a denial before any statement corrects what it names; before a thank-you
    // it still keeps nothing.
    const auto handed = default_tree().decide_asked_to_keep("Nein, für Sicherheit ist jetzt Jonas zuständig.", "app");
    CHECK(handed.store);
    CHECK_THAT(handed.reason, Catch::Contains("correction of what was said or kept") && Catch::Contains("'nein, für …'"));
    CHECK_FALSE(default_tree().decide("Nein, für Sicherheit ist jetzt Jonas zuständig.").store);
    CHECK_FALSE(default_tree().decide_asked_to_keep("No, thanks.", "app").store);
}

TEST_CASE("a statement that something changed corrects what was kept, without a correction word",
          "[policy][collie-tree][corrections]") {
    for (const std::string text :
         {"We moved CI to GitHub Actions.", "We cut release branches on Tuesdays, not Thursdays anymore.",
          "We switched the staging cluster to Kubernetes 1.29.", "The Grafana dashboard moved to metrics.acme.io.",
          "Wir haben die Builds auf GitHub Actions umgestellt.", "Wir nutzen Jenkins nicht mehr, die Builds laufen auf GitHub Actions.",
          "前端打包改用 Vite 了，不再用 webpack。", "我们已经改用 pnpm。"}) {
        INFO(text);
        const auto decision = default_tree().decide(text);
        INFO(decision.reason);
        CHECK(decision.store);
        CHECK_THAT(decision.reason, Catch::Contains("correction of what was said or kept"));
        CHECK(std::any_of(decision.fields.begin(), decision.fields.end(),
                          [](const auto &field) { return field.first == "supersedes"; }));
    }
    // A request to change something, and a report that something stopped working, keep nothing.
    for (const std::string text :
         {"Move the helpers to utils.py.", "Verschieb die Hilfsfunktionen nach utils.py.", "把端口改到 8081。",
          "The build is not green anymore.", "It's no longer loading the config.",
          "Der Build funktioniert nicht mehr.", "现在不再报错了。"}) {
        INFO(text);
        CHECK_FALSE(default_tree().decide(text).store);
    }
}

TEST_CASE("a correction names what is no longer so, for the host to retire the memory that says it",
          "[policy][collie-tree][corrections]") {
    const auto retired = [](const std::string &text) {
        const auto decision = default_tree().decide(text);
        INFO(text << ": " << decision.reason);
        REQUIRE(decision.store);
        const auto field = std::find_if(decision.fields.begin(), decision.fields.end(),
                                        [](const auto &named) { return named.first == "retires"; });
        return field == decision.fields.end() ? std::vector<std::string>{}
                                              : std::get<std::vector<std::string>>(field->second);
    };
    using Terms = std::vector<std::string>;
    CHECK(retired("No, that's wrong: the staging database is db-staging-2, not db-staging-1.") == Terms{"db-staging-1"});
    CHECK(retired("Actually we switched to Bloc last week, not Riverpod anymore.") == Terms{"riverpod"});
    CHECK(retired("Actually, use pnpm instead of yarn.") == Terms{"yarn"});
    CHECK(retired("Actually, we no longer use the Jenkins pipeline; builds run on GitHub Actions.") == Terms{"jenkins"});
    CHECK(retired("Nein, das stimmt nicht: der Cache ist Redis, nicht Memcached.") == Terms{"memcached"});
    CHECK(retired("Nein, das stimmt nicht: wir nutzen seit Montag Podman statt Docker.") == Terms{"docker"});
    CHECK(retired("不对，测试库是 db-test-4，不是 db-test-3。") == Terms{"db-test-3"});
    CHECK(retired("不对，我们现在用 pnpm，不再用npm了。") == Terms{"npm"});
    CHECK(retired("不对，报表要按北京时间切，不是 UTC。") == Terms{"utc"});
    // A correction that names nothing it retires leaves the host to find the closest memory.
    CHECK(retired("Actually, the API runs on port 8081.").empty());
    CHECK(retired("Nein, das stimmt nicht: der Port ist 8081.").empty()); // "nicht:" names nothing
    CHECK(retired("That's wrong: the release branch is release/2.x.").empty());
}

TEST_CASE("STEP 3b keeps the user's role, background and preferences", "[policy][collie-tree]") {
    require_stores({
        {"I'm a site reliability engineer, mostly on-call for the storage team.", "user", "user"},
        {"I prefer small pull requests over big ones.", "user", "user"},
        {"Ich bin Data Engineer und arbeite vor allem mit Spark.", "user", "user"},
        {"Ich bevorzuge Beispiele in Python.", "user", "user"},
        {"我是运维工程师，主要管 Kubernetes 集群。", "user", "user"},
        {"我喜欢先看结论再看细节。", "user", "user"},
    });
}

TEST_CASE("STEP 3c keeps non-obvious project constraints", "[policy][collie-tree]") {
    require_stores({
        {"This service must never log card numbers, not even masked ones.", "project", "project"},
        {"In diesem Projekt dürfen keine Kartennummern geloggt werden.", "project", "project"},
        {"Dieses Projekt muß mit Java 8 kompatibel bleiben.", "project", "project"},
        {"这个服务不能记录银行卡号，必须脱敏。", "project", "project"},
    });
}

TEST_CASE("STEP 3c keeps a plain statement of what the work is built with, without a cue word",
          "[policy][collie-tree][setup]") {
    require_stores({
        {"the eval metric we report is NDCG@10, not MRR", "project", "project"},
        {"Rust and Terraform are what the platform team builds with.", "project", "project"},
        {"Die Datenbank ist Postgres, Migrationen laufen ausschließlich über Flyway.", "project", "project"},
        {"Flutter 3.19 mit Riverpod, kein Bloc.", "project", "project"},
        {"包管理用 pnpm。", "project", "project"},
        {"配置中心是 Nacos，本地开发连 dev 命名空间。", "project", "project"},
    });
    // Parts of a setup are named in compounds too ("Churn-Modell"), and a server by its name.
    require_stores({
        {"Zielmetrik für das Churn-Modell ist AUC-PR, weil die Klassen unbalanciert sind", "project", "project"},
        {"测试服务器是 10.2.3.4，账号找运维小李要", "project", "project"},
        {"I use Rider, not Visual Studio", "user", "user"},
    });
    // An instruction that names tools is still the user's instruction to the agent: about a tool of
    // this project, for this project; about how to write or answer, or for everything, the user's.
    require_stores({
        {"本地跑服务之前要先 docker compose up -d 起依赖", "feedback", "project"},
        {"Going forward, write all shell scripts for bash, not zsh.", "feedback", "user"},
        {"Stop suggesting Docker for everything, I deploy to bare metal.", "feedback", "user"},
        {"代码提交信息要用中文，格式是「模块: 改了什么」。", "feedback", "user"},
    });
}

TEST_CASE("a tool named inside another name, a command line or a tool alone states no setup",
          "[policy][collie-tree][setup]") {
    require_discards({
        {"npm i @fastify/rate-limit", "STEP 0 veto: in-session operation request (cue: 'npm i')"},
        {"yarn add zod for the validation", "STEP 0 veto: in-session operation request (cue: 'yarn add')"},
        {"bump the API to Node 22", "STEP 0 veto: in-session operation request"},
        {"rust-analyzer and terraform-aws-modules are slow", "STEP 1: the next session"},
        {"looks like the redis pool ran dry", "STEP 1: the next session"},
        {"should I use errors.Wrap here?", "STEP 0 veto: knowledge question"},
        {"ping 10.0.0.1 and tell me if it answers", "STEP 0 veto: in-session operation request (cue: 'ping')"},
    });
    CHECK_THAT(default_tree().decide("set up rust-analyzer").reason, !Catch::Contains("'rust'"));
}

TEST_CASE("STEP 3d keeps where external systems live", "[policy][collie-tree]") {
    require_stores({
        {"Our incident runbooks are at https://runbooks.example.org/payments", "reference", "project"},
        {"Bugs are tracked in Jira under the key SHOP.", "reference", "project"},
        {"Unsere Runbooks liegen unter https://runbooks.example.org/payments", "reference", "project"},
        {"我们的值班手册在 https://runbooks.example.org/payments", "reference", "project"},
        {"My personal notes live in Obsidian at ~/vault.", "reference", "user"},
    });
    const auto decision = default_tree().decide("The metrics dashboard is grafana.internal/d/api-latency.");
    CHECK_THAT(decision.reason, Catch::Contains("grafana.internal/d/api-latency"));
}

TEST_CASE("a link a request is about, or the address of one change, run or ticket, points nowhere to keep",
          "[policy][collie-tree][links]") {
    require_discards({
        {"check https://ci.acme.io/job/123 and tell me why it failed", "STEP 0 veto: in-session operation request"},
        {"open http://localhost:3000 and see if the login works", "STEP 0 veto: in-session operation request"},
        {"看一下 https://ci.example.cn/job/9 为什么挂了", "STEP 0 veto: in-session operation request"},
        {"the PR is https://github.com/acme/api/pull/42", "STEP 1: the next session"},
        {"Der Build https://gitlab.firma.de/shop/web/-/pipelines/8812 ist rot.", "STEP 1: the next session"},
    });
    // A link in a clause of its own, or where a project keeps its issues, is a pointer as before.
    require_stores({
        {"open PRs against develop, the board is https://linear.app/acme/team/PAY", "reference", "project"},
        {"bugs go to https://github.com/acme/api/issues", "reference", "project"},
        {"staging deploys get announced in #deploys first, then you can go ahead", "reference", "project"},
    });
    // Handed over to be kept, a link in an imperative is a pointer again.
    CHECK(default_tree().decide_asked_to_keep("Open https://grafana.acme.io/d/api-latency for the latency of the API.",
                                              "demo-project")
              .type == "reference");
    // The paths that name one item are settings.
    const CollieTree without_one_off_paths{R"({"links": {"one_off_paths": []}})"};
    CHECK(without_one_off_paths.decide(std::string{"the PR is https://github.com/acme/api/pull/42"}).store);
}

TEST_CASE("held-out messages in English, German and Chinese meet the accuracy bars",
          "[policy][collie-tree]") {
    for (const auto *language : {"en", "de", "zh"}) {
        SECTION(std::string{"holdout-"} + language) {
            require_bars(kFixtures / (std::string{"holdout-"} + language + ".jsonl"), 0.90, 0.85);
        }
        SECTION(std::string{"tuning-"} + language) {
            require_bars(kFixtures / (std::string{"tuning-"} + language + ".jsonl"), 0.90, 0.85);
        }
    }
}

TEST_CASE("statements told in a session, written apart from the lexicons, meet their bars",
          "[policy][collie-tree][setup]") {
    // The session sets are plain, terse messages of a session, half for tuning and half held out,
    // and a second round scored once blind and then tuned on; docs/benchmarks.md gives the figures. The bars sit just under them: a change that loses
    // ground fails here.
    for (const auto *language : {"en", "de", "zh"}) {
        SECTION(std::string{"session-holdout-"} + language) {
            require_bars(kFixtures / (std::string{"session-holdout-"} + language + ".jsonl"), 0.75, 0.45);
        }
        SECTION(std::string{"session-tuning-"} + language) {
            require_bars(kFixtures / (std::string{"session-tuning-"} + language + ".jsonl"), 0.85, 0.70);
        }
        SECTION(std::string{"session-round2-"} + language) {
            require_bars(kFixtures / (std::string{"session-round2-"} + language + ".jsonl"), 0.90, 0.65);
        }
        // Whole sessions of eight developers, then of six more and six more again, each line as
        // they typed it, each round scored blind once and then tuned on.
        SECTION(std::string{"session-round3-"} + language) {
            require_bars(kFixtures / (std::string{"session-round3-"} + language + ".jsonl"), 0.90, 0.65);
        }
        SECTION(std::string{"session-round4-"} + language) {
            require_bars(kFixtures / (std::string{"session-round4-"} + language + ".jsonl"), 0.95, 0.70);
        }
        SECTION(std::string{"session-round5-"} + language) {
            require_bars(kFixtures / (std::string{"session-round5-"} + language + ".jsonl"), 0.90, 0.65);
        }
    }
}

TEST_CASE("the fact a request rests on is kept without the request", "[policy][collie-tree][premise]") {
    const auto &tree = default_tree();
    const auto postgres = tree.decide(std::string{"since we're on Postgres 16 now, rewrite this query with MERGE"});
    REQUIRE(postgres.store);
    CHECK(postgres.type == "project");
    CHECK(postgres.scope == "project");
    CHECK(postgres.body == "we're on Postgres 16 now");
    CHECK(postgres.summary.find("MERGE") == std::string::npos);
    // Even where the whole message would be kept, the request is left out.
    const auto alloy = tree.decide(std::string{
        "since we're on Grafana Alloy now instead of promtail anyway, rewrite our promtail config as an alloy config"});
    REQUIRE(alloy.store);
    CHECK(alloy.body == "we're on Grafana Alloy now instead of promtail anyway");
    require_stores({
        {"since queues run through Horizon on Redis anyway, make the invoice export a queued job", "project",
         "project"},
        {"da wir ja auf Quarkus 3.8 sind, bau den Client auf die neue REST-API um", "project", "project"},
        {"既然 pydantic 已经升到 v2 了，把 app/schemas/order.py 里的 class Config 都改成 model_config 吧", "project",
         "project"},
        {"since I'm on macOS, give me the brew command", "user", "user"},
    });
    // A premise that names nothing of the setup, one that is itself a request or a question, or
    // an opener without a request after it keeps nothing.
    require_discards({
        {"since yesterday the tests fail, find out why", "STEP 0 veto: in-session operation request"},
        {"since it's broken anyway, delete the whole test", "STEP 0 veto: in-session operation request"},
        {"since you're at it, can you add Redis caching to the handler?", "STEP 0 veto"},
        {"since when does Postgres 16 support MERGE?", "STEP 0 veto: knowledge question"},
    });
    // A rule after the premise, or a message handed over whole, stays whole.
    const auto smoke = tree.decide(std::string{"since we deploy on Fridays, run the smoke tests before every deploy"});
    REQUIRE(smoke.store);
    CHECK(smoke.body.empty());
    CHECK_THAT(smoke.summary, Catch::Contains("smoke tests before every deploy"));
    CHECK(tree.decide_asked_to_keep("since we're on Postgres 16 now, rewrite upserts with MERGE", "demo-project")
              .body.empty());
    // A fact before a connective is kept where the whole is not; where the whole is kept, what
    // follows the connective may be the rule ("…, so give me commands that work there").
    const auto vue = tree.decide(std::string{
        "我们现在用的是 vue3 + element plus，所以这个组件用 composition api + <script setup> 写"});
    REQUIRE(vue.store);
    CHECK(vue.type == "project");
    CHECK(vue.body == "我们现在用的是 vue3 + element plus");
    const auto wsl = tree.decide(std::string{"I mostly code on Windows with WSL2, so give me commands that work there."});
    REQUIRE(wsl.store);
    CHECK(wsl.type == "user");
    CHECK(wsl.body.empty());
    // The openers and connectives are settings.
    const CollieTree without_openers{R"({"premise": {"openers": []}})"};
    CHECK_FALSE(without_openers.decide(std::string{"since we're on Postgres 16 now, rewrite this query with MERGE"}).store);
    CHECK_THROWS_WITH(CollieTree{R"({"premise": {"openers": [" "]}})"},
                      Catch::Contains("premise.openers"));
    CHECK_THROWS_WITH(CollieTree{R"({"premise": {"connectives": [""]}})"},
                      Catch::Contains("premise.connectives"));
    const CollieTree without_connectives{R"({"premise": {"connectives": []}})"};
    CHECK_FALSE(without_connectives
                    .decide(std::string{"我们现在用的是 vue3 + element plus，所以这个组件用 composition api + <script setup> 写"})
                    .store);
}

TEST_CASE("a tool named in a request or a question is what it is about, once however many words name it",
          "[policy][collie-tree][setup]") {
    require_discards({
        {"can you write an ansible role that installs node_exporter and only allows port 9100 from the monitoring "
         "VLAN?",
         "STEP 0 veto"},
        {"installier mal pandas und pyarrow", "STEP 0 veto: in-session operation request"},
        {"Die AWS CLI sagt, mein Token ist abgelaufen.", "STEP 1: the next session"},
    });
    // Said as a statement, or as a rule for the agent, the same names are the setup.
    require_stores({
        {"we run 3 Proxmox VE 8.1 nodes in the office rack", "project", "project"},
        {"flash over J-Link, run west flash --runner jlink, never the ST-Link", "feedback", "project"},
        {"Commit messages follow Conventional Commits (feat:, fix:, chore:).", "project", "project"},
    });
}

TEST_CASE("a correction said in a project corrects the project unless it is about the user",
          "[policy][collie-tree][correction]") {
    require_stores({
        {"sorry, hab mich vertan: die Testumgebung heißt jetzt schaden-int", "feedback", "project"},
        {"korrektur: storybook ist seit dem upgrade auf v8 auf 6007", "feedback", "project"},
        {"nee, nicht Jenkins, wir sind auf GitLab CI", "feedback", "project"},
        {"achso nee, Jest ist raus, wir haben komplett auf Vitest migriert", "feedback", "project"},
        {"哦对了 namespace 上周改名了，现在叫 order-svc-prod，order-prod 已经删掉了", "feedback", "project"},
        {"oh wait, it's php 8.2 not 8.1", "feedback", "project"},
        {"Actually, my editor is Helix, not VS Code.", "feedback", "user"},
    });
    // Outside any project there is no project to correct.
    CHECK(default_tree().decide_asked_to_keep("sorry, hab mich vertan: es heißt jetzt schaden-int", "").scope == "user");
    CHECK(default_tree().decide_asked_to_keep("sorry, hab mich vertan: es heißt jetzt schaden-int", "demo-project").scope ==
          "project");
}

TEST_CASE("the development set meets the accuracy targets", "[policy][collie-tree]") {
    if (!fs::exists(kDevelopmentSet)) {
        WARN("development set " << kDevelopmentSet << " is absent; skipped");
        return;
    }
    require_bars(kDevelopmentSet, 0.90, 0.85);
}

TEST_CASE("one decision per message, in order, for a batch of mixed messages", "[policy][collie-tree]") {
    const std::vector<std::string> texts{
        "From now on, answer in British English.",
        "What does RAII stand for?",
        "Ich leite das Datenbank-Team.",
        "把这个变量改名为 user_count。",
        "The CI cache lives at s3://acme-ci-cache/main",
        "Okay.",
        "这个仓库禁止提交生成的文件。",
        "",
    };
    const auto decisions = default_tree().decide(texts);
    REQUIRE(decisions.size() == texts.size());
    const std::vector<bool> stored{true, false, true, false, true, false, true, false};
    for (std::size_t index = 0; index < texts.size(); ++index) {
        INFO(index << ": " << texts[index] << " -> " << decisions[index].reason);
        CHECK(decisions[index].store == stored[index]);
        CHECK_FALSE(decisions[index].reason.empty());
    }
    CHECK(decisions[2].type == "user");
    CHECK(decisions[4].type == "reference");
    CHECK(decisions[6].type == "project");
}

TEST_CASE("summaries are one normalised line in the message's language", "[policy][collie-tree]") {
    CHECK(default_tree().decide("  From now on,   always\nwrite commit messages in English.  ").summary ==
          "Always write commit messages in English.");
    CHECK(default_tree().decide("Fix the failing login test please.").summary ==
          "Fix the failing login test.");
    CHECK(default_tree().decide("Ab jetzt bitte alle Commit-Nachrichten auf Deutsch schreiben.").summary ==
          "Alle Commit-Nachrichten auf Deutsch schreiben.");
    CHECK(default_tree().decide("以后回答请用中文，谢谢。").summary == "回答请用中文。");

    const auto long_summary =
        default_tree()
            .decide("Heads up: the staging environment is wiped every Sunday night, so don't store anything "
                    "important there, and the backups of it are only kept for seven days in the old bucket.")
            .summary;
    CHECK(long_summary.starts_with("The staging environment is wiped"));
    CHECK(long_summary.ends_with("…"));
    CHECK(long_summary.find('\n') == std::string::npos);
    CHECK(long_summary.size() <= 100 + std::string{"…"}.size());
}

TEST_CASE("tags are lower-case content words, and Chinese words or bigrams", "[policy][collie-tree]") {
    const auto english = default_tree().decide("Stop using npm here, this repo uses pnpm workspaces.").tags;
    CHECK(contains(english, "npm"));
    CHECK(contains(english, "pnpm"));
    CHECK(contains(english, "workspaces"));
    CHECK_FALSE(contains(english, "this"));
    CHECK_FALSE(contains(english, "here"));

    const auto german = default_tree().decide("ÄNDERE NIE DIE DATEI config.yaml, SIE WIRD GENERIERT.").tags;
    CHECK(contains(german, "ändere"));
    CHECK(contains(german, "datei"));
    CHECK_FALSE(contains(german, "die"));

    const auto chinese = default_tree().decide("我们团队的接口文档放在 Confluence 上，空间名是 PAY。").tags;
    CHECK(contains(chinese, "接口文档"));
    CHECK(contains(chinese, "confluence"));
    CHECK_FALSE(contains(chinese, "我们"));

    for (const auto &tags : {english, german, chinese}) {
        CHECK(tags.size() <= 5);
        auto sorted = tags;
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }
}

TEST_CASE("settings change decisions: extra cues, replaced lists, thresholds", "[policy][collie-tree]") {
    const std::string text = "I moonlight as a sysadmin on weekends.";
    REQUIRE_FALSE(default_tree().decide(text).store);

    SECTION("a cue added under extra_cues keeps the defaults and adds to them") {
        const CollieTree tree{R"({"extra_cues": {"en": {"role": ["i moonlight as"]}}})"};
        const auto decision = tree.decide(text);
        CHECK(decision.store);
        CHECK(decision.type == "user");
        CHECK_THAT(decision.reason, Catch::Contains("'i moonlight as'"));
        CHECK(tree.decide("What is a monad?").reason.starts_with("STEP 0 veto: knowledge question"));
    }
    SECTION("a new language can be added under extra_cues") {
        const CollieTree tree{R"({"extra_cues": {"fr": {"standing_instruction": ["dorénavant"]}}})"};
        const auto decision = tree.decide("Dorénavant, réponds en français.");
        CHECK(decision.store);
        CHECK(decision.type == "feedback");
    }
    SECTION("a default list replaced by the user no longer fires") {
        const CollieTree tree{R"({"cues": {"en": {"standing_instruction": ["henceforth"]}}})"};
        CHECK_FALSE(tree.decide("Always answer in English.").store);
        CHECK(tree.decide("Henceforth answer in English.").store);
    }
    SECTION("a store threshold nothing reaches discards everything") {
        const CollieTree tree{R"({"thresholds": {"store": 100.0}})"};
        CHECK_FALSE(tree.decide("From now on, always write commit messages in English.").store);
    }
    SECTION("an unknown rule is refused when the policy is created") {
        CHECK_THROWS_WITH(CollieTree{R"({"extra_cues": {"en": {"no_such_rule": ["x"]}}})"},
                          Catch::Contains("extra_cues.en.no_such_rule"));
    }
}

TEST_CASE("review_request asks the model to run the tree over the session log", "[policy][collie-tree]") {
    const auto text =
        default_tree().review_request(20, "/home/dana/.starling/sessions/abc.jsonl", "claude-code");
    CHECK_THAT(text, Catch::Contains("last 20 user messages"));
    CHECK_THAT(text, Catch::Contains("/home/dana/.starling/sessions/abc.jsonl"));
    CHECK_THAT(text, Catch::Contains("starling remember --type T --scope S \"text\""));
    for (const auto *step : {"STEP 0", "STEP 1", "STEP 2", "STEP 3", "STEP 4"}) {
        CHECK_THAT(text, Catch::Contains(step));
    }

    const CollieTree custom{
        R"({"review": {"template": "{agent}: review {message_count} in {session_log} {other}"}})"};
    CHECK(custom.review_request(7, "/tmp/log.jsonl", "codex") == "codex: review 7 in /tmp/log.jsonl {other}");

    CHECK_THROWS_WITH(default_tree().review_request(0, "/tmp/log.jsonl", "codex"),
                      Catch::Contains("message_count"));
    CHECK_THROWS_WITH(default_tree().review_request(5, "", "codex"), Catch::Contains("session_log"));
}

TEST_CASE("a user's [settings.collie-tree] table validates against the declared defaults",
          "[policy][collie-tree]") {
    const starling::test::ConfigTempDir dir;
    const auto defaults = default_tree().default_settings_json();
    const auto config =
        starling::core::parse_config(R"(
[settings.collie-tree.extra_cues.en]
role = ["i moonlight as"]

[settings.collie-tree.thresholds]
store = 3
)",
                                     "starling.toml", starling::test::injected_environment(dir));
    const auto effective = starling::core::effective_plugin_settings(config, "collie-tree", defaults);
    CHECK(effective.at("thresholds").at("store").is_number_float());
    const CollieTree tree{effective.dump()};
    CHECK(tree.decide("I moonlight as a sysadmin on weekends.").store);

    const auto typo =
        starling::core::parse_config("[settings.collie-tree.thresholds]\nstroe = 3\n", "starling.toml",
                                     starling::test::injected_environment(dir));
    CHECK_THROWS_AS(starling::core::effective_plugin_settings(typo, "collie-tree", defaults),
                    starling::core::ConfigError);
}

TEST_CASE("an explicit request to remember is stored pinned, in every language — other memories are not",
          "[policy][collie-tree][pin]") {
    for (const std::string text : {"Remember that the staging database is staging-db.internal on port 6543.",
                                   "Please remember: the VPN drops every 8 hours, reconnect before deploys.",
                                   "Merk dir: der Build braucht 16 GB RAM.",
                                   "记住，生产环境的数据库只读。"}) {
        INFO(text);
        const auto decision = default_tree().decide(text);
        REQUIRE(decision.store);
        CHECK(decision.pin);
    }
    for (const std::string text : {"I prefer small pull requests over big ones.",
                                   "Note that this service must never log card numbers.",
                                   "remember to run the tests"}) {
        INFO(text);
        CHECK_FALSE(default_tree().decide(text).pin);
    }
    // Nothing is pinned that is not stored.
    const auto question = default_tree().decide("Do you remember what the staging database is called?");
    CHECK_FALSE(question.store);
    CHECK_FALSE(question.pin);
}

TEST_CASE("pin.enabled false stores explicit requests unpinned, as collie did", "[policy][collie-tree][pin]") {
    const CollieTree collie{R"({"pin": {"enabled": false}})"};
    const auto decision = collie.decide("Remember that the staging database is staging-db.internal on port 6543.");
    CHECK(decision.store);
    CHECK_FALSE(decision.pin);
}

TEST_CASE("a malformed pin cue is a settings error naming it", "[policy][collie-tree][pin]") {
    CHECK_THROWS_WITH(CollieTree{R"({"pin": {"cues": ["*"]}})"}, Catch::Contains("pin.cues"));
}

TEST_CASE("a plain fact of where the project runs, said in a session, is the project's", "[policy][collie-tree]") {
    for (const std::string text : {"The staging cluster is stg-eu-1.", "The API listens on port 8080.",
                                   "Der Staging-Cluster ist stg-eu-1.", "预发集群是 stg-eu-1，端口是 7001。"}) {
        INFO(text);
        const auto decision = default_tree().decide(text);
        INFO(decision.reason);
        CHECK(decision.store);
        CHECK(decision.type == "project");
    }
    // A request about one, or a question, is for now.
    for (const std::string text : {"Restart the cluster.", "Which port does the API listen on?", "port 8080 is taken"}) {
        INFO(text);
        CHECK_FALSE(default_tree().decide(text).store);
    }
}
