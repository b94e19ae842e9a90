// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/file_lock.hpp>

#include <filesystem>

namespace starling::core {

/// Work a hook leaves running after its reply (see Stage::after_reply) is marked by a shared lock on
/// `<store root>/index/background.lock`. A hook takes it before it starts the child that does the
/// work; the child inherits it and holds it until it ends. Several jobs hold it at once, and
/// nothing a hook does waits for it.
[[nodiscard]] FileLock mark_background_work(const std::filesystem::path &store_root);

/// Returns once every background job marked before the call has ended: takes the mark's lock
/// exclusively and lets it go. For scripts and tests that need to see a hook's whole effect.
void wait_for_background_work(const std::filesystem::path &store_root);

} // namespace starling::core
