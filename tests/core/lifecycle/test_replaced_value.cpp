// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/replaced_value.hpp>

#include <catch2/catch.hpp>

#include <optional>
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

TEST_CASE("written words: the statement words with where the text writes them", "[lifecycle][corrections]") {
    const std::string text = "Staging ist db-Staging-1, 端口 7001.";
    const auto words = starling::core::written_words(text);
    REQUIRE(words.size() == 6);
    CHECK(words[1].word == "ist");
    CHECK(words[2].word == "db-staging-1");
    CHECK(text.substr(words[2].begin, words[2].end - words[2].begin) == "db-Staging-1");
    CHECK(text.substr(words[3].begin, words[3].end - words[3].begin) == "端");
    CHECK(text.substr(words[5].begin, words[5].end - words[5].begin) == "7001");
    CHECK(starling::core::statement_words(text) ==
          std::vector<std::string>{"staging", "ist", "db-staging-1", "端", "口", "7001"});
}

TEST_CASE("corrected value: the one value a correction changes in one clause of a memory that says more",
          "[lifecycle][corrections]") {
    using starling::core::corrected_value;
    using starling::core::CorrectedValue;
    // A name renumbered, as the newer writes it.
    CHECK(corrected_value("Deploys go through ArgoCD; the staging cluster is stg-eu-1.",
                          "The staging cluster is stg-eu-2 now.") == CorrectedValue{"stg-eu-1", "stg-eu-2"});
    CHECK(corrected_value("Das Backend läuft auf Port 3000, das Frontend auf Vercel.",
                          "Das Backend läuft inzwischen auf Port 4000.") == CorrectedValue{"3000", "4000"});
    CHECK(corrected_value("订单服务用 Go 写，端口是 7001。", "端口是 7002。") == CorrectedValue{"7001", "7002"});
    // The same words around another name, in the writer's case.
    CHECK(corrected_value("Für Sicherheit ist Katrin zuständig, Pentests gibt es jedes Quartal.",
                          "Für Sicherheit ist Jonas zuständig.") == CorrectedValue{"Katrin", "Jonas"});
    CHECK(corrected_value("We lint with ruff, and type-check with mypy.", "We type-check with Pyright.") ==
          CorrectedValue{"mypy", "Pyright"});
    // Clauses joined by a word, not by punctuation.
    CHECK(corrected_value("The API runs on Java 17 and talks to Kafka through the outbox table.",
                          "The API runs on Java 21 now.") == CorrectedValue{"17", "21"});
    CHECK(corrected_value("Die App läuft auf Hetzner und die Builds laufen auf Runner-3.",
                          "Die Builds laufen auf Runner-4.") == CorrectedValue{"Runner-3", "Runner-4"});
    CHECK(corrected_value("日志保留 30 天并且统一接入 Loki。", "日志保留 90 天。") == CorrectedValue{"30", "90"});
    // A name with its number inside is what it names, said in any words around it.
    CHECK(corrected_value("Das Staging läuft über Jenkins, und die Datenbank liegt auf dem Host pg-db-1.",
                          "Der Host ist pg-db-4.") == CorrectedValue{"pg-db-1", "pg-db-4"});
    // A bare number in other words, when they say nothing the clause does not: the number given
    // to one name, or counting one unit.
    CHECK(corrected_value("The billing API listens on port 8080, and its health checks are on port 8081.",
                          "Health checks moved to port 9001.") == CorrectedValue{"8081", "9001"});
    CHECK(corrected_value("We deploy with Helm, and CI pins kubectl to 1.28.", "We bumped the pinned kubectl to 1.30.") ==
          CorrectedValue{"1.28", "1.30"});
    CHECK(corrected_value("Die Integrationstests laufen in GitLab CI, ihr Timeout liegt bei 20 Minuten.",
                          "Das Timeout wurde auf 45 Minuten erhöht.") == CorrectedValue{"20", "45"});
    CHECK(corrected_value("订单服务用 Go 写，超时是 30 秒。", "超时现在改成 60 秒了。") == CorrectedValue{"30", "60"});
}

