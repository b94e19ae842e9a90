// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/html.hpp>

#include <catch2/catch.hpp>

using namespace starling::app::ui;

TEST_CASE("memory text is escaped: a script is shown as text", "[ui][html]") {
    CHECK(escape_html("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
    CHECK(escape_html("a & \"b\" 'c'") == "a &amp; &quot;b&quot; &#39;c&#39;");
    CHECK(escape_html("déjà vu") == "déjà vu");
}

TEST_CASE("bytes that are not UTF-8, and NUL, become U+FFFD", "[ui][html]") {
    CHECK(escape_html(std::string("a\xff" "b")) == "a\xEF\xBF\xBD" "b");
    CHECK(escape_html(std::string("a\0b", 3)) == "a\xEF\xBF\xBD" "b");
    CHECK(escape_html("\xC0\xBC") == "\xEF\xBF\xBD\xEF\xBF\xBD"); // an overlong '<' stays no '<'
}

TEST_CASE("a page marks its section and escapes its title", "[ui][html]") {
    const auto html = render_page({Section::archive, "<b>Archive</b>", "<p>content</p>"});
    CHECK(html.find("<a href=\"/archive\" class=\"current\">Archive</a>") != std::string::npos);
    CHECK(html.find("<a href=\"/memories\">Memories</a>") != std::string::npos);
    CHECK(html.find("<h1>&lt;b&gt;Archive&lt;/b&gt;</h1>") != std::string::npos);
    CHECK(html.find("<p>content</p>") != std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
}

TEST_CASE("a notice and the CSRF field escape what they carry", "[ui][html]") {
    CHECK(notice("error", "<x>") == "<p class=\"notice error\" role=\"status\">&lt;x&gt;</p>");
    CHECK(csrf_field("a\"b") == "<input type=\"hidden\" name=\"csrf\" value=\"a&quot;b\">");
}
