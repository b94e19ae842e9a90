// SPDX-License-Identifier: Apache-2.0
//
// HTML for the viewer's pages: every text that comes from the store goes through escape_html, and
// each page is one Page written into the shared layout.
#pragma once

#include <string>
#include <string_view>

namespace starling::app::ui {

/// `text` safe in an HTML element or a quoted attribute: & < > " ' as entities; bytes that are not
/// valid UTF-8 as U+FFFD, so that a broken file cannot break the page.
[[nodiscard]] std::string escape_html(std::string_view text);

/// The pages of the navigation bar, in its order.
enum class Section { overview, memories, sessions, archive, sharing };

struct Page {
    Section section = Section::overview;
    std::string title;   ///< plain text, escaped when written
    std::string content; ///< HTML, already escaped where it holds data
};

/// The whole document of `page`: the layout, the navigation with `page.section` marked, the content.
[[nodiscard]] std::string render_page(const Page &page);

/// A notice box: `kind` is "error" or "done"; `message` is plain text.
[[nodiscard]] std::string notice(std::string_view kind, std::string_view message);

/// A hidden form field carrying the run's CSRF token.
[[nodiscard]] std::string csrf_field(std::string_view csrf_token);

} // namespace starling::app::ui