TEST_CASE("corrected value: none for one clause, a value written twice, two clauses it fits or another subject",
          "[lifecycle][corrections]") {
    using starling::core::corrected_value;
    // One clause: the correction replaces the memory whole.
    CHECK_FALSE(corrected_value("The staging database is db-staging-1.", "The staging database is db-staging-2."));
    // Which of the two the correction means is not said.
    CHECK_FALSE(corrected_value("Node 18 in CI; Node 18 on the dev boxes too.", "Node 20 in CI."));
    CHECK_FALSE(corrected_value("Frontend runs on port 3000; admin runs on port 3001.", "It runs on port 4000."));
    // Another service's port is no correction of this one's.
    CHECK_FALSE(corrected_value("The auth service runs on port 8081, and it logs to Loki.",
                                "The mail service runs on port 8025."));
    CHECK_FALSE(corrected_value("Production backups run at 01:00 UTC and are kept for 30 days.",
                                "Staging backups run at 04:00 UTC."));
    // A bare number needs the same words around it, or other words that say nothing else.
    CHECK_FALSE(corrected_value("The gateway listens on port 8080, and it logs to Loki.", "Metrics are on port 9100."));
    CHECK_FALSE(corrected_value("The billing API listens on port 8080, and its health checks are on port 8081.",
                                "The metrics exporter moved to port 9001."));
    CHECK_FALSE(corrected_value("The app runs on Python 3.10, and Celery uses Redis.", "We also test on Python 3.12."));
    CHECK_FALSE(corrected_value("Die Integrationstests laufen in GitLab CI, ihr Timeout liegt bei 20 Minuten.",
                                "Die Unit-Tests brauchen 5 Minuten."));
    CHECK_FALSE(corrected_value("订单服务用 Go 写，超时是 30 秒。", "支付服务的超时是 60 秒。"));
    // Said alone, a name with its number inside is no value another one replaces: another ticket.
    using starling::core::ClauseSubject;
    using starling::core::CorrectedValue;
    const std::string commits = "Commit messages are in English, with the ticket at the end, e.g. (OPS-12).";
    CHECK(corrected_value(commits, "The login test is flaky on the ARM runners (OPS-345).") ==
          CorrectedValue{"OPS-12", "OPS-345"});
    CHECK_FALSE(corrected_value(commits, "The login test is flaky on the ARM runners (OPS-345).",
                                ClauseSubject::said_alone));
    CHECK(corrected_value("The billing API listens on port 8080, and its health checks are on port 8081.",
                          "Health checks moved to port 9001.", ClauseSubject::said_alone) ==
          CorrectedValue{"8081", "9001"});
    CHECK_FALSE(corrected_value("Deploys go through ArgoCD; staging is stg-eu-1.", "Write commit messages in English."));
    // A value the memory says already is no new one.
    CHECK_FALSE(corrected_value("We lint with ruff, and format with Black.", "We format with Ruff."));
    CHECK_FALSE(corrected_value("", "The staging cluster is stg-eu-2."));
}

TEST_CASE("corrected number: the one number a statement changes in a memory of one clause that says others too",
          "[lifecycle][corrections]") {
    using starling::core::corrected_number;
    using starling::core::CorrectedValue;
    // A name with its number inside, said in any words; the port stays.
    CHECK(corrected_number("Our staging database is pg-staging-3 on port 5433.",
                           "Actually, the staging database is pg-staging-4 now.") ==
          CorrectedValue{"pg-staging-3", "pg-staging-4"});
    // A bare number, given the same name by the word before it in both; the timeout stays.
    CHECK(corrected_number("The API listens on port 8080 with a timeout of 30 s.",
                           "Actually the API listens on port 9090.") == CorrectedValue{"8080", "9090"});
    CHECK(corrected_number("Der Build-Server heißt ci-runner-2 mit 16 GB RAM.", "Der Build-Server heißt jetzt ci-runner-7.") ==
          CorrectedValue{"ci-runner-2", "ci-runner-7"});
    CHECK(corrected_number("测试数据库是 db-test-1 的 5432 端口", "测试数据库现在是 db-test-3") ==
          CorrectedValue{"db-test-1", "db-test-3"});
}

