// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/log.hpp>

namespace starling::test {

/// A logger that writes no file and mirrors nothing to stderr, and drops everything below errors:
/// for registries and buses under test, whose log lines would only clutter the test output.
inline const core::Logger &quiet_logger() {
    static const core::Logger logger{{}, core::LogLevel::error, false};
    return logger;
}

} // namespace starling::test
