// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/memory_provenance.hpp>

#include <nlohmann/json.hpp>

namespace starling::app {

/// A memory's provenance as `starling why --json` and `starling show --json` ("provenance") give it:
/// `id`, `origin` (an event, or null), `origin_from_fields`, `origin_message` (the session log's
/// message, or null), `events` (oldest first) and `dropped_events`. An event is an object of `at`,
/// `event`, `agent`, `session`, `message`, `text`, `decision`, `reason` and `other`.
[[nodiscard]] nlohmann::json provenance_json(const core::MemoryProvenance &provenance);

} // namespace starling::app
