// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/file_io.hpp>

#include <cstddef>
#include <string_view>

namespace starling::app {

/// Writes every byte unless the descriptor fails; async-signal-safe, for crash handlers too.
inline void write_all(int descriptor, const char *data, std::size_t size) noexcept {
    static_cast<void>(core::write_fully(descriptor, std::string_view{data, size}));
}

} // namespace starling::app
