// SPDX-License-Identifier: Apache-2.0
#include "locomo_product_path.hpp"
#include "locomo_turn_text.hpp"

#include <starling/app/memory_search.hpp>
#include <starling/core/lifecycle/remember.hpp>

#include <cstdlib>
#include <stdexcept>

namespace starling::bench {

namespace {

/// The time every question is asked at, years after every session: recency and reinforcement then
/// boost all memories alike, and two runs rank alike.
constexpr const char *fixed_now = "2026-11-22T09:00:00Z";

/// How far apart a session's turns are stored, as a person keeping up with a conversation would.
constexpr std::chrono::minutes turn_interval{1};

} // namespace

std::string remembered_turn_text(const LocomoSession &session, const LocomoTurn &turn) {
    return turn.speaker + " (" + std::string{session_date(session.date_time)} + "): " + said_and_shown(turn);
}

ProductPathRetriever::ProductPathRetriever(std::optional<std::filesystem::path> config_file,
                                           std::filesystem::path scratch)
    : config_file_(std::move(config_file)), scratch_(std::move(scratch)),
      environment_(std::make_unique<ScopedEnvironment>()) {
    environment_->set("STARLING_NOW", fixed_now);
}

ProductPathRetriever::~ProductPathRetriever() {
    // The application reads the environment it was made in: it goes before the environment does.
    application_.reset();
}

std::size_t ProductPathRetriever::load(const LocomoConversation &conversation) {
    application_.reset();
    memories_.clear();
    turns_of_memory_.clear();
    const auto home = scratch_ / ("conversation-" + std::to_string(++conversations_));
    std::filesystem::remove_all(home);
    std::filesystem::create_directories(home);
    environment_->set("STARLING_HOME", home.string());
    application_ = std::make_unique<app::Application>(config_file_);
    // Each turn is remembered when it was said, so that the memories of one session are stored
    // minutes apart and those of different sessions days apart, as for a user.
    auto clock = std::make_unique<core::FixedClock>(core::clock_from_environment()->now());
    core::FixedClock &turn_clock = *clock;
    application_->use_clock(std::move(clock));
    const auto &root = application_->config().store.root;
    if (std::filesystem::weakly_canonical(root) != std::filesystem::weakly_canonical(home)) {
        throw std::runtime_error("the configuration" + (config_file_ ? " " + config_file_->string() : std::string{}) +
                                 " sets store.root to " + root.string() +
                                 ": the benchmark stores its memories only in a scratch store of its own");
    }
    // As `starling remember --force TEXT` from a terminal: a pinned feedback memory of the user's
    // scope, summary and tags left to the store, no session.
    core::Rememberer rememberer{application_->store(), application_->active_policies(),
                                application_->lifecycle_settings().remember};
    for (const auto &session : conversation.sessions) {
        turn_clock.set(session_time(session.date_time));
        for (const auto &turn : session.turns) {
            turn_clock.advance(turn_interval);
            core::RememberRequest request;
            request.text = remembered_turn_text(session, turn);
            request.agent = "cli";
            request.pin = true;
            sdk::Decision forced;
            forced.store = true;
            forced.type = "feedback";
            forced.scope = "user";
            forced.reason = "stored with --force";
            request.forced = forced;
            const auto outcome = rememberer.remember(request);
            if (outcome.key.empty()) {
                throw std::runtime_error(conversation.sample_id + " " + turn.dia_id + " was not stored: " +
                                         outcome.reason);
            }
            if (outcome.action == core::RememberOutcome::Action::updated) {
                ++turns_restated_;
            }
            turns_of_memory_[outcome.key].push_back(turn.dia_id);
        }
    }
    turn_clock.set(core::clock_from_environment()->now());
    core::ListFilter user_scope;
    user_scope.scope = core::Scope::user();
    memories_ = application_->store().list(user_scope);
    return memories_.size();
}

std::vector<std::vector<std::string>> ProductPathRetriever::rank(const std::string &question, std::size_t depth) {
    const auto hits = app::search_memories(*application_, question, memories_);
    std::vector<std::vector<std::string>> turns;
    for (const auto &hit : hits) {
        if (turns.size() == depth) {
            break;
        }
        const auto found = turns_of_memory_.find(hit.entry.key);
        if (found == turns_of_memory_.end()) {
            throw std::runtime_error("search found " + hit.entry.key + ", which no turn was stored as");
        }
        turns.push_back(found->second);
    }
    return turns;
}

} // namespace starling::bench
