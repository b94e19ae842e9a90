// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace starling::app {

/// Writes every byte unless the descriptor fails; async-signal-safe, for crash handlers too.
inline void write_all(int descriptor, const char *data, std::size_t size) noexcept {
    while (size > 0) {
        const auto written = ::write(descriptor, data, size);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            return;
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
}

} // namespace starling::app
