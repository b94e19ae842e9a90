// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/log.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace starling::core {

/// A 1-based position in the configuration file; line 0 means "not from the file".
struct SourcePosition {
    std::uint32_t line = 0;
    std::uint32_t column = 0;

    friend bool operator==(const SourcePosition &, const SourcePosition &) = default;
};

/// `[store]`: where the memory files live.
struct StoreConfig {
    std::filesystem::path root; ///< Holds memory/, sessions/ and archive/.
};

/// `[plugins]`: where loadable plugin modules are searched, and how long one call may take.
struct PluginsConfig {
    std::vector<std::filesystem::path> directories;
    /// Longest one plugin call may run outside a hook's reply (background work, commands), in ms.
    std::int64_t call_budget_ms = 0;
};

/// `[policies]`: the plugin id active for each policy kind; empty means no policy of that kind.
struct PoliciesConfig {
    std::string decision;
    std::string decay;
    std::string relevance;
};

/// `[capture]`: when messages of a session are considered for becoming memories.
struct CaptureConfig {
    /// Every this many user messages the model is asked to review them with the decision tree; 0 never.
    std::int64_t review_every = 0;
    /// Whether the decision policy itself runs over not-yet-evaluated messages at compaction, stop
    /// and session end.
    bool on_stop = false;
};

/// `[consolidation]`: when existing memories are reviewed, promoted, merged and forgotten.
struct ConsolidationConfig {
    bool enabled = false; ///< Whether the decay policy runs at session start and at each stop.
};

/// `[hooks]`: how hook processes treat the agent waiting on them.
struct HooksConfig {
    /// Whether the work a reply does not depend on runs in a detached process after the reply.
    bool background = false;
    /// Longest a hook waits for its reply before it gives the agent the safe reply, in ms.
    std::int64_t budget_ms = 0;
    /// How long the resident process that serves hooks stays up without a hook to serve, in
    /// minutes; 0: no resident process, every hook runs its event itself.
    std::int64_t resident_idle_minutes = 0;
};

/// `[injection]`: which memories are added to the context when a prompt is submitted.
struct InjectionConfig {
    /// Relevance below this is not injected, on the relevance policy's scale (bm25: normalised per prompt).
    double min_relevance = 0.0;
    /// Once the best memory clears `min_relevance`, the fraction of its score the others need, when lower.
    double relative_relevance = 0.0;
    /// The least relevance of a general question's best memory (prompt_kind.hpp), when above min_relevance.
    double question_relevance = 0.0;
    std::int64_t max_memories = 0; ///< Most memories whose text is injected at once.
    /// Whether session start shows the standing memories (pinned, user, feedback, project, reference).
    bool standing_memories = false;
};

/// `[remember]`: how a new memory is told apart from one already stored.
struct RememberConfig {
    /// Containment similarity at or above which a new memory is folded into an existing one.
    double duplicate_similarity = 0.0;
    /// How many of the best relevance candidates are compared with a new memory.
    std::int64_t duplicate_candidates = 0;
    /// How many of the memories stored just before a new one it is linked with as its episode.
    std::int64_t episode_links = 0;
    /// How recent, in minutes, a memory must be to be linked with a new one as its episode.
    std::int64_t episode_minutes = 0;
};

/// `[redaction]`: what is removed from text before it is stored, beyond the built-in formats.
struct RedactionConfig {
    /// ECMAScript regular expressions; a match (or its first capture group) is redacted.
    std::vector<std::string> extra_patterns;
};

/// `[sync]`: what `starling sync` carries between the user's machines (docs/sharing.md).
struct SyncConfig {
    /// The git URL of the user's private sync repository; empty until one is given.
    std::string remote;
    /// Project directories whose memories travel besides the user scope's.
    std::vector<std::filesystem::path> projects;
};

/// `[sharing]`: the team folders (`<project root>/.starling/memory/`) that Starling keeps up to date
/// with a project's memories by itself, as `starling share` does by hand (docs/sharing.md).
struct SharingConfig {
    /// Project directories whose team folder is active: its memories taken into the project's.
    std::vector<std::filesystem::path> projects;
    /// Whether what agents learn about those projects is also written into the folder, to commit.
    bool propose = true;
};

/// `[budgets]`: limits on what Starling adds to an agent's context.
struct BudgetsConfig {
    std::int64_t inject_tokens = 0;
    std::int64_t index_lines = 0;
};

/// `[log]`: Starling's own log (never the agent's output).
struct LogConfig {
    LogLevel level = LogLevel::info;
    std::filesystem::path file;
};

/// One `[settings.<plugin-id>]` table, kept as the user wrote it: the loader does not know what a
/// plugin accepts, so validation against the plugin's declared defaults happens later and needs
/// the positions to point at the offending line.
struct PluginSettingsTable {
    nlohmann::json values = nlohmann::json::object();
    SourcePosition position; ///< Of the table itself.
    /// Position of every key and array item, by JSON pointer into `values` (e.g. `/cues/en/0`).
    std::map<std::string, SourcePosition, std::less<>> positions;

    /// The position recorded for `pointer`, or the table's own position when there is none.
    [[nodiscard]] SourcePosition position_of(const nlohmann::json::json_pointer &pointer) const {
        const auto found = positions.find(pointer.to_string());
        return found == positions.end() ? position : found->second;
    }
};

/// The effective configuration: the embedded defaults overlaid with the configuration file.
/// Every key of the schema (config_schema.hpp) has a typed field here.
struct Config {
    StoreConfig store;
    PluginsConfig plugins;
    PoliciesConfig policies;
    CaptureConfig capture;
    ConsolidationConfig consolidation;
    HooksConfig hooks;
    InjectionConfig injection;
    RememberConfig remember;
    RedactionConfig redaction;
    SyncConfig sync;
    SharingConfig sharing;
    BudgetsConfig budgets;
    LogConfig log;
    /// `[settings.<plugin-id>]` tables by plugin id; see effective_plugin_settings().
    std::map<std::string, PluginSettingsTable, std::less<>> plugin_settings;

    /// The file this was read from; empty when only the embedded defaults apply.
    std::filesystem::path source_file;
    /// Where each schema key set by the file was written, by dotted key.
    std::map<std::string, SourcePosition, std::less<>> key_positions;
};

} // namespace starling::core
