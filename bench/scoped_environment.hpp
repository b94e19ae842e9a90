// SPDX-License-Identifier: Apache-2.0
//
// The benchmarks make Applications in scratch homes, and an Application reads STARLING_HOME and
// STARLING_NOW from the environment: this sets them for as long as a benchmark needs, and puts back
// whatever the caller had.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace starling::bench {

class ScopedEnvironment {
public:
    ScopedEnvironment() = default;
    ScopedEnvironment(const ScopedEnvironment &) = delete;
    ScopedEnvironment &operator=(const ScopedEnvironment &) = delete;
    ~ScopedEnvironment() {
        for (auto saved = saved_.rbegin(); saved != saved_.rend(); ++saved) {
            if (saved->second) {
                ::setenv(saved->first.c_str(), saved->second->c_str(), 1);
            } else {
                ::unsetenv(saved->first.c_str());
            }
        }
    }

    /// Sets `name` to `value`; the first time a name is set, what it was is kept to be put back.
    void set(const std::string &name, const std::string &value) {
        const bool kept = std::any_of(saved_.begin(), saved_.end(),
                                      [&](const auto &saved) { return saved.first == name; });
        if (!kept) {
            const char *before = std::getenv(name.c_str());
            saved_.emplace_back(name, before == nullptr ? std::nullopt : std::optional<std::string>{before});
        }
        ::setenv(name.c_str(), value.c_str(), 1);
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

} // namespace starling::bench
