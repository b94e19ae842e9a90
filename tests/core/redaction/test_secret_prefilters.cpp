// SPDX-License-Identifier: Apache-2.0
// The scanners skip most of a text without looking at it closely: a word is looked up as a credential
// name only when `=`, `:` or `is` follows it, a run is tested against the vendors' shapes only when it
// is long enough for one, the formats that need a colon are looked for only in a text that has one,
// webhooks only where `hooks` appears. None of these shortcuts may hide a secret.
#include <starling/core/redaction/redaction.hpp>

#include "support/secret_fixtures.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::core::find_builtin_secrets;
using starling::core::redact_secrets;
using starling::core::SecretSpan;

namespace {

/// Prose with none of what the shortcuts look for: no colon, no `=`, no `hooks`, no long run.
std::string plain_prose(std::size_t sentences) {
    std::string text;
    for (std::size_t index = 0; index < sentences; ++index) {
        text += "Retry a lock until each build passes because the staging server is slow today. ";
    }
    return text;
}

std::vector<SecretSpan> shifted(std::vector<SecretSpan> spans, std::size_t by) {
    for (auto &span : spans) {
        span.begin += by;
        span.end += by;
    }
    return spans;
}

void check_same_spans(const std::vector<SecretSpan> &found, const std::vector<SecretSpan> &expected) {
    REQUIRE(found.size() == expected.size());
    for (std::size_t index = 0; index < found.size(); ++index) {
        CHECK(found[index].begin == expected[index].begin);
        CHECK(found[index].end == expected[index].end);
        CHECK(found[index].kind == expected[index].kind);
    }
}

std::vector<std::string> kinds_in(std::string_view text) {
    std::vector<std::string> kinds;
    for (const auto &span : find_builtin_secrets(text)) {
        kinds.push_back(span.kind);
    }
    return kinds;
}

} // namespace

TEST_CASE("every format is found alike at the start, middle and end of long plain prose", "[lifecycle][redaction]") {
    const std::string prose = plain_prose(30);
    for (const auto &secret : starling::test::secret_fixtures()) {
        INFO(secret.format << ": " << secret.text);
        const auto alone = find_builtin_secrets(secret.text);
        REQUIRE_FALSE(alone.empty());
        check_same_spans(find_builtin_secrets(secret.text + "\n" + prose), alone);
        check_same_spans(find_builtin_secrets(prose + "\n" + secret.text + "\n" + prose), shifted(alone, prose.size() + 1));
        check_same_spans(find_builtin_secrets(prose + secret.text), shifted(alone, prose.size()));
        for (const auto &near : starling::test::secret_fixtures()) {
            // Another format's near miss before it (colons, `=`, prefixes) changes nothing found.
            INFO("after the near miss of " << near.format);
            CHECK(redact_secrets(near.near_miss + "\n" + secret.text).text ==
                  near.near_miss + "\n" + redact_secrets(secret.text).text);
        }
    }
}

TEST_CASE("a word followed by blanks, a quote or a tab before its value is still a credential name",
          "[lifecycle][redaction]") {
    CHECK(kinds_in("password   =   correct-horse-battery-staple") == std::vector<std::string>{"credential"});
    CHECK(kinds_in("DB_PASSWORD\t:\thunter2hunter2") == std::vector<std::string>{"credential"});
    CHECK(kinds_in(R"({"clientSecret" : "Zx81kq02LmPq4RtY"})") == std::vector<std::string>{"credential"});
    CHECK(kinds_in("the deploy token IS 9f2c6b1de4a87f03c5b2e91d7a604f8e") == std::vector<std::string>{"credential"});
    CHECK(kinds_in("the deploy secret \t is 9f2c6b1de4a87f03c5b2e91d7a604f8e") == std::vector<std::string>{"credential"});
    CHECK(kinds_in("the token itself is short") == std::vector<std::string>{});
    CHECK(kinds_in("token") == std::vector<std::string>{});
    CHECK(kinds_in("token=") == std::vector<std::string>{});
}

TEST_CASE("a token exactly as long as the shortest shape is tested against the shapes", "[lifecycle][redaction]") {
    CHECK(kinds_in("xoxb-12345a7890") == std::vector<std::string>{"slack-token"}); // 5 + 10
    CHECK(kinds_in("xoxb-12345a789") == std::vector<std::string>{});                // one short
    CHECK(kinds_in("eyJhbGciOi.eyJzdWIiOi.dozjgNryP4") == std::vector<std::string>{"jwt"}); // 10.10.10
    CHECK(kinds_in("eyJhbGciOi.eyJzdWIiOi.dozjgNryP") == std::vector<std::string>{});
    CHECK(kinds_in("heroku 84173581-5699-69e5-8b08-1006f7e3dfc9") == std::vector<std::string>{"heroku-api-key"});
    CHECK(kinds_in("heroku 84173581-5699-69e5-8b08-1006f7e3dfc9a") == std::vector<std::string>{});
}

TEST_CASE("the formats that need no colon are found in a text without one", "[lifecycle][redaction]") {
    CHECK(kinds_in("post to hooks.slack.com/services/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 now") ==
          std::vector<std::string>{"slack-webhook"});
    CHECK(kinds_in("see discordapp.com/api/webhooks/525092021755485820/rSFagEaBp0vXnJaE-9I0MyTLUyi0kn1G") ==
          std::vector<std::string>{"discord-webhook"});
    CHECK(kinds_in("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----") ==
          std::vector<std::string>{"private-key"});
    CHECK(kinds_in("Authorization Bearer 9f86d081884c7d659a2feaa0c55ad015") == std::vector<std::string>{"bearer-token"});
}

TEST_CASE("a .pgpass word is found wherever other colons sit on its line", "[lifecycle][redaction]") {
    const std::string line = "at 10:45 we used db.internal:5432:appdb:app:Zk3!pq9#Lw and a\\:b:c";
    const auto spans = find_builtin_secrets(line);
    REQUIRE(spans.size() == 1);
    CHECK(spans[0].kind == "pgpass-password");
    CHECK(line.substr(spans[0].begin, spans[0].end - spans[0].begin) == "Zk3!pq9#Lw");
    CHECK(kinds_in("db\\:x:5432:appdb:app:pw\tnext:1:2:3") == std::vector<std::string>{"pgpass-password"});
    CHECK(kinds_in(":5432:appdb:app:pw") == std::vector<std::string>{});
    CHECK(kinds_in("host:5432:appdb:app:pw:extra") == std::vector<std::string>{});
}
