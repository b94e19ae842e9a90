// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace starling::app {

/// The SHA-256 digest of `bytes` (FIPS 180-4) as 64 lowercase hexadecimal digits. For recording what
/// an agent hashes (Codex's trusted hooks), not for security decisions of Starling's own.
[[nodiscard]] std::string sha256_hex(std::string_view bytes);

} // namespace starling::app
