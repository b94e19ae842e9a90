// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace starling::test {

/// Sets an environment variable (or unsets it, for nullptr) for one scope, and restores what was
/// there before.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char *name, const char *value) : name_(name) {
        if (const char *previous = std::getenv(name)) {
            previous_ = previous;
        }
        if (value != nullptr) {
            ::setenv(name, value, 1);
        } else {
            ::unsetenv(name);
        }
    }
    ScopedEnvironment(const char *name, const std::string &value) : ScopedEnvironment(name, value.c_str()) {}
    ScopedEnvironment(const ScopedEnvironment &) = delete;
    ScopedEnvironment &operator=(const ScopedEnvironment &) = delete;
    ~ScopedEnvironment() {
        if (previous_) {
            ::setenv(name_, previous_->c_str(), 1);
        } else {
            ::unsetenv(name_);
        }
    }

private:
    const char *name_;
    std::optional<std::string> previous_;
};

} // namespace starling::test
