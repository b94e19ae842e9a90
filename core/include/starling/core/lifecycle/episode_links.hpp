// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/memory_store.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// The relation of a link from a memory to one stored just before it, in the same scope: the
/// memories said around it, which a question about it often names instead of its own words.
inline constexpr std::string_view episode_relation = "episode";

/// The ids of the `count` memories of `scope` created last, no earlier than `window` before the
/// store's now (and not after it), newest first; among memories created in the same second, the
/// greater key first, so that the choice never depends on listing order.
[[nodiscard]] std::vector<std::string> episode_predecessors(MemoryStore &store, const Scope &scope, std::size_t count,
                                                            std::chrono::minutes window);

/// `links` items (`episode:<id>`) for each of `ids`.
[[nodiscard]] std::vector<std::string> episode_link_items(const std::vector<std::string> &ids);

} // namespace starling::core
