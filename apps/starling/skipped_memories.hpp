// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>
#include <starling/core/store/record/scope.hpp>

#include <optional>
#include <span>

namespace starling::app {

/// Says, on stderr and in the log, which folders of the store a command passed over (a symbolic
/// link, say) and which memory files because they do not parse, and why — a hand edit that broke a
/// file must never make a memory vanish without a word.
/// With `scopes`, only files in those scopes are named; without, every one in the store.
void report_skipped_memories(Application &application,
                             std::optional<std::span<const core::Scope>> scopes = std::nullopt);

} // namespace starling::app
