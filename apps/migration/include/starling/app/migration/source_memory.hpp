// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/record/scope.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starling::app::migration {

/// A relation a source memory has with another memory of the same source, named by that memory's
/// origin (Memory field `imported_from`); the import turns it into a `links` item.
struct SourceRelation {
    std::string relation;
    std::string target_origin;
    /// How the source wrote the target (claude-memory: the path), kept when the target is not found.
    std::string as_written;
    /// What the source says of the relation beyond its name (the cognitive layer's similarity and
    /// date), kept in the memory's `link_details` as `<relation>:<target id> <detail>`.
    std::string detail;
};

/// One memory read from another system's store, as Starling will hold it.
struct SourceMemory {
    /// Where it was read, for people: `<file>` or `<file>:<line>`.
    std::string location;
    /// `<format>:<identity>`, written as the memory's `imported_from`: what makes a second import find
    /// it, and what export gives back (the file name or the original id).
    std::string origin;
    /// The project directory of a project memory; nullopt for the user scope.
    std::optional<std::filesystem::path> project_directory;
    core::Tier tier = core::Tier::short_term;
    core::Memory memory;
    std::vector<SourceRelation> relations;
    /// Set for a memory the source had already forgotten (an archive file, an expired entry): the
    /// import writes it and archives it at once with this reason, so it is in Starling's archive,
    /// where `starling restore` can bring it back, and a second import finds it there.
    std::optional<std::string> archive_reason;
};

/// Input that could not be read as a memory: reported, never skipped in silence.
struct SourceProblem {
    /// `<file>` or `<file>:<line>`.
    std::string location;
    std::string message;
};

/// Everything a reader found in a source store.
struct SourceRead {
    std::vector<SourceMemory> memories;
    std::vector<SourceProblem> problems;
    /// What a person should know about the input though nothing is wrong with it (a repeated
    /// skill_master dedupe key, files that are derived and not imported).
    std::vector<std::string> notes;
    /// Source field → Starling field, for the report.
    std::vector<std::pair<std::string, std::string>> field_mapping;
};

} // namespace starling::app::migration
