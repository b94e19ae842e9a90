// SPDX-License-Identifier: Apache-2.0
//
// The substance check of an isolated memory, without a model. The seed asked an LLM whether the entry
// was "specific, reusable technical learning"; this asks whether the text is long enough and holds
// concrete technical content a reader could act on.
#pragma once

#include "isolation_settings.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::isolation {

struct SubstanceVerdict {
    bool substantive = false;
    std::size_t length = 0;        ///< characters (code points) once runs of blanks are one space
    std::vector<std::string> cues; ///< the kinds of concrete content found: code, path, command, error, number
    /// "61 characters; code, path" or "23 characters, fewer than 50".
    [[nodiscard]] std::string describe(const IsolationSettings &settings) const;
};

/// Substantive: at least `substance.min_length` characters and at least `substance.min_cues` of the
/// five kinds of concrete content:
///  * code — a backtick, or `::`, `->`, `=>`, `()`, or a snake_case identifier;
///  * path — a token with a `/` or `\` between two letters or digits, one starting with `/`, `~/`,
///    `./` or `../`, a URL, or a file name whose extension is in `substance.file_extensions`;
///  * command — a line starting with `$ `, or a word of `substance.command_words` followed by another;
///  * error — a word or phrase of `substance.error_words`;
///  * number — two digits in a row, or a digit next to a unit, `%`, `.`, `:` or `x` (a version, a
///    port, a size, a duration).
[[nodiscard]] SubstanceVerdict judge_substance(std::string_view text, const IsolationSettings &settings);

} // namespace starling::isolation
