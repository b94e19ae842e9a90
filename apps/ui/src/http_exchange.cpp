// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/http_exchange.hpp>

namespace starling::app::ui {

namespace {

int hex_value(char digit) noexcept {
    if (digit >= '0' && digit <= '9') {
        return digit - '0';
    }
    if (digit >= 'a' && digit <= 'f') {
        return digit - 'a' + 10;
    }
    if (digit >= 'A' && digit <= 'F') {
        return digit - 'A' + 10;
    }
    return -1;
}

std::string decode_component(std::string_view text) {
    std::string decoded;
    decoded.reserve(text.size());
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '+') {
            decoded += ' ';
        } else if (c == '%' && at + 2 < text.size() && hex_value(text[at + 1]) >= 0 && hex_value(text[at + 2]) >= 0) {
            decoded += static_cast<char>(hex_value(text[at + 1]) * 16 + hex_value(text[at + 2]));
            at += 2;
        } else {
            decoded += c;
        }
    }
    return decoded;
}

} // namespace

FormFields parse_form(std::string_view encoded) {
    FormFields fields;
    std::size_t position = 0;
    while (position < encoded.size()) {
        const std::size_t end = std::min(encoded.find('&', position), encoded.size());
        const std::string_view pair = encoded.substr(position, end - position);
        if (!pair.empty()) {
            const std::size_t equals = pair.find('=');
            const std::string name = decode_component(pair.substr(0, equals));
            const std::string value = equals == std::string_view::npos ? "" : decode_component(pair.substr(equals + 1));
            fields.emplace(name, value);
        }
        position = end + 1;
    }
    return fields;
}

std::pair<std::string, FormFields> split_target(std::string_view target) {
    const std::size_t question = target.find('?');
    if (question == std::string_view::npos) {
        return {std::string(target), {}};
    }
    return {std::string(target.substr(0, question)), parse_form(target.substr(question + 1))};
}

std::string url_encode(std::string_view text) {
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string encoded;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') || c == '-' ||
            c == '_' || c == '.' || c == '~') {
            encoded += c;
        } else {
            encoded += '%';
            encoded += digits[byte >> 4];
            encoded += digits[byte & 0xF];
        }
    }
    return encoded;
}

std::optional<std::string> field(const FormFields &fields, std::string_view name) {
    const auto found = fields.find(name);
    if (found == fields.end()) {
        return std::nullopt;
    }
    return found->second;
}

const std::vector<std::pair<std::string, std::string>> &security_headers() {
    static const std::vector<std::pair<std::string, std::string>> headers{
        {"Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
                                    "frame-ancestors 'none'; base-uri 'none'"},
        {"X-Content-Type-Options", "nosniff"},
        {"X-Frame-Options", "DENY"},
        // Not no-referrer: under it a browser sends `Origin: null` with a form's POST, which the
        // guard must refuse; same-origin keeps addresses (and any token) from other sites.
        {"Referrer-Policy", "same-origin"},
        {"Cache-Control", "no-store"},
    };
    return headers;
}

} // namespace starling::app::ui
