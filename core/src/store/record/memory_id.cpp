// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory_id.hpp>

#include <algorithm>
#include <cstdint>

namespace starling::core {
namespace {

constexpr std::string_view alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/// FNV-1a, 64 bits: stable across compilers and runs, unlike std::hash.
std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 0xcbf29ce484222325ULL) noexcept {
    for (const char character : text) {
        hash ^= static_cast<unsigned char>(character);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

bool in_alphabet(char character) noexcept { return alphabet.find(character) != std::string_view::npos; }

char lower(char character) noexcept {
    return character >= 'A' && character <= 'Z' ? static_cast<char>(character - 'A' + 'a') : character;
}

} // namespace

std::string derive_memory_id(std::chrono::sys_seconds created, std::string_view summary, unsigned attempt) {
    std::uint64_t hash = fnv1a(std::to_string(created.time_since_epoch().count()));
    hash = fnv1a("\n", hash);
    hash = fnv1a(summary, hash);
    if (attempt != 0) {
        hash = fnv1a("\n" + std::to_string(attempt), hash);
    }
    // Fold the high bits in: FNV's low bits alone mix poorly for short inputs.
    hash ^= hash >> 29;
    std::string id(memory_id_length, '0');
    for (char &character : id) {
        character = alphabet[hash % alphabet.size()];
        hash /= alphabet.size();
    }
    return id;
}

bool is_memory_id(std::string_view text) noexcept {
    return text.size() == memory_id_length && std::all_of(text.begin(), text.end(), in_alphabet);
}

bool could_be_memory_id_prefix(std::string_view text) noexcept {
    return text.size() >= min_memory_id_prefix && text.size() <= memory_id_length &&
           std::all_of(text.begin(), text.end(), [](char character) { return in_alphabet(lower(character)); });
}

} // namespace starling::core
