// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/lifecycle.hpp>

#include <starling/core/io/store_error.hpp>
#include <starling/core/lifecycle/consolidation.hpp>
#include <starling/core/redaction/redaction.hpp>
#include <starling/core/lifecycle/receipts.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/core/lifecycle/session_log.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

namespace starling::core {

namespace {

/// How long a judge may hold a session's messages before another process takes them over even
/// though a process with its id still runs (it may be another one that reused the id). Judging a
/// session's messages takes seconds.
constexpr std::chrono::seconds kJudgeLease{600};

/// How long a stop waits for another judge of its session to finish, polling every
/// kJudgePollInterval, before leaving what that judge did not claim to the next stop.
constexpr std::chrono::seconds kJudgeWait{30};
constexpr std::chrono::milliseconds kJudgePollInterval{50};

SessionLog session_log_for(const MemoryStore &store, const Event &event) {
    return SessionLog{store.root() / "sessions", event.session_id.empty() ? "no-session" : event.session_id};
}

ReceiptLog receipt_log_for(const MemoryStore &store, const Event &event) {
    return ReceiptLog{store.root() / "sessions",
                      SessionLog::file_stem(event.session_id.empty() ? "no-session" : event.session_id),
                      store.redactor()};
}

ReceiptMemory receipt_memory(const InjectedMemory &memory) {
    return {memory.key, memory.score, memory.tokens, memory.reason};
}

/// The receipt of an injection: what went in, why, what it cost and what the budget left out.
InjectionReceipt receipt_of(const Injection &injection, const Event &event, std::chrono::sys_seconds now,
                            std::size_t budget_tokens, std::optional<std::size_t> message_count) {
    InjectionReceipt receipt;
    receipt.time = now;
    receipt.event = event.kind == EventKind::session_started    ? "session-start"
                    : event.kind == EventKind::subagent_started ? "subagent-start"
                                                                : "prompt";
    receipt.session = event.session_id;
    receipt.agent = event.agent;
    receipt.project = event.project;
    if (event.kind == EventKind::prompt_submitted && message_count && *message_count > 0) {
        receipt.message = *message_count - 1;
    }
    receipt.budget_tokens = budget_tokens;
    receipt.tokens = injection.tokens;
    receipt.threshold = injection.threshold;
    for (const auto &memory : injection.memories) {
        receipt.injected.push_back(receipt_memory(memory));
    }
    receipt.listed = injection.listed;
    for (const auto &memory : injection.left_out) {
        receipt.left_out.push_back(receipt_memory(memory));
    }
    receipt.more_left_out = injection.more_left_out;
    if (injection.best_below_threshold) {
        receipt.best_below_threshold = receipt_memory(*injection.best_below_threshold);
        receipt.best_below_threshold->reason =
            injection.held_as_question
                ? "a general question: the best memory by the prompt's own words (before feedback), below "
                  "the threshold for questions: nothing was injected"
                : "the best memory, below the threshold: nothing was injected";
    }
    return receipt;
}

std::string project_query_for(const Event &event) {
    const std::filesystem::path directory{event.working_directory};
    return directory.filename().string() + " " + event.project;
}

/// Whether what the session was given before this event may no longer be before the model. A
/// session start begins a context: a new session, a resumed or cleared one, or the summary an agent
/// compacted the old context into (some agents send a session start after compacting, in the same
/// session). Compaction ends one: agents without a session start after it get what the next
/// prompts need again. The session's given memories are then only what this event gives.
bool begins_new_context(EventKind kind) {
    return kind == EventKind::session_started || kind == EventKind::context_compacting;
}

/// What a session start gives, or a subagent's start: whatever the session was given before.
Injection start_injection(MemoryStore &store, const RelevanceScorer *relevance, const Event &event,
                          const InjectionSettings &settings) {
    return session_start_injection(store, relevance, event.project, project_query_for(event), {}, settings);
}

/// The keys of the memories `injection` gave, best first.
std::vector<std::string> keys_given(const Injection &injection) {
    std::vector<std::string> keys;
    keys.reserve(injection.memories.size());
    for (const auto &memory : injection.memories) {
        keys.push_back(memory.key);
    }
    return keys;
}

/// Adds the memories a decision kept or updated to `keys`: its own, or each of its claims'.
void add_kept_keys(const RememberOutcome &outcome, std::vector<std::string> &keys) {
    if (outcome.action != RememberOutcome::Action::discarded && !outcome.key.empty()) {
        keys.push_back(outcome.key);
    }
    for (const auto &claim : outcome.claims) {
        add_kept_keys(claim, keys);
    }
}

} // namespace

std::string memory_key_for_path(const MemoryStore &store, std::string_view file_path,
                                std::string_view working_directory) {
    if (file_path.empty()) {
        return {};
    }
    std::filesystem::path path{std::string{file_path}};
    if (path.is_relative() && !working_directory.empty()) {
        path = std::filesystem::path{std::string{working_directory}} / path;
    }
    std::error_code error;
    const auto resolved = std::filesystem::weakly_canonical(path, error);
    const auto root = std::filesystem::weakly_canonical(store.root(), error);
    if (error) {
        return {};
    }
    const auto relative = resolved.lexically_relative(root);
    const auto key = relative.generic_string();
    if (relative.empty() || key.rfind("memory/", 0) != 0 || relative.extension() != ".md" ||
        relative.filename() == "INDEX.md") {
        return {};
    }
    return key;
}

Lifecycle::Lifecycle(MemoryStore &store, ActivePolicies policies, LifecycleSettings settings, const Logger &logger)
    : store_(&store), policies_(policies), settings_(settings), logger_(&logger) {}

Lifecycle::~Lifecycle() { write_reply_records(); }

void Lifecycle::write_reply_records() noexcept {
    auto records = std::move(reply_records_);
    reply_records_.clear();
    for (const auto &record : records) {
        try {
            record();
        } catch (const std::exception &failure) {
            try {
                logger_->warning("injection", std::string{"could not record what a reply gave: "} + failure.what());
            } catch (...) { // NOLINT(bugprone-empty-catch): the log itself failed; nothing is left to tell
            }
        }
    }
}

void Lifecycle::subscribe(EventBus &bus) {
    bus.subscribe({"capture", 10, {EventKind::prompt_submitted},
                   [this](const Event &event, ReplyBuilder &reply) { capture(event, reply); }});
    // Before capture-on-stop judges the session's messages, so that it judges these too.
    bus.subscribe({"capture-turn-prompts", 15, {EventKind::turn_stopped},
                   [this](const Event &event, ReplyBuilder &) { capture_turn_prompts(event); }});
    bus.subscribe({"reinforcement", 20, {EventKind::tool_used},
                   [this](const Event &event, ReplyBuilder &reply) { reinforce(event, reply); }});
    bus.subscribe({"injection", 30, {},
                   [this](const Event &event, ReplyBuilder &reply) { inject(event, reply); }});
    // Nothing below adds to a reply, so the agent need not wait for it.
    bus.subscribe({"capture-on-stop", 40,
                   {EventKind::context_compacting, EventKind::turn_stopped, EventKind::session_ended},
                   [this](const Event &event, ReplyBuilder &reply) { capture_on_stop(event, reply); },
                   Stage::after_reply});
    bus.subscribe({"apply-noted-uses", 45,
                   {EventKind::session_started, EventKind::context_compacting, EventKind::turn_stopped,
                    EventKind::session_ended},
                   [this](const Event &, ReplyBuilder &) { static_cast<void>(store_->apply_noted_accesses()); },
                   Stage::after_reply});
    bus.subscribe({"consolidation", 50, {EventKind::session_started, EventKind::turn_stopped},
                   [this](const Event &event, ReplyBuilder &reply) { consolidate(event, reply); },
                   Stage::after_reply});
    // Last, so that it indexes what capture and consolidation made of the store. A prompt only
    // starts an after-reply process for it when its injection found the index stale.
    bus.subscribe({"relevance-index", 60,
                   {EventKind::session_started, EventKind::prompt_submitted, EventKind::context_compacting,
                    EventKind::turn_stopped, EventKind::session_ended},
                   [this](const Event &event, ReplyBuilder &reply) { refresh_relevance_index(event, reply); },
                   Stage::after_reply, [this](const Event &event) {
                       return policies_.relevance != nullptr &&
                              (event.kind != EventKind::prompt_submitted || relevance_index_stale_);
                   }});
}

std::size_t log_prompt(MemoryStore &store, const Event &event) {
    return session_log_for(store, event)
        .append({store.clock().now(), store.redactor().redact(event.prompt).text, event.working_directory, event.agent});
}

void Lifecycle::report_unwritable(const std::exception &cause) {
    if (!store_unwritable_) {
        store_unwritable_ = true;
        logger_->warning("store", std::string{"cannot write the store ("} + cause.what() +
                                      "): this hook records nothing; memories are still injected");
    }
}

void Lifecycle::capture(const Event &event, ReplyBuilder &reply) {
    if (event.prompt.empty() || store_unwritable_) {
        return;
    }
    std::size_t count = 0;
    try {
        count = prompt_logged_count_ ? *prompt_logged_count_ : log_prompt(*store_, event);
    } catch (const StoreError &error) {
        report_unwritable(error);
        return;
    }
    if (policies_.decision == nullptr || settings_.review_every_messages == 0 ||
        count % settings_.review_every_messages != 0) {
        return;
    }
    sdk::ReviewRequest request;
    request.message_count = static_cast<int>(count);
    request.session_log = session_log_for(*store_, event).log_path().string();
    request.agent = event.agent;
    reply.add_context(policies_.decision->review_request(request));
}

void Lifecycle::capture_turn_prompts(const Event &event) {
    if (event.turn_prompts.empty()) {
        return;
    }
    auto log = session_log_for(*store_, event);
    // The agent's prompt hook may have logged them already: the report after the turn is a fallback.
    const auto logged = log.messages();
    for (const auto &prompt : event.turn_prompts) {
        auto text = redact_secrets(prompt).text;
        const bool known = std::any_of(logged.begin(), logged.end(),
                                       [&](const LoggedMessage &message) { return message.text == text; });
        if (!text.empty() && !known) {
            static_cast<void>(log.append({store_->clock().now(), std::move(text), event.working_directory, event.agent}));
        }
    }
}

void Lifecycle::reinforce(const Event &event, ReplyBuilder & /*reply*/) {
    if (!event.tool || event.tool->intent != ToolIntent::read) {
        return;
    }
    const auto key = memory_key_for_path(*store_, event.tool->file_path, event.working_directory);
    if (key.empty() || !store_->contains(key)) {
        return;
    }
    store_->note_access(key, event.session_id);
    logger_->debug("reinforcement", "read of " + key + " in session " + event.session_id);
}

void Lifecycle::inject(const Event &event, ReplyBuilder &reply) {
    if (event.kind == EventKind::subagent_started) {
        inject_into_subagent(event, reply);
        return;
    }
    const bool channel = event.context_channel;
    const auto state = session_log_for(*store_, event).state();
    const bool new_context = begins_new_context(event.kind);
    std::optional<Injection> injection;
    if (event.kind == EventKind::session_started) {
        // Nothing the session was given before counts as given: see begins_new_context.
        injection = start_injection(*store_, policies_.relevance, event, settings_.injection);
    } else if (event.kind == EventKind::prompt_submitted && policies_.relevance != nullptr) {
        injection = prompt_injection(*store_, *policies_.relevance, event.prompt, event.project, state.injected,
                                     settings_.injection);
        relevance_index_stale_ = injection->index_stale;
    }
    const std::string text = injection ? injection->context : std::string{};
    const bool gives_context = !text.empty() || (!state.pending_context.empty() && channel);
    // A store this process cannot write (an agent's sandbox, a full disk): the agent still gets
    // what was found, the session only forgets having seen it. Otherwise what waited for a context
    // channel goes with this reply.
    std::string delivered = channel ? text : std::string{};
    std::string delivered_pending;
    if (!store_unwritable_ && channel && !state.pending_context.empty()) {
        delivered_pending = state.pending_context;
        delivered = text.empty() ? delivered_pending : delivered_pending + "\n\n" + text;
    }
    if (!store_unwritable_ && (injection || gives_context || new_context)) {
        // One record of the reply, written once it is sent: nothing here is needed before.
        reply_records_.emplace_back([this, event, made = std::move(injection), time = store_->clock().now(),
                                     records_state = gives_context || new_context, text, delivered_pending] {
            if (made) {
                record_receipt(event, *made, time);
            }
            if (records_state) {
                record_session_state(event, made ? keys_given(*made) : std::vector<std::string>{}, text,
                                     delivered_pending);
            }
        });
    }
    if (!delivered.empty()) {
        if (estimate_tokens(delivered) > settings_.injection.budget_tokens) {
            delivered = text; // pending and new text together would break the budget: the newer wins
        }
        reply.add_context(delivered);
    }
}

void Lifecycle::inject_into_subagent(const Event &event, ReplyBuilder &reply) {
    // The subagent's context is its own: it gets what a session start gives, and the session's
    // record of what it was given, and the context waiting for its next channel, stay the session's.
    auto injection = start_injection(*store_, policies_.relevance, event, settings_.injection);
    if (injection.context.empty() || !event.context_channel) {
        return;
    }
    reply.add_context(injection.context);
    if (!store_unwritable_) {
        reply_records_.emplace_back([this, event, made = std::move(injection), time = store_->clock().now()] {
            record_receipt(event, made, time);
            try {
                store_->note_accesses(keys_given(made), event.session_id, AccessKind::injection);
            } catch (const StoreError &error) {
                report_unwritable(error);
            }
        });
    }
}

void Lifecycle::record_session_state(const Event &event, const std::vector<std::string> &injected,
                                     const std::string &text, const std::string &delivered_pending) {
    if (store_unwritable_) {
        return; // found since the reply was made, by another of its records
    }
    try {
        session_log_for(*store_, event).update_state([&](SessionState &session) {
            if (begins_new_context(event.kind)) {
                session.injected = injected;
            } else {
                session.injected.insert(session.injected.end(), injected.begin(), injected.end());
            }
            if (!event.context_channel) {
                // The agent cannot show context at this event: keep it for the next event that
                // can, within one budget.
                if (!text.empty()) {
                    session.pending_context = text;
                }
                return;
            }
            // Another event of the session may have left new context waiting since: that stays.
            if (!delivered_pending.empty() && session.pending_context == delivered_pending) {
                session.pending_context.clear();
            }
        });
        // Unlike collie, where retrieval was reinforcement: a memory put before the model whether
        // it helps or not would reinforce itself into the long-term tier. Injections are counted
        // apart; reads and explicit use reinforce.
        store_->note_accesses(injected, event.session_id, AccessKind::injection);
    } catch (const StoreError &error) {
        report_unwritable(error);
    }
}

void Lifecycle::capture_on_stop(const Event &event, ReplyBuilder & /*reply*/) {
    if (!settings_.capture_on_stop || policies_.decision == nullptr) {
        return;
    }
    // Each message is handed to one judge at a time, however many stop-like hooks of the session fire
    // at once, and counts as judged only once its outcome is written: a judge killed halfway leaves
    // the rest to the next one.
    auto log = session_log_for(*store_, event);
    judge(log, claim_when_free(log), event.session_id, event.project);
    static_cast<void>(judge_abandoned_claims(event.session_id));
}

std::size_t Lifecycle::judge_abandoned_claims(std::string_view except_session) {
    if (!settings_.capture_on_stop || policies_.decision == nullptr) {
        return 0;
    }
    std::size_t judged = 0;
    const auto sessions = store_->root() / "sessions";
    for (const auto &session_id : SessionLog::sessions_with_claims(sessions)) {
        if (session_id == except_session) {
            continue;
        }
        SessionLog abandoned{sessions, session_id};
        const auto claimed = abandoned.claim_unjudged_messages(store_->clock().now(), kJudgeLease);
        if (!claimed.held_by_another && !claimed.messages.empty()) {
            logger_->warning("capture", "judging " + std::to_string(claimed.messages.size()) +
                                            " message(s) of session " + session_id + " that its judge left unfinished");
            judge(abandoned, claimed, session_id, {});
            judged += claimed.messages.size();
        }
    }
    return judged;
}

ClaimedMessages Lifecycle::claim_when_free(SessionLog &log) const {
    // Stops run after the reply, so waiting here keeps no agent waiting; it keeps messages logged
    // while another judge worked from waiting for the session's next stop.
    const auto deadline = std::chrono::steady_clock::now() + kJudgeWait;
    while (true) {
        auto claimed = log.claim_unjudged_messages(store_->clock().now(), kJudgeLease);
        if (!claimed.held_by_another || std::chrono::steady_clock::now() >= deadline) {
            return claimed;
        }
        std::this_thread::sleep_for(kJudgePollInterval);
    }
}

void Lifecycle::record_receipt(const Event &event, const Injection &injection, std::chrono::sys_seconds time) {
    if (store_unwritable_) {
        return;
    }
    // A receipt that cannot be written is logged and skipped.
    try {
        receipt_log_for(*store_, event)
            .append(receipt_of(injection, event, time, settings_.injection.budget_tokens, prompt_logged_count_));
    } catch (const std::exception &error) {
        logger_->warning("receipts", std::string{"could not record what was injected: "} + error.what());
    }
}

void Lifecycle::judge(SessionLog &log, const ClaimedMessages &claimed, const std::string &session_id,
                      const std::string &project) {
    if (claimed.messages.empty()) {
        return;
    }
    std::vector<RememberRequest> requests;
    for (const auto &message : claimed.messages) {
        std::string message_project = project;
        if (message_project.empty() && !message.working_directory.empty()) {
            message_project = store_->resolve_project(message.working_directory);
        }
        const auto index = claimed.first + requests.size();
        requests.push_back({message.text, message.agent, session_id, message_project, std::nullopt, false,
                            SessionLog::file_stem(session_id) + "#" + std::to_string(index)});
    }
    Rememberer rememberer{*store_, policies_, settings_.remember};
    const ReceiptLog receipts{store_->root() / "sessions", SessionLog::file_stem(session_id), store_->redactor()};
    std::vector<std::string> kept;
    try {
        static_cast<void>(rememberer.remember_all(requests, [&](std::size_t index, const RememberOutcome &outcome) {
            log.mark_judged_before(claimed.first + index + 1);
            if (outcome.action != RememberOutcome::Action::discarded) {
                logger_->info("capture",
                              std::string{to_string(outcome.action)} + " " + outcome.key + ": " + outcome.reason);
            }
            record_decision(receipts, claimed.first + index, outcome);
            add_kept_keys(outcome, kept);
        }));
    } catch (...) {
        log.release_claim();
        throw;
    }
    // What the user said in this session is in its context already, in the user's own words: the
    // memory kept from it would only echo them back at a later prompt. A compaction or a new
    // session start forgets this, as it forgets what was injected.
    if (!kept.empty()) {
        log.update_state([&](SessionState &session) {
            for (auto &key : kept) {
                if (std::find(session.injected.begin(), session.injected.end(), key) == session.injected.end()) {
                    session.injected.push_back(std::move(key));
                }
            }
        });
    }
}

void Lifecycle::record_decision(const ReceiptLog &receipts, std::size_t message, const RememberOutcome &outcome) {
    DecisionReceipt receipt;
    receipt.time = store_->clock().now();
    receipt.message = message;
    receipt.action = std::string{to_string(outcome.action)};
    receipt.key = outcome.key;
    if (outcome.action != RememberOutcome::Action::discarded) {
        receipt.decision = outcome.decision.type + ", " + outcome.decision.scope;
    }
    receipt.reason = outcome.reason;
    try {
        receipts.append(receipt);
    } catch (const std::exception &error) {
        logger_->warning("receipts", std::string{"could not record a decision: "} + error.what());
    }
}

void Lifecycle::consolidate(const Event & /*event*/, ReplyBuilder & /*reply*/) {
    if (!settings_.consolidate || policies_.decay == nullptr) {
        return;
    }
    const auto report = core::consolidate(*store_, *policies_.decay, /*dry_run=*/false);
    for (const auto &line : report.finished_merges) {
        logger_->warning("consolidation", "finished an interrupted " + line);
    }
    for (const auto &action : report.actions) {
        logger_->info("consolidation", std::string{sdk::to_string(action.action.kind)} + " " + action.action.key +
                                           (action.action.into.empty() ? "" : " into " + action.action.into) +
                                           ": " + (action.applied ? action.action.reason : action.result));
    }
}

void Lifecycle::refresh_relevance_index(const Event &event, ReplyBuilder & /*reply*/) {
    if (policies_.relevance == nullptr) {
        return;
    }
    if (const auto built = refresh_relevance_indexes(*store_, *policies_.relevance, prompt_scopes(event.project),
                                                        settings_.index_builds);
        built > 0) {
        logger_->debug("relevance-index", "rebuilt " + std::to_string(built) + " index(es) for session " +
                                              event.session_id);
    }
}

} // namespace starling::core
