// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace starling::core::detail {

/// `digits` lowercase hex digits from the system's entropy source: the unique part of temporary
/// file names, archive ids, merge intents and access batches.
[[nodiscard]] std::string random_hex(std::size_t digits);

} // namespace starling::core::detail
