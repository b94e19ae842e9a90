// SPDX-License-Identifier: Apache-2.0
//
// A memory as claude-memory's consolidation sees it: its layer, tags, salience and dates. The layer
// is the `layer` field; a memory that has none (written before this profile, or by another policy)
// is placed by its type — feedback is procedural, reference reference, anything else semantic — and
// is never taken for an episodic, so nothing decays that was not written to.
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace starling::episodic {

enum class Layer { episodic, semantic, procedural, reference };

struct LayeredMemory {
    std::size_t index = 0; ///< in the batch
    std::string key;
    std::string scope_directory; ///< "memory/user" or "memory/projects/<id>": where targets are looked for
    Layer layer = Layer::semantic;
    std::set<std::string, std::less<>> tags; ///< lower case
    int salience_rank = 2;                   ///< high 3, medium 2, low 1
    std::optional<std::string> salience;     ///< as written
    std::int64_t created = 0;
    std::int64_t last_accessed = 0;
    bool pinned = false;
    nlohmann::json fields;

    [[nodiscard]] std::optional<std::string> field(std::string_view name) const;
};

[[nodiscard]] LayeredMemory read_layered_memory(const sdk::MemoryView &view, std::size_t index);

[[nodiscard]] std::size_t shared_tags(const LayeredMemory &one, const LayeredMemory &other);

} // namespace starling::episodic
