// SPDX-License-Identifier: Apache-2.0
#include "config/toml_text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

namespace starling::core {
namespace {

bool is_bare_key_character(char character) {
    return (character >= 'A' && character <= 'Z') || (character >= 'a' && character <= 'z') ||
           (character >= '0' && character <= '9') || character == '_' || character == '-';
}

void append_unicode_escape(std::string &out, unsigned char character) {
    constexpr std::string_view hex_digits = "0123456789ABCDEF";
    out += "\\u00";
    out += hex_digits[character >> 4U];
    out += hex_digits[character & 0x0FU];
}

} // namespace

std::string toml_string(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char character : text) {
        switch (character) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\f': out += "\\f"; break;
        case '\r': out += "\\r"; break;
        default:
            if (const auto byte = static_cast<unsigned char>(character); byte < 0x20U || byte == 0x7FU) {
                append_unicode_escape(out, byte);
            } else {
                out += character;
            }
        }
    }
    out += '"';
    return out;
}

std::string toml_key(std::string_view key) {
    const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), is_bare_key_character);
    return bare ? std::string{key} : toml_string(key);
}

std::string toml_float(double value) {
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value > 0 ? "inf" : "-inf";
    }
    std::array<char, 32> buffer{};
    const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    if (error != std::errc{}) {
        throw std::logic_error("cannot format a float for TOML");
    }
    std::string text{buffer.data(), end};
    if (text.find_first_of(".e") == std::string::npos) {
        text += ".0";
    }
    return text;
}

std::string toml_value(const nlohmann::json &value) {
    switch (value.type()) {
    case nlohmann::json::value_t::string:
        return toml_string(value.get_ref<const std::string &>());
    case nlohmann::json::value_t::boolean:
        return value.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::number_integer:
        return std::to_string(value.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
        return std::to_string(value.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
        return toml_float(value.get<double>());
    case nlohmann::json::value_t::array: {
        std::string out = "[";
        for (const auto &item : value) {
            out += out.size() == 1 ? "" : ", ";
            out += toml_value(item);
        }
        return out + "]";
    }
    case nlohmann::json::value_t::object: {
        std::string out = "{";
        for (const auto &[key, item] : value.items()) {
            out += out.size() == 1 ? " " : ", ";
            out += toml_key(key) + " = " + toml_value(item);
        }
        return out + (out.size() == 1 ? "}" : " }");
    }
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded:
        break;
    }
    throw std::invalid_argument("TOML has no way to write " + std::string{value.type_name()} + " values");
}

} // namespace starling::core
