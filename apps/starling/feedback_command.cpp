// SPDX-License-Identifier: Apache-2.0
// `starling feedback MEMORY helpful|unhelpful`: the judgement of one use of a memory, which the
// consolidation profile's `usage` policy turns into effectiveness (helpful / judged uses). The
// memory-consolidation skill wrote "Applied in X: HELPFUL" or "NOT HELPFUL" and then counted every
// line containing "HELPFUL" as helpful; here each verdict is a counter of its own.
#include "agent_integration.hpp"
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/store/record/memory.hpp>

#include <charconv>
#include <iostream>
#include <limits>
#include <stdexcept>

namespace starling::app {

namespace {

constexpr std::string_view helpful_field = "helpful";
constexpr std::string_view unhelpful_field = "unhelpful";

/// The judgements a memory's counter holds; 0 when it has none. A counter edited into something
/// that is no whole number is an error naming the memory and the field: counting on from 0 would
/// silently drop what it held.
std::uint32_t judgements_in(const core::Memory &memory, std::string_view field, const std::string &key) {
    const core::FrontmatterEntry *entry = memory.extra_field(field);
    if (entry == nullptr) {
        return 0;
    }
    const std::string written = core::decode_scalar(*entry, key);
    std::uint32_t count = 0;
    const auto *end = written.data() + written.size();
    const auto [stopped, error] = std::from_chars(written.data(), end, count);
    if (written.empty() || error != std::errc{} || stopped != end) {
        throw std::runtime_error(key + ": field '" + std::string{field} + "' is '" + written +
                                 "', not a whole number of judgements; correct it (starling show " + core::memory_id_of(memory) +
                                 " prints the file) and give the feedback again");
    }
    return count;
}

} // namespace

int run_feedback_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("feedback", words);
    arguments.expect_operands(2, 2, "the ID, KEY or path of the memory, then helpful or unhelpful");
    const std::string &verdict = arguments.operands()[1];
    if (verdict != "helpful" && verdict != "unhelpful") {
        throw UsageError("the verdict must be 'helpful' or 'unhelpful', not '" + verdict + "'");
    }
    const std::string_view field = verdict == "helpful" ? helpful_field : unhelpful_field;
    auto &store = application.store();
    const auto key = store.find_memory(arguments.operands()[0]);
    std::vector<std::string> sessions;
    if (const auto session = arguments.value("session").value_or(agent_session_from_environment(application).value_or(""));
        !session.empty()) {
        sessions.push_back(session);
    }
    const auto now = store.clock().now();
    std::uint32_t helpful = 0;
    std::uint32_t unhelpful = 0;
    const auto memory = store.update(key, [&](core::Memory &judged) {
        helpful = judgements_in(judged, helpful_field, key);
        unhelpful = judgements_in(judged, unhelpful_field, key);
        std::uint32_t &counted = verdict == "helpful" ? helpful : unhelpful;
        if (counted == std::numeric_limits<std::uint32_t>::max()) {
            throw std::runtime_error(key + ": field '" + std::string{field} + "' cannot count any higher");
        }
        ++counted;
        judged.set_extra_field(field, std::to_string(counted));
        // A judged use is a use: the skill's "Applied in …" line was both.
        core::add_reads(judged, 1, now, sessions);
    });
    const auto id = core::memory_id_of(memory);
    const double effectiveness = static_cast<double>(helpful) / static_cast<double>(helpful + unhelpful);
    if (arguments.flag("json")) {
        print_json({{"id", id},
                    {"key", key},
                    {"verdict", verdict},
                    {"helpful", helpful},
                    {"unhelpful", unhelpful},
                    {"uses", memory.access_count},
                    {"effectiveness", effectiveness}});
    } else {
        std::cout << id << ' ' << key << ": " << verdict << " (" << helpful << " helpful, " << unhelpful
                  << " unhelpful of " << memory.access_count << " uses)\n";
    }
    return 0;
}

} // namespace starling::app
