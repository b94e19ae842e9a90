// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/project_id.hpp>

#include <cstddef>
#include <vector>

namespace starling::core {
namespace {

constexpr std::size_t max_slug_bytes = 40;
constexpr std::size_t hash_hex_digits = 12;

bool is_ascii_letter(char character) noexcept {
    return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z');
}

bool is_slug_ascii(char character) noexcept {
    return is_ascii_letter(character) || (character >= '0' && character <= '9') || character == '.' ||
           character == '_' || character == '-';
}

/// Length of the well-formed UTF-8 multi-byte sequence at `position`, or 0 (ASCII, or ill-formed:
/// overlong forms, surrogates, code points past U+10FFFF, truncated sequences).
std::size_t utf8_sequence_length(std::string_view text, std::size_t position) noexcept {
    const auto lead = static_cast<unsigned char>(text[position]);
    std::size_t length = 0;
    unsigned char second_min = 0x80;
    unsigned char second_max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        second_min = lead == 0xE0 ? 0xA0 : 0x80;
        second_max = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        second_min = lead == 0xF0 ? 0x90 : 0x80;
        second_max = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (text.size() - position < length) {
        return 0;
    }
    for (std::size_t index = 1; index < length; ++index) {
        const auto byte = static_cast<unsigned char>(text[position + index]);
        const unsigned char minimum = index == 1 ? second_min : 0x80;
        const unsigned char maximum = index == 1 ? second_max : 0xBF;
        if (byte < minimum || byte > maximum) {
            return 0;
        }
    }
    return length;
}

} // namespace

std::string normalise_project_path(std::string_view path) {
    std::string unified(path);
    for (char &character : unified) {
        if (character == '\\') {
            character = '/';
        }
    }
    std::string_view rest = unified;
    std::string prefix;
    if (rest.size() >= 2 && is_ascii_letter(rest[0]) && rest[1] == ':') {
        prefix += static_cast<char>(rest[0] >= 'A' && rest[0] <= 'Z' ? rest[0] - 'A' + 'a' : rest[0]);
        prefix += ':';
        rest.remove_prefix(2);
    }
    const bool is_unc =
        prefix.empty() && rest.size() >= 3 && rest[0] == '/' && rest[1] == '/' && rest[2] != '/';
    const bool is_absolute = !rest.empty() && rest.front() == '/';
    if (is_unc) {
        prefix += "//";
    } else if (is_absolute) {
        prefix += '/';
    }

    std::vector<std::string_view> components;
    while (!rest.empty()) {
        const auto separator = rest.find('/');
        const std::string_view component = rest.substr(0, separator);
        rest.remove_prefix(separator == std::string_view::npos ? rest.size() : separator + 1);
        if (component.empty() || component == ".") {
            continue;
        }
        if (component == "..") {
            if (!components.empty() && components.back() != "..") {
                components.pop_back();
            } else if (!is_absolute) {
                components.push_back(component);
            }
            continue;
        }
        components.push_back(component);
    }

    std::string normalised = prefix;
    for (std::size_t index = 0; index < components.size(); ++index) {
        if (index > 0) {
            normalised += '/';
        }
        normalised += components[index];
    }
    if (normalised.empty()) {
        // Returned rather than assigned: GCC 12 at -O2 reports a bogus -Wrestrict overlap for
        // assigning a literal to a string that was just appended to.
        return std::string(1, '.');
    }
    return normalised;
}

std::uint64_t fnv1a_64(std::string_view bytes) noexcept {
    std::uint64_t hash = 14695981039346656037ULL;
    for (const char character : bytes) {
        hash ^= static_cast<unsigned char>(character);
        hash *= 1099511628211ULL;
    }
    return hash;
}

std::string project_slug(std::string_view normalised_path) {
    std::string_view last = normalised_path;
    while (!last.empty() && last.back() == '/') {
        last.remove_suffix(1);
    }
    const auto separator = last.rfind('/');
    if (separator != std::string_view::npos) {
        last.remove_prefix(separator + 1);
    } else if (last.size() == 2 && last[1] == ':') {
        last = {};
    }
    if (last.empty()) {
        return "root";
    }
    std::string slug;
    std::size_t position = 0;
    while (position < last.size()) {
        const std::size_t multibyte = utf8_sequence_length(last, position);
        const std::size_t length = multibyte == 0 ? 1 : multibyte;
        if (slug.size() + length > max_slug_bytes) {
            break;
        }
        if (multibyte != 0) {
            slug.append(last.substr(position, multibyte));
        } else {
            slug += is_slug_ascii(last[position]) ? last[position] : '_';
        }
        position += length;
    }
    return slug;
}

ProjectId project_id_for(const std::filesystem::path &path) {
    static constexpr char hex_digits[] = "0123456789abcdef";
    ProjectId id;
    id.normalised_path = normalise_project_path(path.native());
    const std::uint64_t hash = fnv1a_64(id.normalised_path);
    id.value = project_slug(id.normalised_path);
    id.value += '-';
    for (std::size_t digit = 0; digit < hash_hex_digits; ++digit) {
        id.value += hex_digits[(hash >> (60 - 4 * digit)) & 0xF];
    }
    return id;
}

} // namespace starling::core
