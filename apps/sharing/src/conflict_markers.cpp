// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/conflict_markers.hpp>

namespace starling::app::sharing {

std::optional<ConflictSides> split_conflict_markers(std::string_view text) {
    enum class Part { both, ours, base, theirs };
    Part part = Part::both;
    ConflictSides sides;
    std::string base;
    bool conflicted = false;
    bool has_base = false;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const auto length = end == std::string_view::npos ? text.size() : end + 1;
        const std::string_view line = text.substr(0, length);
        text.remove_prefix(length);
        if (line.starts_with("<<<<<<<")) {
            if (part != Part::both) {
                return std::nullopt;
            }
            part = Part::ours;
            conflicted = true;
            continue;
        }
        if (line.starts_with("|||||||") && part == Part::ours) {
            part = Part::base;
            has_base = true;
            continue;
        }
        if (line.starts_with("=======") && (part == Part::ours || part == Part::base)) {
            part = Part::theirs;
            continue;
        }
        if (line.starts_with(">>>>>>>") && part == Part::theirs) {
            part = Part::both;
            continue;
        }
        if (part == Part::both || part == Part::ours) {
            sides.ours.append(line);
        }
        if (part == Part::both || part == Part::theirs) {
            sides.theirs.append(line);
        }
        if (part == Part::both || part == Part::base) {
            base.append(line);
        }
    }
    if (!conflicted || part != Part::both) {
        return std::nullopt;
    }
    if (has_base) {
        sides.base = std::move(base);
    }
    return sides;
}

} // namespace starling::app::sharing
