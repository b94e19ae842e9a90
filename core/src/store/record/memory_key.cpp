// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory_key.hpp>

#include "store/record/text_checks.hpp"

#include <algorithm>
#include <array>

namespace starling::core {

bool is_memory_file_name(std::string_view name) noexcept {
    constexpr std::string_view extension = ".md";
    if (name.size() <= extension.size() || name.size() > 255 || name.front() == '.' ||
        name.substr(name.size() - extension.size()) != extension) {
        return false;
    }
    return std::none_of(name.begin(), name.end(), [](char character) {
        return character == '/' || character == '\\' || detail::is_control(character);
    });
}

std::string memory_key(const Scope &scope, Tier tier, std::string_view file_name) {
    std::string key = scope.directory();
    key += '/';
    key += to_string(tier);
    key += '/';
    key += file_name;
    return key;
}

std::optional<MemoryKeyParts> split_memory_key(std::string_view key) noexcept {
    std::array<std::string_view, 5> parts{};
    std::size_t count = 0;
    while (true) {
        if (count == parts.size()) {
            return std::nullopt;
        }
        const auto separator = key.find('/');
        parts[count++] = key.substr(0, separator);
        if (separator == std::string_view::npos) {
            break;
        }
        key.remove_prefix(separator + 1);
    }
    if (parts[0] != "memory") {
        return std::nullopt;
    }
    std::optional<Tier> tier;
    if (count == 4 && parts[1] == "user") {
        tier = tier_from_string(parts[2]);
        if (!tier || !is_memory_file_name(parts[3])) {
            return std::nullopt;
        }
        return MemoryKeyParts{ScopeKind::user, {}, *tier, parts[3]};
    }
    if (count == 5 && parts[1] == "projects" && is_valid_project_id(parts[2])) {
        tier = tier_from_string(parts[3]);
        if (!tier || !is_memory_file_name(parts[4])) {
            return std::nullopt;
        }
        return MemoryKeyParts{ScopeKind::project, parts[2], *tier, parts[4]};
    }
    return std::nullopt;
}

std::optional<MemoryLocation> parse_memory_key(std::string_view key) {
    const std::optional<MemoryKeyParts> parts = split_memory_key(key);
    if (!parts) {
        return std::nullopt;
    }
    Scope scope = parts->scope_kind == ScopeKind::user ? Scope::user() : Scope::project(std::string(parts->project_id));
    return MemoryLocation{std::move(scope), parts->tier, std::string(parts->file_name)};
}

} // namespace starling::core
