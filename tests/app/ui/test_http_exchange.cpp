// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/http_exchange.hpp>

#include <catch2/catch.hpp>

using namespace starling::app::ui;

TEST_CASE("a form is decoded: '+' as a space, %XX as its byte, a bad escape as written", "[ui][http]") {
    const auto form = parse_form("summary=a+b%2Cc&body=%3Cscript%3E&bad=100%&odd=%zz&empty=&flag");
    CHECK(field(form, "summary") == "a b,c");
    CHECK(field(form, "body") == "<script>");
    CHECK(field(form, "bad") == "100%");
    CHECK(field(form, "odd") == "%zz");
    CHECK(field(form, "empty") == "");
    CHECK(field(form, "flag") == "");
    CHECK_FALSE(field(form, "absent"));
}

TEST_CASE("a name given twice keeps its first value", "[ui][http]") {
    CHECK(field(parse_form("csrf=right&csrf=wrong"), "csrf") == "right");
}

TEST_CASE("a target is split into its path and its decoded query", "[ui][http]") {
    const auto [path, query] = split_target("/memories?q=deploy+key&page=2");
    CHECK(path == "/memories");
    CHECK(field(query, "q") == "deploy key");
    CHECK(field(query, "page") == "2");
    CHECK(split_target("/archive").first == "/archive");
}

TEST_CASE("url_encode keeps unreserved characters only", "[ui][http]") {
    CHECK(url_encode("k3f9-a_b.c~") == "k3f9-a_b.c~");
    CHECK(url_encode("a b&c=\"<") == "a%20b%26c%3D%22%3C");
    CHECK(field(parse_form("x=" + url_encode("é & <")), "x") == "é & <");
}

TEST_CASE("every answer's security headers forbid scripts, frames and sniffing", "[ui][http]") {
    std::string policy;
    bool nosniff = false;
    for (const auto &[name, value] : security_headers()) {
        if (name == "Content-Security-Policy") {
            policy = value;
        }
        nosniff = nosniff || (name == "X-Content-Type-Options" && value == "nosniff");
    }
    CHECK(policy.find("default-src 'none'") != std::string::npos);
    CHECK(policy.find("frame-ancestors 'none'") != std::string::npos);
    CHECK(policy.find("style-src 'self'") != std::string::npos);
    CHECK(policy.find("script-src") == std::string::npos); // default-src 'none' forbids every script
    CHECK(nosniff);
}
