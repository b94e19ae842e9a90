// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/replaced_value.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::core::replaced_value;

TEST_CASE("replaced value: the same words around another value, in any case and script",
          "[lifecycle][replaced-value]") {
    const auto prefer = replaced_value("I prefer yarn for JavaScript projects.", "I prefer pnpm for JavaScript projects.");
    REQUIRE(prefer);
    CHECK(prefer->older == "yarn");
    CHECK(prefer->newer == "pnpm");
    CHECK(prefer->frame_words == 5);
    CHECK_FALSE(prefer->differ_in_digits);

    const auto use = replaced_value("Use yarn", "use PNPM.");
    REQUIRE(use);
    CHECK(use->newer == "pnpm");
    CHECK(use->frame_words == 1);

    const auto database = replaced_value("The staging database is db-staging-1.", "The staging database is db-staging-2");
    REQUIRE(database);
    CHECK(database->older == "db-staging-1");
    CHECK(database->differ_in_digits);
    CHECK(replaced_value("We use Node 18 in CI.", "We use Node 20 in CI.")->differ_in_digits);

    const auto state = replaced_value("We use Riverpod for state management", "We use Bloc for state management");
    REQUIRE(state);
    CHECK(state->older == "riverpod");
    CHECK(state->frame_words == 5);

    const auto han = replaced_value("测试都用 mockito 写。", "测试都用 mocktail 写。");
    REQUIRE(han);
    CHECK(han->older == "mockito");
    CHECK(han->frame_words == 5); // 测 试 都 用 … 写
    const auto days = replaced_value("每周二发布", "每周五发布");
    REQUIRE(days);
    CHECK(days->older == "二");
    CHECK(days->newer == "五");
}

TEST_CASE("replaced value: none for a restatement, a negation, a longer change or a thin frame",
          "[lifecycle][replaced-value]") {
    CHECK_FALSE(replaced_value("Use tabs.", "use tabs"));                      // the same words
    CHECK_FALSE(replaced_value("Use tabs", "Never use tabs"));                 // nothing replaced, only added
    CHECK_FALSE(replaced_value("Use tabs", "Use tabs and spaces"));            // only added
    CHECK_FALSE(replaced_value("Use pnpm", "Use black for Python formatting")); // the frame is too thin
    CHECK_FALSE(replaced_value("Deploy with Helm charts through ArgoCD", "Write commit messages in English"));
    CHECK_FALSE(replaced_value("Use tabs in Go files", "Use spaces in Go files, never tabs")); // a longer change
    CHECK_FALSE(replaced_value("We release on Tuesdays after the standup with the whole team",
                               "We release on Fridays before lunch without the platform group"));
    CHECK_FALSE(replaced_value("", "Use pnpm"));
    CHECK_FALSE(replaced_value("Use pnpm", "!"));
}

TEST_CASE("replaced value: words said with the new value anywhere, but one changed place in the older",
          "[lifecycle][replaced-value]") {
    const auto port = replaced_value("The staging API listens on port 8080.", "The staging API listens on port 9090 now.");
    REQUIRE(port);
    CHECK(port->older == "8080");
    CHECK(port->newer == "9090 now");
    CHECK(port->differ_in_digits);
    const auto german = replaced_value("Das Backend läuft auf Port 3000.", "Das Backend läuft inzwischen auf Port 4000.");
    REQUIRE(german);
    CHECK(german->newer == "inzwischen 4000");
    CHECK(german->differ_in_digits);
    // Two changed places: another subject with another value, not a newer value of the same.
    CHECK_FALSE(replaced_value("Redis runs on port 6379 in dev.", "Postgres runs on port 5432 in dev."));
    CHECK_FALSE(replaced_value("Use 4 spaces for indentation in Python files.", "Use 2 spaces for indentation in YAML files."));
}

TEST_CASE("statement words: names joined across one '-', '.' or '_', Han characters alone, quotes and symbols dropped",
          "[lifecycle][replaced-value]") {
    using starling::core::statement_words;
    using Words = std::vector<std::string>;
    CHECK(statement_words("The staging DB is db-staging-1.") == Words{"the", "staging", "db", "is", "db-staging-1"});
    CHECK(statement_words("Use “Next.js” and snake_case — always") ==
          Words{"use", "next.js", "and", "snake_case", "always"});
    CHECK(statement_words("Über die Größe") == Words{"über", "die", "größe"});
    CHECK(statement_words("测试用 mocktail，不用mockito。") == Words{"测", "试", "用", "mocktail", "不", "用", "mockito"});
    CHECK(statement_words("a - b").size() == 2); // a dash between spaces separates
}

