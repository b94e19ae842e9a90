// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace starling::core::detail {

/// `digits` random lowercase hex digits, from a generator seeded with the system's entropy once per
/// process and thread: the unique part of temporary file names, archive ids, merge intents and
/// access batches.
[[nodiscard]] std::string random_hex(std::size_t digits);

} // namespace starling::core::detail