TEST_CASE("corrected number: none for clauses, a statement of two numbers, a memory of one, or a number not named alike",
          "[lifecycle][corrections]") {
    using starling::core::corrected_number;
    // Clauses are corrected_value's to compare.
    CHECK_FALSE(corrected_number("Payments run on port 8081; the ledger runs on port 8082.", "The ledger runs on port 9082."));
    // Both numbers said again: it replaces the memory whole.
    CHECK_FALSE(corrected_number("Our staging database is pg-staging-3 on port 5433.",
                                 "The staging database is pg-staging-4 on port 6543."));
    // One number in the memory: replaced whole as well.
    CHECK_FALSE(corrected_number("The staging database is db-staging-1.", "No, the staging database is db-staging-2."));
    // Two numbers named alike: which one, it does not say.
    CHECK_FALSE(corrected_number("The API uses port 8080 behind port 443 of the proxy.", "The API uses port 9090 now."));
    // A number named otherwise, or of another shape.
    CHECK_FALSE(corrected_number("The API listens on port 8080 with a timeout of 30 s.", "Actually the timeout is 60 s."));
    CHECK_FALSE(corrected_number("Our staging database is pg-staging-3 on port 5433.", "The staging database is now 5434."));
}

TEST_CASE("corrected named value: the value a correction names as no longer so, and the one word of its form "
          "said instead",
          "[lifecycle][corrections]") {
    using starling::core::corrected_named_value;
    using starling::core::CorrectedValue;
    // A version, a region, a host: the one word of the retired value's form.
    CHECK(corrected_named_value("The payment workers run on Ruby 3.1, and Sidekiq handles the queues.",
                                "Actually it's Ruby 3.3, not 3.1.", {"3.1"}) == CorrectedValue{"3.1", "3.3"});
    CHECK(corrected_named_value("Backups go to eu-central-1, the CDN is CloudFront.",
                                "Backups go to eu-north-1, not eu-central-1.",
                                {"eu-central-1"}) == CorrectedValue{"eu-central-1", "eu-north-1"});
    CHECK(corrected_named_value("Die Queue läuft auf mq-prod-2 und wird von Timo betreut.",
                                "Nein, die Queue läuft auf mq-prod-5, nicht auf mq-prod-2.",
                                {"mq-prod-2"}) == CorrectedValue{"mq-prod-2", "mq-prod-5"});
    // A word of letters alone, written as a name: capitalised, or in Latin letters among Han characters.
    CHECK(corrected_named_value("Sessions are cached in Memcached, and the cache is flushed on deploy.",
                                "Sessions are cached in Valkey now, not Memcached.",
                                {"memcached"}) == CorrectedValue{"Memcached", "Valkey"});
    CHECK(corrected_named_value("移动端用 Flutter 开发，状态管理用 Provider。", "状态管理现在用 Riverpod 了，不是 Provider。",
                                {"provider"}) == CorrectedValue{"Provider", "Riverpod"});
}

