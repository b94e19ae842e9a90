// SPDX-License-Identifier: Apache-2.0
//
// Synthetic memories written straight into a store's folders, with the store's own serialiser and
// naming rules but without its write path: MemoryStore::create takes the lock, fsyncs and appends
// to the index once per memory, which would make a store of 100,000 memories take minutes to build.
// The caller rebuilds the index once afterwards, exactly as `starling` rebuilds a garbled one.
#pragma once

#include "synthetic_memory.hpp"

#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/scope.hpp>

#include <cstdint>
#include <functional>

namespace starling::bench {

/// Writes the next `count` memories of `generator` into `store`, each in the scope `scope_of`
/// picks for it and linked to the two written before it in that scope (relation `episode`, as
/// `remember` links), and calls `written(n)` after the n-th. Never replaces a file: a name already
/// taken on disk is an error naming it. The store's index is left as it was.
void write_synthetic_memories(core::MemoryStore &store, SyntheticMemoryGenerator &generator, std::uint64_t count,
                              const std::function<core::Scope(const SyntheticMemory &)> &scope_of,
                              const std::function<void(std::uint64_t)> &written = {});

} // namespace starling::bench
