// SPDX-License-Identifier: Apache-2.0
// Secrets by context (issue 43, point 1): what the rules find, and the ordinary text — seen in real
// code, logs and docs while measuring them — that they must leave alone.
#include <starling/core/redaction/redaction.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::core::find_builtin_secrets;
using starling::core::redact_secrets;

namespace {

std::vector<std::string> found_in(const std::string &text) {
    std::vector<std::string> secrets;
    for (const auto &span : find_builtin_secrets(text)) {
        secrets.push_back(text.substr(span.begin, span.end - span.begin));
    }
    return secrets;
}

} // namespace

TEST_CASE("a generated value next to a secret word is a secret, in English, German and Chinese", "[redaction][context]") {
    CHECK(found_in("the staging api token for the deploy bot is wY6lxq2ZUCHSlm36ZsyTBirEFdidmLGRTo2WpVHW") ==
          std::vector<std::string>{"wY6lxq2ZUCHSlm36ZsyTBirEFdidmLGRTo2WpVHW"});
    CHECK(found_in("Das Passwort für den Jenkins-Admin lautet tbJ=0Zmw3O6PHwaaC-R") ==
          std::vector<std::string>{"tbJ=0Zmw3O6PHwaaC-R"});
    CHECK(found_in("Zugangsdaten: Benutzer deploy, Passwort 53hCbz_lwVt*p0Q9") == std::vector<std::string>{"53hCbz_lwVt*p0Q9"});
    CHECK(found_in("数据库密码是Xq3vP9mLk2Rt") == std::vector<std::string>{"Xq3vP9mLk2Rt"});
    CHECK(found_in("令牌：Qm9vZ2xlQm9vZ2xl7x") == std::vector<std::string>{"Qm9vZ2xlQm9vZ2xl7x"});
    CHECK(found_in("credentials for the SFTP box: deploy / i@46z%WOffyN") == std::vector<std::string>{"i@46z%WOffyN"});
    CHECK(found_in("The signing secret for the webhook is 09226446472f5ab69f0edbb04550f378cecde0a2d79f3c4ee548348389c78f7c.") ==
          std::vector<std::string>{"09226446472f5ab69f0edbb04550f378cecde0a2d79f3c4ee548348389c78f7c"});
}

TEST_CASE("a secret word's name may go on, and then its value must look random", "[redaction][context]") {
    CHECK(found_in("SECRET_KEY_BASE=9f3Kq2LmX8vR1tZp7WcY4nB6hJ0dS5aE") ==
          std::vector<std::string>{"9f3Kq2LmX8vR1tZp7WcY4nB6hJ0dS5aE"});
    CHECK(found_in("PASSWORD_HASH_ALGORITHM: argon2id").empty());
    CHECK(found_in("secret_arn: arn:aws:secretsmanager:eu-central-1:123456789012:secret:prod/db/password-AbCdEf").empty());
    CHECK(found_in("NL80211_KEY_MAX = __NL80211_KEY_AFTER_LAST - 1").empty());
    CHECK(found_in("AUTH_TOKEN_TTL_SECONDS=3600 and max_tokens: 4096").empty());
}

TEST_CASE("command lines: password options, and `-p` only where it is a password", "[redaction][context]") {
    CHECK(found_in("docker login -u ci -p Hq7vLm2XpR9t registry.example.com") == std::vector<std::string>{"Hq7vLm2XpR9t"});
    CHECK(found_in("mysql -h 10.0.3.12 -u root -p'KDCg5a9BJ!BRiOpg3j+j'") == std::vector<std::string>{"KDCg5a9BJ!BRiOpg3j+j"});
    CHECK(found_in("redis-cli -h cache.internal -a hZzg~BuLOk_9!.qYmta") == std::vector<std::string>{"hZzg~BuLOk_9!.qYmta"});
    CHECK(found_in("kubectl --token=Zq8mW3pLx7Qr get pods") == std::vector<std::string>{"Zq8mW3pLx7Qr"});
    CHECK(found_in("docker run -p 8080:80 nginx && mysql -u root -p shop").empty());
    CHECK(found_in("docker build --secret id=pip_token,env=PIP_TOKEN . && helm login --password-stdin").empty());
    CHECK(found_in("the --username and --password options are read from the URL").empty());
}

