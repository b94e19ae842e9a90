// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace starling::bm25 {

/// A term as a small integer: an index into the term dictionary of one scoring call, whose first
/// ids are those of the token cache file's term table.
using TermId = std::uint32_t;

} // namespace starling::bm25
