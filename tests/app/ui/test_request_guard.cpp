// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/request_guard.hpp>

#include <catch2/catch.hpp>

using namespace starling::app::ui;

namespace {

constexpr unsigned short port = 40001;
const RunSecrets secrets{"the-access-token", "the-csrf-token"};

HttpRequest browser_get(const std::string &target) {
    HttpRequest request;
    request.method = "GET";
    request.target = target;
    request.host = "127.0.0.1:40001";
    request.cookie = "theme=dark; starling_ui_40002=another-run; starling_ui_40001=the-access-token";
    return request;
}

HttpRequest browser_post(const std::string &body) {
    HttpRequest request = browser_get("/memory/pin");
    request.method = "POST";
    request.origin = "http://127.0.0.1:40001";
    request.body = body;
    return request;
}

std::string header(const HttpResponse &response, const std::string &name) {
    for (const auto &[key, value] : response.headers) {
        if (key == name) {
            return value;
        }
    }
    return {};
}

} // namespace

TEST_CASE("only 127.0.0.1 and localhost at the server's port are this server's Host", "[ui][guard]") {
    CHECK(is_local_host("127.0.0.1:40001", port));
    CHECK(is_local_host("localhost:40001", port));
    CHECK_FALSE(is_local_host("attacker.example:40001", port)); // a rebound DNS name
    CHECK_FALSE(is_local_host("127.0.0.1:40002", port));
    CHECK_FALSE(is_local_host("127.0.0.1", port));
    CHECK_FALSE(is_local_host("127.0.0.1:400011", port));
    CHECK_FALSE(is_local_host("", port));
    CHECK_FALSE(is_local_host("localhost.attacker.example:40001", port));
}

TEST_CASE("only the server's own http origin is local", "[ui][guard]") {
    CHECK(is_local_origin("http://127.0.0.1:40001", port));
    CHECK(is_local_origin("http://localhost:40001", port));
    CHECK_FALSE(is_local_origin("https://127.0.0.1:40001", port));
    CHECK_FALSE(is_local_origin("http://evil.example", port));
    CHECK_FALSE(is_local_origin("null", port));
    CHECK_FALSE(is_local_origin("", port));
}

TEST_CASE("a cookie is found by its exact name", "[ui][guard]") {
    CHECK(cookie_value("a=1; starling_ui=xyz; b=2", "starling_ui") == "xyz");
    CHECK(cookie_value("starling_ui=xyz", "starling_ui") == "xyz");
    CHECK_FALSE(cookie_value("not_starling_ui=xyz", "starling_ui"));
    CHECK_FALSE(cookie_value("", "starling_ui"));
}

TEST_CASE("secrets compare equal only when whole", "[ui][guard]") {
    CHECK(same_secret("abc", "abc"));
    CHECK_FALSE(same_secret("abd", "abc"));
    CHECK_FALSE(same_secret("ab", "abc"));
    CHECK_FALSE(same_secret("abcd", "abc"));
    CHECK_FALSE(same_secret("", ""));
}

TEST_CASE("run secrets are 32 random bytes each, different every time", "[ui][guard]") {
    const auto first = make_run_secrets();
    const auto second = make_run_secrets();
    CHECK(first.access_token.size() == 64);
    CHECK(first.csrf_token.size() == 64);
    CHECK(first.access_token != second.access_token);
    CHECK(first.access_token != first.csrf_token);
}

TEST_CASE("the browser's requests with the cookie pass", "[ui][guard]") {
    CHECK(guard_request(browser_get("/memories"), secrets, port).outcome == GuardVerdict::Outcome::allow);
    auto localhost = browser_get("/");
    localhost.host = "localhost:40001";
    CHECK(guard_request(localhost, secrets, port).outcome == GuardVerdict::Outcome::allow);
    CHECK(guard_request(browser_post("id=k&csrf=the-csrf-token"), secrets, port).outcome ==
          GuardVerdict::Outcome::allow);
}

TEST_CASE("the token in the URL becomes an HttpOnly SameSite=Strict cookie and leaves the address", "[ui][guard]") {
    auto request = browser_get("/?token=the-access-token");
    request.cookie.clear();
    const auto verdict = guard_request(request, secrets, port);
    REQUIRE(verdict.outcome == GuardVerdict::Outcome::open_token);
    CHECK(verdict.response.status == 303);
    CHECK(header(verdict.response, "Location") == "/");
    const auto cookie = header(verdict.response, "Set-Cookie");
    CHECK(cookie.starts_with("starling_ui_40001=the-access-token;"));
    CHECK(cookie.find("HttpOnly") != std::string::npos);
    CHECK(cookie.find("SameSite=Strict") != std::string::npos);
}

TEST_CASE("refused: a request without the token, with a wrong one, or a wrong cookie", "[ui][guard]") {
    auto without = browser_get("/");
    without.cookie.clear();
    auto wrong_token = browser_get("/?token=guess");
    wrong_token.cookie.clear();
    auto wrong_cookie = browser_get("/");
    wrong_cookie.cookie = "starling_ui_40001=the-access-tokeN";
    auto other_port = browser_get("/");
    other_port.cookie = "starling_ui_40002=the-access-token"; // another run's cookie name
    for (const auto &request : {without, wrong_token, wrong_cookie, other_port}) {
        const auto verdict = guard_request(request, secrets, port);
        CHECK(verdict.outcome == GuardVerdict::Outcome::refuse);
        CHECK(verdict.response.status == 403);
        CHECK(verdict.response.body == "forbidden\n"); // nothing about the store
    }
}

TEST_CASE("refused: a foreign Host, even with the right cookie", "[ui][guard]") {
    auto request = browser_get("/");
    request.host = "rebound.example:40001";
    const auto verdict = guard_request(request, secrets, port);
    CHECK(verdict.outcome == GuardVerdict::Outcome::refuse);
    CHECK(verdict.response.status == 403);
    auto missing = browser_get("/");
    missing.host.clear();
    CHECK(guard_request(missing, secrets, port).response.status == 403);
}

TEST_CASE("refused: methods other than GET and POST", "[ui][guard]") {
    auto request = browser_get("/memory?id=k");
    request.method = "DELETE";
    const auto verdict = guard_request(request, secrets, port);
    CHECK(verdict.outcome == GuardVerdict::Outcome::refuse);
    CHECK(verdict.response.status == 405);
}

TEST_CASE("refused: a POST without the Origin, from another origin, or without the CSRF token", "[ui][guard]") {
    auto no_origin = browser_post("id=k&csrf=the-csrf-token");
    no_origin.origin.clear();
    auto foreign_origin = browser_post("id=k&csrf=the-csrf-token");
    foreign_origin.origin = "http://evil.example";
    auto no_csrf = browser_post("id=k");
    auto wrong_csrf = browser_post("id=k&csrf=the-access-token");
    for (const auto &request : {no_origin, foreign_origin, no_csrf, wrong_csrf}) {
        const auto verdict = guard_request(request, secrets, port);
        CHECK(verdict.outcome == GuardVerdict::Outcome::refuse);
        CHECK(verdict.response.status == 403);
    }
}