TEST_CASE("corrected named value: none for one clause, an unnamed or ambiguous value, or no word of its form",
          "[lifecycle][corrections]") {
    using starling::core::corrected_named_value;
    // One clause: the correction replaces the memory whole.
    CHECK_FALSE(corrected_named_value("The staging database is db-staging-1.",
                                      "The staging database is db-staging-2, not db-staging-1.", {"db-staging-1"}));
    // What it retires is not written there, or written twice.
    CHECK_FALSE(corrected_named_value("The payment workers run on Ruby 3.1, and Sidekiq handles the queues.",
                                      "It's Ruby 3.3, not 3.2.", {"3.2"}));
    CHECK_FALSE(corrected_named_value("CI uses Node 18, and the dev boxes use Node 18 too.", "It's Node 20, not 18.",
                                      {"18"}));
    CHECK_FALSE(corrected_named_value("The payment workers run on Ruby 3.1, and Sidekiq handles the queues.",
                                      "It's Ruby 3.3, not 3.1.", {}));
    // No word of its form said instead, or two.
    CHECK_FALSE(corrected_named_value("The payment workers run on Ruby 3.1, and Sidekiq handles the queues.",
                                      "Sidekiq is not on 3.1 anymore.", {"3.1"}));
    CHECK_FALSE(corrected_named_value("The payment workers run on Ruby 3.1, and Sidekiq handles the queues.",
                                      "Ruby 3.3 or 3.4, not 3.1.", {"3.1"}));
    // A lower-case word of letters alone is no name: "we", "use" and "now" are not values.
    CHECK_FALSE(corrected_named_value("Sessions are cached in Memcached, and the cache is flushed on deploy.",
                                      "we use valkey now, not memcached.", {"memcached"}));
    // A retired term in Han script has no form to match.
    CHECK_FALSE(corrected_named_value("周会由王磊主持，会议室是三楼。", "周会现在由刘洋主持，不是王磊。", {"王磊"}));
}

TEST_CASE("a value corrected in a text: written once, replaced in the writer's spelling", "[lifecycle][corrections]") {
    using starling::core::CorrectedValue;
    using starling::core::times_written;
    using starling::core::with_value_corrected;
    CHECK(with_value_corrected("Deploys go through ArgoCD; the staging cluster is stg-eu-1.\n",
                               CorrectedValue{"stg-eu-1", "stg-eu-2"}) ==
          std::optional<std::string>{"Deploys go through ArgoCD; the staging cluster is stg-eu-2.\n"});
    CHECK(with_value_corrected("Für Sicherheit ist KATRIN zuständig.", CorrectedValue{"Katrin", "Jonas"}) ==
          std::optional<std::string>{"Für Sicherheit ist Jonas zuständig."});
    CHECK(with_value_corrected("端口是 7001，超时 500 毫秒。", CorrectedValue{"7001", "7002"}) ==
          std::optional<std::string>{"端口是 7002，超时 500 毫秒。"});
    // Part of a longer name is not the value; twice, it does not say which.
    CHECK_FALSE(with_value_corrected("The host is stg-eu-10.", CorrectedValue{"stg-eu-1", "stg-eu-2"}));
    CHECK_FALSE(with_value_corrected("Node 18 here, Node 18 there.", CorrectedValue{"18", "20"}));
    CHECK(times_written("Node 18 here, Node 18 there.", "node 18") == 2);
    CHECK(times_written("Node 18 here.", "stg-eu-1") == 0);
}

TEST_CASE("a clause left untouched: one with two words or more of its own", "[lifecycle][corrections]") {
    using starling::core::leaves_a_clause_untouched;
    CHECK(leaves_a_clause_untouched("Staging läuft in München, Freigaben gibt Jonas.", "Staging läuft in Frankfurt."));
    CHECK(leaves_a_clause_untouched("Node 18 in CI; Node 18 on the dev boxes too.", "Node 20 in CI."));
    CHECK(leaves_a_clause_untouched("订单服务部署在北京，端口是 7001。", "端口是 7002。"));
    CHECK(leaves_a_clause_untouched("Our app runs on Python 3.10 and uses Celery with Redis.", "We're on Python 3.12 now."));
    // One clause, or every clause said again but for its value.
    CHECK_FALSE(leaves_a_clause_untouched("Staging läuft in München.", "Staging läuft in Frankfurt."));
    CHECK_FALSE(leaves_a_clause_untouched("The cluster is stg-eu-1, in Frankfurt.", "The cluster is stg-eu-2, in Frankfurt."));
}
