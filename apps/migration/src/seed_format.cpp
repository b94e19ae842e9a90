// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/seed_format.hpp>

#include <string>

namespace starling::app::migration {

std::string_view to_string(SeedFormat format) noexcept {
    switch (format) {
    case SeedFormat::collie:
        return "collie";
    case SeedFormat::claude_memory:
        return "claude-memory";
    case SeedFormat::skill_master:
        return "skill-master";
    case SeedFormat::consolidation:
        return "consolidation";
    case SeedFormat::cognitive_layer:
        return "cognitive-layer";
    }
    return "collie";
}

std::optional<SeedFormat> seed_format_named(std::string_view name) noexcept {
    for (const auto format : {SeedFormat::collie, SeedFormat::claude_memory, SeedFormat::skill_master,
                              SeedFormat::consolidation, SeedFormat::cognitive_layer}) {
        if (to_string(format) == name) {
            return format;
        }
    }
    return std::nullopt;
}

std::string origin_of(SeedFormat format, std::string_view identity) {
    return std::string{to_string(format)} + ":" + std::string{identity};
}

std::optional<std::string_view> identity_in(std::string_view origin, SeedFormat format) noexcept {
    const std::string_view name = to_string(format);
    if (origin.size() <= name.size() || origin.substr(0, name.size()) != name || origin[name.size()] != ':') {
        return std::nullopt;
    }
    return origin.substr(name.size() + 1);
}

} // namespace starling::app::migration
