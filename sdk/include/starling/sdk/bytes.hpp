// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>

#include <string>
#include <string_view>

namespace starling::sdk {

/// Views a borrowed ABI span as a string_view (no copy; valid as long as the span is).
[[nodiscard]] inline std::string_view as_string_view(starling_bytes bytes) noexcept {
    return bytes.data == nullptr ? std::string_view{} : std::string_view{bytes.data, bytes.size};
}

/// Lends a string_view to the ABI as a span (no copy; valid as long as the view is).
[[nodiscard]] inline starling_bytes as_bytes(std::string_view text) noexcept {
    return starling_bytes{text.data(), text.size()};
}

/// Writes text to a sink in one chunk. A sink without a write function swallows the text.
inline void write_to(starling_sink sink, std::string_view text) noexcept {
    if (sink.write != nullptr) {
        sink.write(sink.context, as_bytes(text));
    }
}

/// A sink that appends every chunk to a std::string it owns. Used on the calling side.
class StringSink {
public:
    [[nodiscard]] starling_sink sink() noexcept { return starling_sink{this, &StringSink::append}; }
    [[nodiscard]] const std::string &text() const noexcept { return text_; }
    [[nodiscard]] std::string take() noexcept { return std::move(text_); }

private:
    static void append(void *context, starling_bytes chunk) {
        // The sink contract forbids exceptions crossing back into the plugin; a failed append
        // (out of memory) truncates the output, which the caller then fails to parse.
        try {
            static_cast<StringSink *>(context)->text_.append(as_string_view(chunk));
        } catch (...) {
        }
    }

    std::string text_;
};

} // namespace starling::sdk
