// SPDX-License-Identifier: Apache-2.0
#include "layered_memory.hpp"

#include <starling/sdk/text/case_folding.hpp>

#include <algorithm>

namespace starling::episodic {
namespace {

Layer layer_of(const std::optional<std::string> &written, std::string_view type) {
    if (written == "episodic") {
        return Layer::episodic;
    }
    if (written == "procedural" || (!written && type == "feedback")) {
        return Layer::procedural;
    }
    if (written == "reference" || (!written && type == "reference")) {
        return Layer::reference;
    }
    return Layer::semantic;
}

std::string scope_directory_of(std::string_view key) {
    // memory/user/<tier>/<file> or memory/projects/<id>/<tier>/<file>
    const auto file_slash = key.rfind('/');
    const auto tier_slash = file_slash == std::string_view::npos ? std::string_view::npos : key.rfind('/', file_slash - 1);
    return std::string{tier_slash == std::string_view::npos ? key : key.substr(0, tier_slash)};
}

} // namespace

std::optional<std::string> LayeredMemory::field(std::string_view name) const {
    const auto found = fields.find(name);
    if (found == fields.end() || !found->is_string()) {
        return std::nullopt;
    }
    return found->get<std::string>();
}

LayeredMemory read_layered_memory(const sdk::MemoryView &view, std::size_t index) {
    LayeredMemory memory;
    memory.index = index;
    memory.key = std::string{view.key()};
    memory.scope_directory = scope_directory_of(memory.key);
    memory.fields = view.fields();
    memory.layer = layer_of(memory.field("layer"), view.type());
    view.for_each_tag([&](std::string_view tag) { memory.tags.insert(sdk::text::lower_ascii(tag)); });
    memory.salience = memory.field("salience");
    memory.salience_rank = memory.salience == "high" ? 3 : memory.salience == "low" ? 1 : 2;
    memory.created = view.created();
    memory.last_accessed = view.last_accessed();
    memory.pinned = view.pinned();
    return memory;
}

std::size_t shared_tags(const LayeredMemory &one, const LayeredMemory &other) {
    return static_cast<std::size_t>(std::count_if(one.tags.begin(), one.tags.end(),
                                                  [&](const std::string &tag) { return other.tags.contains(tag); }));
}

} // namespace starling::episodic
