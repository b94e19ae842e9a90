// SPDX-License-Identifier: Apache-2.0
#include "bench/weeks_scenario.hpp"

#include <cstddef>

namespace starling::bench {

namespace {

constexpr int days_per_week = 7;
constexpr int workdays_per_week = 5;
constexpr int weeks = 8;

/// Ordinary work: nothing here is worth remembering, and none of it answers a probe.
const std::vector<std::string> &chatter() {
    static const std::vector<std::string> lines{
        "thanks, looks good",
        "ok let's continue with the next step",
        "run the tests again",
        "fix the failing lint error in utils.ts",
        "hmm that didn't work, try again",
        "can you explain this stack trace?",
        "rename the variable to count",
        "add a unit test for parse_header()",
        "why is this loop slow?",
        "undo the last change",
        "show me the diff",
        "great, commit it",
    };
    return lines;
}

WeeksSession session(std::string agent, std::string project, std::vector<std::string> prompts) {
    return {std::move(agent), std::move(project), std::move(prompts)};
}

/// Four lines of chatter, different each day.
std::vector<std::string> chatter_for(int day, std::size_t count = 4) {
    std::vector<std::string> prompts;
    for (std::size_t index = 0; index < count; ++index) {
        prompts.push_back(chatter()[(static_cast<std::size_t>(day) * 5 + index * 3) % chatter().size()]);
    }
    return prompts;
}

std::vector<std::string> with(std::vector<std::string> prompts, const std::vector<std::string> &more) {
    prompts.insert(prompts.begin() + static_cast<std::ptrdiff_t>(prompts.size() / 2), more.begin(), more.end());
    return prompts;
}

} // namespace

WeeksScenario developer_weeks() {
    WeeksScenario scenario;
    scenario.projects = {{"billing"}, {"webapp"}};
    scenario.facts = {
        {"role", "role", "payments team",
         "I'm on the payments team, remind me which language I mostly write?", "billing"},
        {"preference: pnpm", "preference", "never npm",
         "add lodash to the webapp dependencies with npm", "webapp"},
        {"preference: commits", "preference", "imperative mood",
         "write the commit message for this change", "billing"},
        {"remember: staging database", "explicit remember", "staging-db.internal",
         "connect to the staging database and list the tables", "webapp"},
        {"billing: deploys", "project fact", "terraform apply by hand",
         "how do we deploy the billing service?", "billing"},
        {"webapp: legacy UI", "project constraint", "legacy-ui",
         "which ui package should the webapp import the date picker from?", "webapp"},
    };
    scenario.noise_markers = chatter();
    scenario.unrelated_probes = {
        "kubectl get pods -n monitoring",
        "what's a good name for a cat?",
        "hi",
        "convert this CSV file to JSON",
        "explain the difference between TCP and UDP",
    };

    const std::vector<std::string> role{"I'm the tech lead of the payments team and I mostly write Go services."};
    const std::vector<std::string> pnpm{"Always use pnpm, never npm, in every JavaScript project."};
    const std::vector<std::string> commits{
        "I prefer small commits with messages in English, in the imperative mood."};
    const std::vector<std::string> staging{
        "Remember that the staging database is staging-db.internal on port 6543."};
    const std::vector<std::string> billing{
        "The billing service deploys with terraform from the infra folder; never run terraform apply by hand."};
    const std::vector<std::string> webapp{
        "In this repo, never import from @internal/legacy-ui: that package is being removed in March."};

    for (int week = 0; week < weeks; ++week) {
        for (int weekday = 0; weekday < workdays_per_week; ++weekday) {
            const int day = week * days_per_week + weekday;
            WeeksDay today{day, {}};
            // Mornings on billing with Claude Code, afternoons on the webapp with Codex.
            auto morning = chatter_for(day);
            auto afternoon = chatter_for(day + 11, 3);
            if (day == 0) {
                morning = with(morning, role);
                morning = with(morning, pnpm);
            } else if (day == 1) {
                afternoon = with(afternoon, staging);
                afternoon = with(afternoon, webapp);
            } else if (day == 2) {
                morning = with(morning, billing);
                morning = with(morning, commits);
            } else if (day == 9) {
                afternoon = with(afternoon, pnpm); // said again, a week later
            }
            today.sessions.push_back(session("claude-code", "billing", morning));
            today.sessions.push_back(session("codex", "webapp", afternoon));
            scenario.days.push_back(std::move(today));
        }
    }
    scenario.probe_days = {4 * days_per_week, weeks * days_per_week};
    return scenario;
}

} // namespace starling::bench