TEST_CASE("a JSON Web Key's private members are secrets, its public ones are not", "[redaction][context]") {
    const std::string d = "ZaWSTSJLN5FWfgZeEuy7QIdr1HDxMdyIq6L8UG5xSXvT";
    CHECK(found_in(R"({"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4","d":")" + d + R"("})") ==
          std::vector<std::string>{d});
    CHECK(found_in(R"({"kty":"RSA","e":"AQAB","n":"MtdgdPc45mjUxZtQz3bOfG4Yntqk2TwUuFK5UrYiKSUTeR7hTBS4"})").empty());
    CHECK(found_in(R"({"d": ")" + d + R"(", "note": "no key type: no JWK"})").empty());
}

TEST_CASE("references, placeholders, code and prose after a secret word are no secrets", "[redaction][context]") {
    for (const std::string text : {
             "POSTGRES_PASSWORD: ${{ secrets.CI_POSTGRES_PASSWORD }}",
             "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app",
             "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
             "API_KEY=changeme",
             "password: \"********\"",
             "client_secret: <client-secret>",
             "GITLAB_TOKEN=glpat-<your-token>",
             "\"password\": \"test-password-123\"",
             "SECRET_KEY=replace-me-in-production",
             "if (reference_token == \"-\")",
             "password = body.get(\"password\", \"\")",
             "self.passwd = passwd",
             "const token = await this.getAccessToken();",
             "access_token=access, refresh_token=refresh,",
             "def validate_token(token: str) -> bool:",
             "- password: The password for the authentication.",
             "key := argon2.IDKey([]byte(password), salt, p.Iterations)",
             "unsigned char key[TLS_CIPHER_AES_GCM_256_KEY_SIZE];",
             "private_key: ed25519.Ed25519PrivateKey",
             "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL8Ra1l0gJa5SntkbBxhgX0V1k8jkVCI6Ia3cUy5ZMTo deploy@ci",
             "Token: '#ABB2BF',",
             "ED25519 key fingerprint is SHA256:fJgxMrz7uJeKcFV55DaUjkfZvKCJS/rJhZXCTbQdjgU.",
             "Add Simon Josefsson's key 9AA9BDB11BB1B99A21285A330664A76954265E8C",
             "GnuPG key: 0x7EC2DBB6F4DBF434",
             "the token refresh fix is in 3f9a2c1b7d4e5f60718293a4b5c6d7e8f9012345",
             "time=08:00 msg=\"invalid credentials\" request_id=f8c150dc-da67-4092-a747-58c663af7a88 host=api-f5b1d4719b-0ab1b",
             "github.com/acme/tokenkit v0.0.0-20240313061409-85cd83870327",
             ".secret-banner{font-size:0.636rem}",
             "registry|token is|[REDACTED:github-token]",
         }) {
        INFO(text);
        CHECK(found_in(text).empty());
    }
}

TEST_CASE("a record of a binary file, or a redaction's marker, ends what a secret word names", "[redaction][context]") {
    const std::string records = std::string{"auth token [REDACTED:credential]"} + '\0' + '\x05' +
                                "Twilio account SID ACaf4c368be057a05fe418827b67929832";
    CHECK(found_in(records).empty());
    CHECK(redact_secrets("curl -u [REDACTED:twilio-api-key]:[REDACTED:twilio-api-key-secret] https://api.twilio.com")
              .kinds.empty());
}

TEST_CASE("text that only starts like a redaction's marker hides nothing after it", "[redaction][context]") {
    const std::string text = "see [REDACTED:~ and then client_secret=OK99Q~J1lf5n7RMdcb._CugEfZULLD6RygdaOVci";
    const auto once = redact_secrets(text);
    CHECK_THAT(once.text, !Catch::Contains("J1lf5n7RMdcb"));
    CHECK(redact_secrets(once.text).text == once.text);
    // A whole marker is left as it is, and what follows it is still looked at.
    const auto after_marker = redact_secrets("[REDACTED:credential] and password: Zq8!mW3pLx7");
    CHECK(after_marker.text == "[REDACTED:credential] and password: [REDACTED:credential]");
}
