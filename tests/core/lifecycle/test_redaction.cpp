// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/redaction.hpp>

#include "support/secret_fixtures.hpp"

#include <catch2/catch.hpp>

using starling::core::redact_secrets;

TEST_CASE("every secret format of the fixture list is removed, with its kind named", "[lifecycle][redaction]") {
    for (const auto &secret : starling::test::secret_fixtures()) {
        INFO(secret.format << ": " << secret.text);
        const auto redacted = redact_secrets("Please remember this: " + secret.text + " thanks.");
        CHECK(redacted.text.find(secret.secret) == std::string::npos);
        CHECK_THAT(redacted.text, Catch::Contains("[REDACTED:"));
        CHECK_FALSE(redacted.kinds.empty());
        CHECK_THAT(redacted.text, Catch::StartsWith("Please remember this: "));
    }
}

TEST_CASE("redaction keeps what is not a secret", "[lifecycle][redaction]") {
    const std::string ordinary =
        "Always use bun, not pnpm. The tokenizer lives in src/tokenizer.cpp; see https://example.com/docs?a=1 "
        "and the sk-learn-based-classification-pipeline. My password policy doc is at wiki/passwords. "
        "提交信息用中文。 Der Schlüssel liegt im Tresor.";
    const auto redacted = redact_secrets(ordinary);
    CHECK(redacted.text == ordinary);
    CHECK(redacted.kinds.empty());
}

TEST_CASE("redaction keeps the user and host of a URL, and quoted JSON keys", "[lifecycle][redaction]") {
    CHECK(redact_secrets("postgres://app:s3cr3t@db.internal:5432/prod").text ==
          "postgres://app:[REDACTED:url-password]@db.internal:5432/prod");
    CHECK(redact_secrets(R"({"password": "hunter2", "user": "bob"})").text ==
          R"({"password": "[REDACTED:credential]", "user": "bob"})");
    CHECK(redact_secrets("export DB_PASSWORD=correct-horse").text == "export DB_PASSWORD=[REDACTED:credential]");
}
