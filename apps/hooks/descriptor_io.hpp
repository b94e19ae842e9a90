// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/file_io.hpp>

#include <sys/uio.h>

#include <cerrno>
#include <cstddef>
#include <span>
#include <string_view>

namespace starling::app {

/// Writes every byte unless the descriptor fails; async-signal-safe, for crash handlers too.
inline void write_all(int descriptor, const char *data, std::size_t size) noexcept {
    static_cast<void>(core::write_fully(descriptor, std::string_view{data, size}));
}

/// Drops the first `written` bytes from `parts`: what a short writev or sendmsg left to write.
inline void drop_written(std::span<iovec> &parts, std::size_t written) noexcept {
    while (!parts.empty() && written >= parts.front().iov_len) {
        written -= parts.front().iov_len;
        parts = parts.subspan(1);
    }
    if (!parts.empty()) {
        parts.front().iov_base = static_cast<char *>(parts.front().iov_base) + written;
        parts.front().iov_len -= written;
    }
}

/// Writes every byte of `parts`, in order, with as few writes as the descriptor takes (one, for a
/// pipe with room) unless it fails. `parts` is consumed.
inline void write_all(int descriptor, std::span<iovec> parts) noexcept {
    while (!parts.empty()) {
        const ssize_t written = ::writev(descriptor, parts.data(), static_cast<int>(parts.size()));
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            return;
        }
        drop_written(parts, static_cast<std::size_t>(written));
    }
}

} // namespace starling::app
