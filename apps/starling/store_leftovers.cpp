// SPDX-License-Identifier: Apache-2.0
#include "store_leftovers.hpp"

#include <starling/core/lifecycle/lifecycle.hpp>
#include <starling/core/lifecycle/session_log.hpp>

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>

namespace starling::app {

namespace {

using Severity = HealthFinding::Severity;

constexpr const char *repair_remedy = "run `starling doctor --repair`";

bool process_gone(std::int64_t pid) { return pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH); }

/// The claims of sessions/claims/ whose judge is gone, and markers of claims that ended.
void check_claims(const std::filesystem::path &sessions, std::vector<HealthFinding> &findings) {
    for (const auto &session_id : core::SessionLog::sessions_with_claims(sessions)) {
        const core::SessionLog log{sessions, session_id};
        const auto state = log.state();
        if (!state.claim) {
            findings.push_back({Severity::warning, "store", "sessions/claims/" + core::SessionLog::file_stem(session_id),
                                "the marker of a claim that ended (its judge died before removing it)",
                                repair_remedy});
        } else if (process_gone(state.claim->pid)) {
            const auto total = log.messages().size();
            const auto waiting = total > state.evaluated ? total - state.evaluated : 0;
            findings.push_back({Severity::warning, "store", "session " + session_id,
                                std::to_string(waiting) + " message(s) wait to be judged: their judge (process " +
                                    std::to_string(state.claim->pid) + ") died",
                                "the next Stop of any session judges them; or " + std::string{repair_remedy}});
        }
    }
}

} // namespace

std::vector<HealthFinding> check_store_leftovers(Application &application) {
    std::vector<HealthFinding> findings;
    auto &store = application.store();
    // A problem, not a warning: what a dead process left undone is not done until it is repaired.
    for (const auto &leftover : store.leftovers()) {
        findings.push_back({Severity::problem, "store", leftover.path,
                            std::string{core::to_string(leftover.kind)} + ": " + leftover.detail, repair_remedy});
    }
    check_claims(store.root() / "sessions", findings);
    return findings;
}

std::vector<HealthFinding> repair_store_leftovers(Application &application) {
    std::vector<HealthFinding> findings;
    auto &store = application.store();
    for (const auto &leftover : store.repair_leftovers()) {
        findings.push_back(
            {Severity::ok, "repair", leftover.path, std::string{core::to_string(leftover.kind)} + ": " + leftover.detail, {}});
    }
    const auto sessions = store.root() / "sessions";
    const auto claimed_before = core::SessionLog::sessions_with_claims(sessions).size();
    core::Lifecycle lifecycle{store, application.active_policies(), application.lifecycle_settings(),
                              application.logger()};
    const auto judged = lifecycle.judge_abandoned_claims();
    const auto claimed_after = core::SessionLog::sessions_with_claims(sessions).size();
    if (judged > 0 || claimed_after < claimed_before) {
        findings.push_back({Severity::ok, "repair", "sessions/claims/",
                            "judged " + std::to_string(judged) + " message(s) that judges which died had claimed; " +
                                std::to_string(claimed_before - std::min(claimed_before, claimed_after)) +
                                " claim(s) cleared",
                            {}});
    }
    return findings;
}

} // namespace starling::app
