// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/scope.hpp>

#include "store/record/text_checks.hpp"

#include <starling/core/io/store_error.hpp>

#include <algorithm>

namespace starling::core {

std::string_view to_string(Tier tier) noexcept { return tier == Tier::short_term ? "short" : "long"; }

std::optional<Tier> tier_from_string(std::string_view name) noexcept {
    if (name == "short") {
        return Tier::short_term;
    }
    if (name == "long") {
        return Tier::long_term;
    }
    return std::nullopt;
}

std::string_view to_string(ScopeKind kind) noexcept { return kind == ScopeKind::user ? "user" : "project"; }

bool is_valid_project_id(std::string_view id) noexcept {
    if (id.empty() || id.size() > 255 || id == "." || id == "..") {
        return false;
    }
    return std::none_of(id.begin(), id.end(), [](char character) {
        return character == '/' || character == '\\' || detail::is_control(character);
    });
}

Scope Scope::project(std::string project_id) {
    if (!is_valid_project_id(project_id)) {
        throw StoreError("'" + project_id + "' is not a valid project id");
    }
    return Scope(ScopeKind::project, std::move(project_id));
}

std::string Scope::directory() const {
    return kind_ == ScopeKind::user ? std::string("memory/user") : "memory/projects/" + project_id_;
}

} // namespace starling::core
