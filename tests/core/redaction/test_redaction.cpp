// SPDX-License-Identifier: Apache-2.0
#include <starling/core/redaction/redaction.hpp>

#include "support/secret_fixtures.hpp"

#include <catch2/catch.hpp>

#include <set>

using starling::core::redact_secrets;
using starling::core::Redactor;

TEST_CASE("every secret format of the fixture list is removed, with its kind named", "[lifecycle][redaction]") {
    for (const auto &secret : starling::test::secret_fixtures()) {
        INFO(secret.format << ": " << secret.text);
        const auto redacted = redact_secrets("Please remember this: " + secret.text + " thanks.");
        CHECK(redacted.text.find(secret.secret) == std::string::npos);
        CHECK_THAT(redacted.text, Catch::Contains("[REDACTED:"));
        CHECK_FALSE(redacted.kinds.empty());
        CHECK_THAT(redacted.text, Catch::StartsWith("Please remember this: "));
        CHECK_THAT(redacted.text, Catch::EndsWith(" thanks."));
    }
}

TEST_CASE("every near miss of the fixture list is kept byte for byte", "[lifecycle][redaction]") {
    for (const auto &secret : starling::test::secret_fixtures()) {
        INFO(secret.format << ": " << secret.near_miss);
        const auto redacted = redact_secrets(secret.near_miss);
        CHECK(redacted.text == secret.near_miss);
        CHECK(redacted.kinds.empty());
    }
}

TEST_CASE("the fixture list covers at least 30 formats", "[lifecycle][redaction]") {
    std::set<std::string> formats;
    for (const auto &secret : starling::test::secret_fixtures()) {
        formats.insert(secret.format);
    }
    CHECK(formats.size() >= 30);
}

TEST_CASE("redacting redacted text changes nothing", "[lifecycle][redaction]") {
    for (const auto &secret : starling::test::secret_fixtures()) {
        INFO(secret.format);
        const auto once = redact_secrets(secret.text).text;
        const auto twice = redact_secrets(once);
        CHECK(twice.text == once);
        CHECK(twice.kinds.empty());
    }
}

TEST_CASE("a secret quoted inside a quoted string is found, and once redacted is not found again",
          "[lifecycle][redaction]") {
    // How a tag holding `export API_TOKEN="…"` is written into a memory's frontmatter.
    for (const auto &secret : starling::test::secret_fixtures()) {
        INFO(secret.format);
        std::string escaped;
        for (const char c : redact_secrets(secret.text).text) {
            escaped += c == '"' ? std::string{"\\\""} : std::string(1, c);
        }
        const auto serialised = "tags: [deploy, \"" + escaped + "\"]";
        CHECK(redact_secrets(serialised).kinds.empty());
    }
    const auto quoted = redact_secrets(R"(tags: ["export API_TOKEN=\"f3a9c1e0b7d24c5e9a8b\""])");
    CHECK(quoted.text == R"(tags: ["export API_TOKEN=\"[REDACTED:credential]\""])");
}

TEST_CASE("redaction keeps what is not a secret", "[lifecycle][redaction]") {
    const std::string ordinary =
        "Always use bun, not pnpm. The tokenizer lives in src/tokenizer.cpp; see https://example.com/docs?a=1 "
        "and the sk-learn-based-classification-pipeline. My password policy doc is at wiki/passwords. "
        "Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed run 123e4567-e89b-12d3-a456-426614174000; "
        "the file is /home/dev/.config/starling/starling.toml and C:\\Users\\dev\\notes.txt. "
        "Meet at 12:30:45 on 2026-11-25T10:00:00Z. Tags: authorization, bearer, defaultendpointsprotocol. "
        "(link: 'endpoint=sb://x.servicebus.windows.net/;sharedaccesskey=') "
        "提交信息用中文。 Der Schlüssel liegt im Tresor.";
    const auto redacted = redact_secrets(ordinary);
    CHECK(redacted.text == ordinary);
    CHECK(redacted.kinds.empty());
}

TEST_CASE("redaction keeps the user and host of a URL, and quoted JSON keys", "[lifecycle][redaction]") {
    CHECK(redact_secrets("postgres://app:s3cr3t@db.internal:5432/prod").text ==
          "postgres://app:[REDACTED:url-password]@db.internal:5432/prod");
    CHECK(redact_secrets("postgres://app:p4ss/w0rd@db.internal/prod").text ==
          "postgres://app:[REDACTED:url-password]@db.internal/prod");
    CHECK(redact_secrets(R"({"password": "hunter2", "user": "bob"})").text ==
          R"({"password": "[REDACTED:credential]", "user": "bob"})");
    CHECK(redact_secrets("export DB_PASSWORD=correct-horse").text == "export DB_PASSWORD=[REDACTED:credential]");
}

TEST_CASE("redaction names each format and keeps the rest of a connection string or line",
          "[lifecycle][redaction]") {
    CHECK(redact_secrets("AccountName=a;AccountKey=abc+/def==;EndpointSuffix=core.windows.net").text ==
          "AccountName=a;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net");
    CHECK(redact_secrets("db:5432:app:bob:pw\nnext line").text == "db:5432:app:bob:[REDACTED:pgpass-password]\nnext line");
    CHECK(redact_secrets(R"("private_key_id": "b2cc2bd818319478da6bd0c621de49f145fda998")").text ==
          R"("private_key_id": "[REDACTED:gcp-private-key-id]")");
    CHECK(redact_secrets("https://hooks.slack.com/services/T0000000/B0000000/abcdefABCDEF123456").text ==
          "https://hooks.slack.com/services/[REDACTED:slack-webhook]");
}

TEST_CASE("find_builtin_secrets gives sorted, disjoint spans covering each secret", "[lifecycle][redaction]") {
    const std::string text = "token=ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R and AKIAIOSFODNN7EXAMPLE";
    const auto spans = starling::core::find_builtin_secrets(text);
    REQUIRE(spans.size() == 2);
    CHECK(text.substr(spans[0].begin, spans[0].end - spans[0].begin) == "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R");
    CHECK(spans[0].kind == "github-token"); // the assignment's value is the token: the specific name wins
    CHECK(text.substr(spans[1].begin, spans[1].end - spans[1].begin) == "AKIAIOSFODNN7EXAMPLE");
    CHECK(spans[1].kind == "aws-access-key");
}

TEST_CASE("extra patterns redact their match, or only their first group", "[lifecycle][redaction]") {
    const Redactor redactor{{"ACME-[0-9]{6}", "internal_pin\\s*->\\s*(\\d+)"}};
    const auto redacted = redactor.redact("ticket ACME-123456, internal_pin -> 4711, ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R");
    CHECK(redacted.text ==
          "ticket [REDACTED:extra-pattern], internal_pin -> [REDACTED:extra-pattern], [REDACTED:github-token]");
    CHECK(redactor.redact(redacted.text).text == redacted.text);
    CHECK(Redactor{}.redact("ticket ACME-123456").text == "ticket ACME-123456");
}
