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

} // namespace starling::app
