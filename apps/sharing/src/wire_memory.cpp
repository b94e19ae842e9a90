// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <array>
#include <charconv>

namespace starling::app::sharing {
namespace {

constexpr std::array<std::string_view, 11> machine_local_fields{
    "access_count",  "last_accessed", "sessions",      "session_count",       "injection_count", "last_injected",
    "helpful",       "unhelpful",     "applied_batch", uses_elsewhere_field, uses_merged_from_field};

/// Drops the lines of machine-local fields from the frontmatter block of a serialised memory.
std::string without_machine_local_lines(const std::string &text) {
    std::string out;
    out.reserve(text.size());
    std::size_t position = 0;
    int delimiters = 0;
    while (position < text.size()) {
        const auto end = text.find('\n', position);
        const auto next = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line{text.data() + position, next - position};
        if (delimiters >= 2) {
            out.append(text, position, std::string::npos);
            break;
        }
        if (line.starts_with("---")) {
            ++delimiters;
        } else if (delimiters == 1) {
            const auto colon = line.find(':');
            if (colon != std::string_view::npos && is_machine_local_field(line.substr(0, colon))) {
                position = next;
                continue;
            }
        }
        out.append(line);
        position = next;
    }
    return out;
}

} // namespace

bool is_machine_local_field(std::string_view key) noexcept {
    return std::find(machine_local_fields.begin(), machine_local_fields.end(), key) != machine_local_fields.end();
}

bool is_private(const core::Memory &memory) {
    const auto *entry = memory.extra_field(private_field);
    return entry != nullptr && core::decode_scalar(*entry, "memory") == "true";
}

std::uint32_t uses_elsewhere(const core::Memory &memory) {
    const auto *entry = memory.extra_field(uses_elsewhere_field);
    if (entry == nullptr) {
        return 0;
    }
    const std::string text = core::decode_scalar(*entry, "memory");
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc{} && end == text.data() + text.size() ? value : 0;
}

std::uint32_t uses_here(const core::Memory &memory) {
    return memory.access_count - std::min(memory.access_count, uses_elsewhere(memory));
}

std::vector<std::string> listed_ids(const core::Memory &memory, std::string_view field) {
    const auto *entry = memory.extra_field(field);
    if (entry == nullptr) {
        return {};
    }
    try {
        return core::decode_list(*entry, "memory");
    } catch (const core::StoreError &) {
        return {};
    }
}

std::string to_wire_text(const core::Memory &memory, core::Tier tier) {
    core::Memory wire = memory;
    wire.sessions.clear();
    wire.earlier_sessions = 0;
    wire.access_count = 0;
    wire.last_accessed = wire.created;
    wire.line_ending = "\n";
    std::erase_if(wire.frontmatter, [](const core::FrontmatterEntry &entry) {
        return entry.is_field() && is_machine_local_field(entry.key);
    });
    for (auto &entry : wire.frontmatter) {
        entry.source_text.clear();
        entry.line = 0;
    }
    wire.set_extra_field(wire_tier_field, core::to_string(tier));
    return without_machine_local_lines(core::serialise_memory(wire));
}

WireMemory from_wire_text(std::string_view text, std::string_view source_name) {
    WireMemory read{core::parse_memory(text, source_name), core::Tier::short_term};
    const auto *entry = read.memory.extra_field(wire_tier_field);
    const std::string tier_name = entry == nullptr ? std::string{} : core::decode_scalar(*entry, source_name);
    const auto tier = core::tier_from_string(tier_name);
    if (!tier) {
        throw core::StoreError(std::string{source_name} + ": field 'tier': expected short or long, got '" +
                               tier_name + "'");
    }
    read.tier = *tier;
    read.memory.erase_extra_field(wire_tier_field);
    return read;
}

void take_wire_content(core::Memory &local, const core::Memory &wire) {
    core::Memory merged = wire;
    merged.access_count = local.access_count;
    merged.last_accessed = local.last_accessed;
    merged.sessions = local.sessions;
    merged.earlier_sessions = local.earlier_sessions;
    merged.line_ending = local.line_ending;
    std::erase_if(merged.frontmatter, [](const core::FrontmatterEntry &entry) {
        return entry.is_field() && is_machine_local_field(entry.key);
    });
    for (const auto &entry : local.frontmatter) {
        if (entry.is_field() && is_machine_local_field(entry.key) && !core::is_typed_memory_field(entry.key)) {
            merged.frontmatter.push_back(entry);
        }
    }
    local = std::move(merged);
}

} // namespace starling::app::sharing
