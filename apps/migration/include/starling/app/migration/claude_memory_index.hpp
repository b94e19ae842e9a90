// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app::migration {

/// What claude-memory's indexes show of a file: its first body line that is not blank, without
/// leading `#`s and blanks, cut to `max_characters` characters (a whole memory's summary with npos).
[[nodiscard]] std::string claude_memory_summary(std::string_view body, std::size_t max_characters);

/// What claude-memory's two indexes say of one memory file.
struct ClaudeMemoryIndexEntry {
    /// Relative to the store's root: `semantic/tooling.md`.
    std::string path;
    std::string layer;
    std::vector<std::string> tags;
    std::string salience;
    std::string confidence;
    std::string source;
    std::string created;
    std::string last_accessed;
    std::string body;
    std::vector<std::string> related;
    /// Empty for null.
    std::string project;
    std::string status;
    std::vector<std::string> trigger;
    /// Episodic files only.
    std::string retention;
    std::string decay_after;
};

/// MEMORY.md (§2.4 of the reference): `# Memory Index`, then `## Semantic`, `## Procedural`,
/// `## Episodic` and `## Reference` (always all four), each file as
/// `- [<filename>](<path>) `tag1 tag2` — <summary>`, summary = the first body line without its `#`s,
/// at most 80 characters; sorted by salience (high, medium, low), then file name.
[[nodiscard]] std::string claude_memory_markdown_index(const std::vector<ClaudeMemoryIndexEntry> &entries);

/// .index.json: `{version: "2.1", generated: <date>, entries: [...]}`, each entry with path, filename,
/// type, tags, salience, confidence, source, created, last_accessed, summary (at most 120
/// characters), related, project (or null), status, trigger, and retention and decay_after for
/// episodics; sorted by salience, then layer (semantic, procedural, reference, episodic), then file name.
[[nodiscard]] std::string claude_memory_json_index(const std::vector<ClaudeMemoryIndexEntry> &entries,
                                                   const std::string &generated);

} // namespace starling::app::migration
