// SPDX-License-Identifier: Apache-2.0
// The cases of the secret corpus (tests/fixtures/secrets/, see secret_corpus.hpp), header-only and
// standard C++ only: the end-to-end tests, which see Starling from outside, read them too.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace starling::bench {

/// A corpus file that cannot be read or has a line that is not a case; names the file and line.
class SecretCorpusError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct SecretCase {
    std::string id;
    std::string text;   ///< the line without its marks
    std::string secret; ///< what stood between ⟦ and ⟧; empty for a near miss
};

inline std::string read_corpus_file(const std::filesystem::path &file) {
    std::ifstream in{file, std::ios::binary};
    if (!in) {
        throw SecretCorpusError{"cannot read " + file.string()};
    }
    std::ostringstream content;
    content << in.rdbuf();
    return std::move(content).str();
}

/// The cases of one file: `id | text` lines, `#` lines and blank lines skipped. With `marked`,
/// each case holds exactly one ⟦…⟧; without, none.
inline std::vector<SecretCase> read_secret_cases(const std::filesystem::path &file, bool marked) {
    constexpr std::string_view kOpen = "\u27E6";
    constexpr std::string_view kClose = "\u27E7";
    std::istringstream in{read_corpus_file(file)};
    std::vector<SecretCase> cases;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        if (line.empty() || line.front() == '#') {
            continue;
        }
        const auto where = file.string() + ":" + std::to_string(number) + ": ";
        const auto bar = line.find(" | ");
        if (bar == std::string::npos || bar == 0) {
            throw SecretCorpusError{where + "expected `id | text`"};
        }
        SecretCase one{line.substr(0, bar), line.substr(bar + 3), {}};
        const auto open = one.text.find(kOpen);
        const auto close = one.text.find(kClose);
        if (!marked) {
            if (open != std::string::npos || close != std::string::npos) {
                throw SecretCorpusError{where + "a near miss holds no ⟦…⟧ mark"};
            }
        } else if (open == std::string::npos || close == std::string::npos || close < open ||
                   one.text.find(kOpen, open + 1) != std::string::npos || close == open + kOpen.size()) {
            throw SecretCorpusError{where + "expected exactly one secret marked ⟦…⟧"};
        } else {
            one.secret = one.text.substr(open + kOpen.size(), close - open - kOpen.size());
            one.text = one.text.substr(0, open) + one.secret + one.text.substr(close + kClose.size());
        }
        cases.push_back(std::move(one));
    }
    return cases;
}

} // namespace starling::bench
