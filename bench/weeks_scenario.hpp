// SPDX-License-Identifier: Apache-2.0
//
// Eight weeks of a developer's use of two agents on two projects, scripted: what `starling-bench
// weeks` replays through every profile, so that the profiles are compared on the same weeks.
//
// The developer says once who they are, states two preferences (one again a week later), asks to
// remember a fact, and describes each project; everything else they type is ordinary work and
// chit-chat. After four weeks and again after eight, probes ask about each fact and about things no
// memory answers.
#pragma once

#include <string>
#include <vector>

namespace starling::bench {

/// A project the developer works in: a working directory under a git root.
struct WeeksProject {
    std::string name; ///< the directory under the scratch area's projects/
};

/// Something the developer expects to be remembered, and a prompt that should bring it back.
struct WeeksFact {
    std::string name;   ///< "role", "preference: pnpm", …
    std::string kind;   ///< role, preference, explicit remember, project fact
    std::string marker; ///< text found in the memory when the fact is kept (case-insensitive)
    std::string probe;  ///< a later prompt to which this fact is the relevant memory
    std::string probe_project; ///< where the probe is asked
};

struct WeeksSession {
    std::string agent;   ///< "claude-code" or "codex"
    std::string project; ///< a WeeksProject name
    std::vector<std::string> prompts;
};

struct WeeksDay {
    int day = 0; ///< 0 is the first Monday
    std::vector<WeeksSession> sessions;
};

struct WeeksScenario {
    std::vector<WeeksProject> projects;
    std::vector<WeeksFact> facts;
    std::vector<std::string> noise_markers;     ///< texts that should never become memories
    std::vector<std::string> unrelated_probes;  ///< prompts no memory answers
    std::vector<WeeksDay> days;
    std::vector<int> probe_days; ///< the days after which the probes are asked
};

/// The scripted weeks. Deterministic: the same every run.
[[nodiscard]] WeeksScenario developer_weeks();

} // namespace starling::bench
