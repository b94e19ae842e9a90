// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "health_finding.hpp"

#include <starling/app/application.hpp>

#include <vector>

namespace starling::app {

/// What processes that died left unfinished in the store (MemoryStore::leftovers) and the session
/// messages that judges that died had claimed, each a warning whose remedy is `starling doctor
/// --repair`. Nothing is changed.
[[nodiscard]] std::vector<HealthFinding> check_store_leftovers(Application &application);

/// `starling doctor --repair`: repairs every leftover (MemoryStore::repair_leftovers) and judges the
/// messages of claims that dead judges left (Lifecycle::judge_abandoned_claims); a finding in the
/// area "repair" for each thing done. Nothing is ever deleted that is not also kept elsewhere.
[[nodiscard]] std::vector<HealthFinding> repair_store_leftovers(Application &application);

} // namespace starling::app
