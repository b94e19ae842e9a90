// SPDX-License-Identifier: Apache-2.0
//
// A skill_master memory file, read as `starling import skill-master` reads it: whatever a person or
// an agent wrote there, every line becomes a memory or a problem naming it, and nothing throws.
#include "scratch_directory.hpp"

#include <starling/app/migration/skill_master_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const starling::fuzz::ScratchDirectory scratch;
    const auto file = scratch.path() / "memories.ndjson";
    starling::fuzz::write_bytes(file, starling::fuzz::as_text(data, size));
    (void)starling::app::migration::read_skill_master_file(file, scratch.path());
    return 0;
}
