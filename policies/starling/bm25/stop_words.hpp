// SPDX-License-Identifier: Apache-2.0
//
// The built-in stop-word lists, chosen by language code in `stop_words.languages`. They are
// compiled in rather than declared as settings: as settings, the host parsed ~460 words into JSON
// and the plugin copied them into a settings tree on every hook that scores, a third of the prompt
// hook's fixed cost. Users adjust a list with `stop_words.extra` and `stop_words.keep`.
#pragma once

#include <span>
#include <string_view>

namespace starling::bm25 {

struct BuiltInStopWords {
    std::string_view language; ///< ISO 639-1 code, e.g. "en"
    std::span<const std::string_view> words;
};

/// Every built-in list, sorted by language code.
[[nodiscard]] std::span<const BuiltInStopWords> built_in_stop_words() noexcept;

/// The list of `language`, or nullptr if there is none.
[[nodiscard]] const BuiltInStopWords *find_built_in_stop_words(std::string_view language) noexcept;

} // namespace starling::bm25
