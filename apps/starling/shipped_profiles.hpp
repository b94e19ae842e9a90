// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <span>
#include <string_view>

namespace starling::app {

/// A configuration profile shipped with Starling: one file of profiles/, compiled into the binary
/// so that `starling profile` needs no installed data to list, show or apply it.
struct ShippedProfile {
    std::string_view name;    ///< the file name without `.toml`
    std::string_view summary; ///< its first line, after `# Starling profile: <name> — `
    std::string_view text;    ///< the whole file
};

/// Every shipped profile, sorted by name.
[[nodiscard]] std::span<const ShippedProfile> shipped_profiles() noexcept;

} // namespace starling::app
