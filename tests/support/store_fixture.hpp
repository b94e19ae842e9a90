// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>

#include <string_view>

namespace starling::test {

/// A store in a fresh temporary directory, on a clock the test sets (2026-11-22T10:00:00Z at first).
struct StoreFixture {
    explicit StoreFixture(std::string_view label = "store") : root(label) {}

    TempDir root;
    core::FixedClock clock{at("2026-11-22T10:00:00Z")};
    core::MemoryStore store{root.path(), clock};
};

} // namespace starling::test
