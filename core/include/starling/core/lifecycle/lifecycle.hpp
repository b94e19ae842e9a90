// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/bus/event_bus.hpp>
#include <starling/core/lifecycle/injection.hpp>
#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/lifecycle/receipts.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/core/lifecycle/session_log.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/io/log.hpp>
#include <starling/core/store/memory_store.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace starling::core {

struct LifecycleSettings {
    /// Every this many user messages of a session, ask the model to review them (0: never).
    std::size_t review_every_messages = 20;
    /// Run the decision policy over not yet evaluated messages at compaction, stop and session end.
    bool capture_on_stop = true;
    /// Run the decay policy at session start and at each stop.
    bool consolidate = true;
    InjectionSettings injection;
    RememberSettings remember;
    /// How the hooks' refresh of the relevance indexes spreads its builds (refresh_relevance_indexes).
    IndexBuilds index_builds;
};

/// Starling's main job as bus subscribers, in this order, before the reply:
///  10 capture        prompt → redacted line in sessions/<id>.jsonl; every N messages the decision
///                    policy's review request goes to the model
///  20 reinforcement  a read of a memory file (whatever the agent's tool is called) bumps it
///  30 injection      session start: indexes + project memories; prompt: relevant memories; where
///                    the agent has no context channel the text waits for the next event that has one
/// and after the reply (Stage::after_reply: a hook runs these once the agent has its answer):
///  40 capture-on-stop compaction / stop / session end: the decision policy judges each message once
///  45 apply-noted-uses session start / compaction / stop / session end: uses noted by hooks are
///                    folded into the memories' counts
///  50 consolidation  session start / stop: the decay policy's plan, applied by the store
///  60 relevance-index session start / compaction / stop / session end, and a prompt whose injection
///                    found the relevance policy's index stale: the index of the user's and the
///                    project's memories is rebuilt if the store has changed since it was built
/// Appends the prompt of `event` to its session's log, redacted, and returns how many messages the
/// log holds: the part of capture that runs no plugin, so that a hook can do it before any plugin
/// runs, and a plugin that hangs or crashes cannot lose what the user typed.
std::size_t log_prompt(MemoryStore &store, const Event &event);

class Lifecycle {
public:
    Lifecycle(MemoryStore &store, ActivePolicies policies, LifecycleSettings settings, const Logger &logger);
    /// Writes what write_reply_records() has not written yet.
    ~Lifecycle();
    Lifecycle(const Lifecycle &) = delete;
    Lifecycle &operator=(const Lifecycle &) = delete;

    void subscribe(EventBus &bus);

