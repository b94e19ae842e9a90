// SPDX-License-Identifier: Apache-2.0
//
// `starling man-pages DIR`: the manual pages, made from the command reference: starling(1), and
// one page per command group (starling-memories(1), ...) with each command's synopsis,
// description, options with their defaults, and examples.
#pragma once

#include <string>
#include <vector>

namespace starling::app {

struct ManPage {
    std::string file_name; ///< "starling.1", "starling-memories.1"
    std::string text;      ///< roff, for man(7)
};

/// `version` goes into each page's footer.
[[nodiscard]] std::vector<ManPage> man_pages(const std::string &version);

} // namespace starling::app
