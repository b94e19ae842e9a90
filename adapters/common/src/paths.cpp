// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/paths.hpp>

namespace starling::adapters {

namespace {

bool is_ascii_letter(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool has_drive_letter(std::string_view path) noexcept {
    return path.size() >= 2 && is_ascii_letter(path[0]) && path[1] == ':';
}

bool is_separator(char c) noexcept { return c == '/' || c == '\\'; }

} // namespace

bool is_absolute_path(std::string_view path) noexcept {
    if (path.starts_with('/') || path.starts_with("\\\\")) {
        return true;
    }
    return has_drive_letter(path) && path.size() >= 3 && is_separator(path[2]);
}

bool is_windows_path(std::string_view path) noexcept {
    if (has_drive_letter(path) || path.starts_with("\\\\")) {
        return true;
    }
    return path.find('\\') != std::string_view::npos && path.find('/') == std::string_view::npos;
}

std::string resolve_path(std::string_view directory, std::string_view path) {
    // "C:src" is relative to drive C's own current directory, which no payload reports.
    if (path.empty() || directory.empty() || is_absolute_path(path) || has_drive_letter(path)) {
        return std::string{path};
    }
    while (path.size() > 2 && path[0] == '.' && is_separator(path[1])) {
        path.remove_prefix(2);
    }
    const char separator = is_windows_path(directory) ? '\\' : '/';
    while (directory.size() > 1 && is_separator(directory.back())) {
        directory.remove_suffix(1);
    }
    std::string joined{directory};
    if (!is_separator(joined.back())) {
        joined += separator;
    }
    joined += path;
    return joined;
}

} // namespace starling::adapters
