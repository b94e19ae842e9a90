// SPDX-License-Identifier: Apache-2.0
//
// isolation: the cognitive layer's connection-based aging (claude-memory-lifecycle) as a decay policy,
// with its defects fixed (see README.md). The plan is in isolation_plan; this file binds it and the
// host's similarity (starling.host.similarity/1) to the plugin ABI. Every setting and its default is
// in default_settings.json.
#include "entry_type.hpp"
#include "isolation_plan.hpp"
#include "isolation_settings.hpp"

#include <starling/isolation/default_settings.hpp>
#include <starling/sdk/plugin.hpp>
#include <starling/sdk/text/blanks.hpp>

#include <string>

namespace {

/// The text with every run of blanks as one space and no blanks at either end: what the seed
/// hashed to find an exact duplicate.
std::string collapsed(std::string_view text) {
    std::string out;
    bool blank = false;
    for (const char character : starling::sdk::text::trim_blanks(text)) {
        if (starling::sdk::text::is_blank(character)) {
            blank = true;
            continue;
        }
        if (blank) {
            out += ' ';
            blank = false;
        }
        out += character;
    }
    return out;
}

class IsolationPolicy final : public starling::sdk::DecayPolicy, public starling::sdk::DuplicateJudge {
public:
    /// The substance check and the classifier read what each memory says.
    static constexpr bool plans_with_bodies = true;

    IsolationPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : host_(host), settings_(starling::isolation::read_isolation_settings(settings)) {}

    std::vector<starling::sdk::LifecycleAction> plan(const starling::sdk::MemoryBatch &memories) override {
        if (!host_.offers_similarity()) {
            host_.warning("isolation: the host offers no similarity (is a relevance policy configured?), so no "
                          "memory is linked, consolidated or aged");
        }
        auto actions = starling::isolation::plan_isolation(
            memories, settings_,
            [this](const starling::sdk::MemoryBatch &batch) { return host_.similarities(batch); });
        host_.debug("isolation: " + std::to_string(actions.size()) + " actions for " +
                    std::to_string(memories.size()) + " memories");
        return actions;
    }

    /// The seed's duplicate: the same text once runs of blanks are one space (it compared hashes). The
    /// host asks with the new memory's summary and text, one per line; a memory restates it when its
    /// own summary and text, or its text alone, read the same. Without bodies (picking candidates) a
    /// memory is one when the text begins with its summary, and is judged again with its text.
    void similarity(std::string_view text, const starling::sdk::MemoryBatch &memories,
                    std::span<double> similarities) override {
        const std::string wanted = collapsed(text);
        if (wanted.empty()) {
            return;
        }
        for (std::size_t index = 0; index < memories.size(); ++index) {
            const auto memory = memories[index];
            const std::string summary = collapsed(memory.summary());
            bool same = false;
            if (memories.has_bodies()) {
                const std::string body{starling::isolation::text_of(memory)};
                same = collapsed(body) == wanted || collapsed(std::string{memory.summary()} + "\n" + body) == wanted;
            } else {
                same = !summary.empty() && wanted.starts_with(summary);
            }
            similarities[index] = same ? 1.0 : 0.0;
        }
    }

private:
    starling::sdk::HostServices host_;
    starling::isolation::IsolationSettings settings_;
};

} // namespace

STARLING_DECLARE_PLUGIN(isolation, IsolationPolicy, "isolation", "1.0.0",
                        "the cognitive layer's aging: memories linked by similarity, clusters of 3 consolidated "
                        "without loss, isolated memories reprieved while substantive, then archived; decisions and "
                        "the user's thoughts never expire",
                        starling::isolation::default_settings_json)
