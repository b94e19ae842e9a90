// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/source_memory.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace starling::test {

/// The stores under tests/fixtures/seeds/, each in its system's exact format.
inline std::filesystem::path seed_fixture(std::string_view relative) {
    return std::filesystem::path{STARLING_TEST_SEED_FIXTURES} / relative;
}

/// The fake token the fixtures hide in one memory each; it must never reach a store.
inline constexpr std::string_view fixture_secret = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";

/// The source memory read from the file whose location ends in `suffix`; fails the test if none.
inline const app::migration::SourceMemory &source_at(const app::migration::SourceRead &read, std::string_view suffix) {
    for (const auto &memory : read.memories) {
        if (memory.location.size() >= suffix.size() &&
            memory.location.compare(memory.location.size() - suffix.size(), suffix.size(), suffix) == 0) {
            return memory;
        }
    }
    throw std::runtime_error("no memory read from …" + std::string{suffix});
}

/// The decoded value of a field the memory keeps beside its typed ones, "" if absent.
inline std::string extra(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? std::string{} : core::decode_scalar(*field, "test");
}

} // namespace starling::test
