// SPDX-License-Identifier: Apache-2.0
//
// The data of `starling-bench injection` (bench/injection/): a store of memories as one developer's
// Starling keeps them, across four projects and the user's scope, and prompts labelled with the
// memories that bear on them, or with none. Both files are line-based text, written by hand; the
// format is described at the top of each file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace starling::bench {

struct LabelledMemory {
    std::string id;
    std::string project; ///< empty: the user's scope
    std::string type;    ///< user, feedback, project or reference
    std::vector<std::string> tags;
    std::string summary;
    std::string body; ///< empty (`-` in the file): the summary is all the user typed
};

struct LabelledPrompt {
    std::string id;
    std::string project;               ///< empty: a working directory outside every project
    std::vector<std::string> relevant; ///< ids of LabelledMemory; empty: no memory bears on it
    std::string text;
    bool tuning = false; ///< in the tuning half; else in the check half
};

struct InjectionData {
    std::vector<LabelledMemory> memories;
    std::vector<LabelledPrompt> prompts;
    std::vector<std::string> projects; ///< every project a memory names, in order of first mention
};

/// A line the data files cannot hold: the message names the file and the line,
/// e.g. `prompts.txt:42: relevant memory 'p-dbx' is not in memories.txt`.
class InjectionDataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reads `directory`/memories.txt and `directory`/prompts.txt and checks them against each other:
/// five or four ` | `-separated fields, known types, unique ids, and relevant memories that exist
/// and that the prompt's working directory can see (the user's, or its own project's). Splits the
/// prompts into halves by a fixed rule: of each kind (with relevant memories, without), the 1st,
/// 3rd, 5th, ... in file order is for tuning, the others for the check. Throws InjectionDataError.
[[nodiscard]] InjectionData load_injection_data(const std::filesystem::path &directory);

} // namespace starling::bench
