// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "health_finding.hpp"

#include <starling/app/application.hpp>

#include <vector>

namespace starling::app {

/// The store's part of `starling doctor`: STARLING_HOME, the configuration, the store's permissions,
/// memory files that do not parse, and plugin modules that do not load. `application` must run on
/// the embedded defaults when the configuration is unusable, so that the rest is still checked.
[[nodiscard]] std::vector<HealthFinding> check_store_health(Application &application);

/// Whether there is a store to look into: STARLING_HOME is usable, the store exists, and it is not
/// one that Starling refuses (writable by others).
[[nodiscard]] bool store_is_checkable(Application &application);

} // namespace starling::app
