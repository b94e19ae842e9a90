// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/html.hpp>

#include <starling/sdk/text/utf8.hpp>

#include <array>

namespace starling::app::ui {

std::string escape_html(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size() + text.size() / 8);
    sdk::text::for_each_code_point(text, sdk::text::Utf8Rules::strict,
                                   [&](const sdk::text::DecodedCodePoint &decoded, std::string_view bytes) {
                                       if (!decoded.valid) {
                                           sdk::text::append_utf8(escaped, sdk::text::replacement_character);
                                           return;
                                       }
                                       switch (decoded.code_point) {
                                       case U'&': escaped += "&amp;"; break;
                                       case U'<': escaped += "&lt;"; break;
                                       case U'>': escaped += "&gt;"; break;
                                       case U'"': escaped += "&quot;"; break;
                                       case U'\'': escaped += "&#39;"; break;
                                       case U'\0': sdk::text::append_utf8(escaped, sdk::text::replacement_character); break;
                                       default: escaped += bytes;
                                       }
                                   });
    return escaped;
}

std::string render_page(const Page &page) {
    struct Link {
        Section section;
        std::string_view path;
        std::string_view name;
    };
    static constexpr std::array<Link, 5> links{{{Section::overview, "/", "Overview"},
                                                {Section::memories, "/memories", "Memories"},
                                                {Section::sessions, "/sessions", "Sessions"},
                                                {Section::archive, "/archive", "Archive"},
                                                {Section::sharing, "/sharing", "Sharing"}}};
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                       "<title>" + escape_html(page.title) + " · Starling</title>"
                       "<link rel=\"stylesheet\" href=\"/assets/style.css\"></head><body><header>"
                       "<span class=\"brand\">Starling</span><nav>";
    for (const auto &link : links) {
        html += "<a href=\"" + std::string(link.path) + "\"" + (link.section == page.section ? " class=\"current\"" : "") +
                ">" + std::string(link.name) + "</a>";
    }
    html += "</nav></header><main><h1>" + escape_html(page.title) + "</h1>" + page.content + "</main></body></html>\n";
    return html;
}

std::string notice(std::string_view kind, std::string_view message) {
    return "<p class=\"notice " + escape_html(kind) + "\" role=\"status\">" + escape_html(message) + "</p>";
}

std::string csrf_field(std::string_view csrf_token) {
    return "<input type=\"hidden\" name=\"csrf\" value=\"" + escape_html(csrf_token) + "\">";
}

} // namespace starling::app::ui