    void capture(const Event &event, ReplyBuilder &reply);
    /// Tells capture that the caller already logged this event's prompt with log_prompt, which
    /// left `message_count` messages in the log.
    void prompt_logged(std::size_t message_count) noexcept { prompt_logged_count_ = message_count; }
    /// The hook could not log the prompt, for the store cannot be written (a sandbox, a full disk),
    /// and has said so: this lifecycle writes nothing more and says nothing more of it.
    void store_unwritable() noexcept { store_unwritable_ = true; }
    /// Whether this event's injection had to score every memory because the relevance index was
    /// stale, which makes the after-reply stage rebuild it; the second tells a lifecycle that runs
    /// only the after-reply stage, in a process of its own, what the reply stage found.
    [[nodiscard]] bool relevance_index_stale() const noexcept { return relevance_index_stale_; }
    void relevance_index_found_stale() noexcept { relevance_index_stale_ = true; }
    /// Whether the store turned out, or was known, to be unwritable: what needs writing (capture,
    /// the session's state, noted uses, the work after the reply) is skipped, injection goes on.
    [[nodiscard]] bool store_unwritable_seen() const noexcept { return store_unwritable_; }
    /// Logs the prompts an agent reports only after the turn (Event::turn_prompts) that the session
    /// log does not hold yet.
    void capture_turn_prompts(const Event &event);
    void reinforce(const Event &event, ReplyBuilder &reply);
    /// Finds what the event's reply injects and adds it to `reply`. What records it — the receipt,
    /// the session's state (what it was given, what waits for a context channel) and the memories'
    /// injection uses — is written by write_reply_records(), once the host has sent the reply.
    void inject(const Event &event, ReplyBuilder &reply);
    /// Writes the records of the replies this lifecycle made (inject()) and forgets them; a record
    /// that cannot be written is logged. A host calls it once the agent has its reply: nothing in
    /// them changes the reply, and they cost a prompt a fifth of a millisecond. At the latest the
    /// destructor writes them.
    void write_reply_records() noexcept;
    /// Whether write_reply_records() has records to write.
    [[nodiscard]] bool has_reply_records() const noexcept { return !reply_records_.empty(); }
    /// Judges the session's messages not judged yet, then those that a judge of any other session
    /// claimed and left unfinished (it was killed): no message typed is lost to a crash.
    void capture_on_stop(const Event &event, ReplyBuilder &reply);
    /// Judges the messages that judges of sessions other than `except_session` claimed and left
    /// unfinished (their process is gone or their lease ran out), and clears the claim markers of
    /// claims that ended; what capture_on_stop does after its own session's messages, and what
    /// `starling doctor --repair` does. Returns how many messages it judged. Does nothing without a
    /// decision policy or with capture on stop turned off.
    std::size_t judge_abandoned_claims(std::string_view except_session = {});
    void consolidate(const Event &event, ReplyBuilder &reply);
    void refresh_relevance_index(const Event &event, ReplyBuilder &reply);

private:
    /// The session's unjudged messages, claimed for this process once no other judge holds them (or
    /// after a bounded wait, when that judge is still at work).
    [[nodiscard]] ClaimedMessages claim_when_free(SessionLog &log) const;
    /// Judges the claimed messages of `log`, recording each outcome as it is written; messages
    /// without a project of their own take `project`.
    void judge(SessionLog &log, const ClaimedMessages &claimed, const std::string &session_id,
               const std::string &project);

    /// A subagent's start: what a session start gives, into the subagent's own context.
    void inject_into_subagent(const Event &event, ReplyBuilder &reply);
    /// Records what an injection gave the session and why (receipts.hpp), failing open.
    void record_receipt(const Event &event, const Injection &injection, std::chrono::sys_seconds time);
    /// Records in the session's state what `injected` gave it: the memories (not repeated until a
    /// session start or a compaction begins a new context, when they replace the earlier ones), and
    /// `text` kept for the next event with a context channel when this one had none; with one,
    /// `delivered_pending`, the waiting context this reply delivered, no longer waits.
    void record_session_state(const Event &event, const std::vector<std::string> &injected, const std::string &text,
                              const std::string &delivered_pending);
    /// Records what the decision policy made of the session's message `message`, failing open.
    void record_decision(const ReceiptLog &receipts, std::size_t message, const RememberOutcome &outcome);

    /// Says, once in this process, that the store cannot be written and what that costs.
    void report_unwritable(const std::exception &cause);

    MemoryStore *store_;
    ActivePolicies policies_;
    LifecycleSettings settings_;
    const Logger *logger_;
    std::optional<std::size_t> prompt_logged_count_;
    /// Set by a prompt's injection that had to score every memory because the index was stale.
    bool relevance_index_stale_ = false;
    bool store_unwritable_ = false;
    /// What inject() recorded of its replies, written by write_reply_records().
    std::vector<std::function<void()>> reply_records_;
};

/// The memory key of a file path inside the store (`memory/…/*.md`), or empty. Relative paths are
/// taken from `working_directory`.
[[nodiscard]] std::string memory_key_for_path(const MemoryStore &store, std::string_view file_path,
                                              std::string_view working_directory);

} // namespace starling::core