TEST_CASE("own numbers: statements that each say a number the other does not say different things",
          "[lifecycle][replaced-value]") {
    using starling::core::own_numbers;
    using Words = std::vector<std::string>;
    const auto services = own_numbers("Der Auth-Dienst läuft auf Port 8081.", "Der Mail-Dienst läuft auf Port 8025.");
    CHECK(services.older == Words{"8081"});
    CHECK(services.newer == Words{"8025"});
    CHECK(services.differ());
    const auto python = own_numbers("Use Python 3.10 for the data pipelines.", "Data pipelines run on Python 3.12.");
    CHECK(python.older == Words{"3.10"});
    CHECK(python.newer == Words{"3.12"});
    CHECK(python.differ());
    CHECK(own_numbers("模型训练的 batch size 是 32。", "模型训练的 batch size 设为 64。").differ());
    // The same numbers said again, or a number only one of them says, are no other thing.
    CHECK_FALSE(own_numbers("The staging database is db-staging-1.",
                            "Staging DB host is db-staging-1, reachable only over the VPN.")
                    .differ());
    const auto added = own_numbers("Keep lines short.", "Keep lines under 100 characters.");
    CHECK(added.older.empty());
    CHECK(added.newer == Words{"100"});
    CHECK_FALSE(added.differ());
    CHECK_FALSE(own_numbers("Use pnpm", "Use yarn").differ());
    CHECK_FALSE(own_numbers("", "Port 8080").differ());
}

TEST_CASE("renumbered name: the one number each says alone, given to one name, of one shape",
          "[lifecycle][replaced-value]") {
    using starling::core::renumbered_name;
    CHECK(renumbered_name("Die Integrationstests laufen bei uns immer gegen Postgres 15 in Docker.",
                          "Wir sind inzwischen auf Postgres 16 umgestiegen.") == "postgres");
    CHECK(renumbered_name("Use Python 3.10 for the data pipelines.", "Data pipelines run on Python 3.12.") == "python");
    CHECK(renumbered_name("我们在 CI 里用 Node 18。", "不对，CI 现在用 Node 20。") == "node");
    CHECK(renumbered_name("The API listens on port 8080.", "Actually the API uses port 8081 since Monday.") == "port");
    // A name with its number inside needs no word before it.
    CHECK(renumbered_name("we track every experiment in Weights & Biases, project name is \"ranker-v2\".",
                          "Actually, the project in W&B is called \"ranker-v3\" now, we started over.") == "ranker-v");
    CHECK(renumbered_name("The staging database is db-staging-1.", "Staging now runs on db-staging-2.") == "db-staging");
    // A bare number or a short prefix names nothing alone.
    CHECK_FALSE(renumbered_name("The mobile app calls the v2 endpoints.", "The web client already talks to v3."));
    // An older statement that says another number of its own says more than the newer changes.
    CHECK_FALSE(renumbered_name("Payments run on port 8081 and the ledger on port 8082.",
                                "We moved the ledger to port 9082."));
    // The same number, another name, or a number of another shape is no renumbering.
    CHECK_FALSE(renumbered_name("We use Postgres 15.", "Postgres 15 runs in Docker."));
    CHECK_FALSE(renumbered_name("We use Postgres 15.", "We use MySQL 8."));
    CHECK_FALSE(renumbered_name("Deploy to region eu-west-1.", "Deploy to region 3."));
    CHECK_FALSE(renumbered_name("", "Postgres 16"));
}

TEST_CASE("says much more: an older statement whose words a newer one leaves mostly unsaid",
          "[lifecycle][replaced-value]") {
    using starling::core::says_much_more;
    using starling::core::statement_words;
    const auto more = [](std::string_view older, std::string_view newer) {
        return says_much_more(statement_words(older), statement_words(newer));
    };
    CHECK(more("Unsere Daten liegen im Snowflake, Schema ANALYTICS_PROD, da nur lesend zugreifen!",
               "Das Schema heißt inzwischen ANALYTICS_V2"));
    CHECK(more("测试服务器是 10.2.3.4，账号找运维小李要", "测试服务器换成 10.2.3.8 了"));
    // Said again but for the value, or too short to say more than a word or two besides.
    CHECK_FALSE(more("The staging database is db-staging-1.", "The staging database is db-staging-2, not db-staging-1."));
    CHECK_FALSE(more("Train the ranking model on a single A100.", "Ranking model training moved to a node with 8 H100s."));
    CHECK_FALSE(more("", "anything"));
}
