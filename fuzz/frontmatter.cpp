// SPDX-License-Identifier: Apache-2.0
//
// Memory files: the frontmatter parser, every field read as a scalar and as a list, and the typed
// memory on top. Bad input must be a StoreError, never anything else; what parses must survive
// serialise_memory and read back the same (memory_file.hpp promises the round trip).
#include "scratch_directory.hpp"

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/io/store_error.hpp>

#include <cstdlib>

namespace {

using starling::core::StoreError;

void read_every_field(const starling::core::FrontmatterDocument &document) {
    for (const auto &entry : document.entries) {
        if (!entry.is_field()) {
            continue;
        }
        try {
            (void)starling::core::decode_scalar(entry, "fuzz.md");
        } catch (const StoreError &) {
        }
        try {
            (void)starling::core::decode_list(entry, "fuzz.md");
        } catch (const StoreError &) {
        }
    }
    try {
        (void)starling::core::serialise_frontmatter(document);
    } catch (const StoreError &) {
    }
}

void check_memory_round_trip(std::string_view text) {
    starling::core::Memory memory;
    try {
        memory = starling::core::parse_memory(text, "fuzz.md");
    } catch (const StoreError &) {
        return;
    }
    std::string written;
    try {
        written = starling::core::serialise_memory(memory, "fuzz.md");
    } catch (const StoreError &) {
        return; // validate_memory refused it: the store reports such a file, it never rewrites it
    }
    if (!(starling::core::parse_memory(written, "fuzz.md") == memory)) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text = starling::fuzz::as_text(data, size);
    try {
        read_every_field(starling::core::parse_frontmatter(text, "fuzz.md"));
    } catch (const StoreError &) {
    }
    check_memory_round_trip(text);
    return 0;
}
