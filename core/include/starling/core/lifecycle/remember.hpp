// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/lifecycle/replaced_value.hpp>
#include <starling/core/store/record/memory_links.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/sdk/policy_types.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace starling::core {

struct RememberSettings {
    /// The decay policy's similarity (starling.duplicates/1) at or above which a new memory is folded
    /// into an existing one of the same scope instead of being written again.
    double duplicate_similarity = 0.6;
    /// How many of the best candidates (by the relevance policy, else the decay policy on summaries
    /// and tags) are read and compared for duplicates.
    std::size_t duplicate_candidates = 8;
    /// A new memory is linked (relation `episode`) with the `episode_links` memories of its scope
    /// created last, within `episode_window` before it: what was said around a memory is context a
    /// relevance policy may read to find it.
    std::size_t episode_links = 2;
    std::chrono::minutes episode_window{30};
    /// A correction (a decision that asks to supersede, supersedes_field) retires the memory of the
    /// user's or the project's scope that it restates most closely, when the decay policy's
    /// similarity is at least this: the two are about the same subject.
    double supersede_similarity = 0.3;
    /// A correction that names what is no longer so (retires_field) retires the memory that names
    /// it, when the decay policy's similarity is at least this: naming it is most of the evidence.
    double retire_similarity = 0.1;
};

/// The decision field by which a policy says that a message corrects what is stored: its value
/// `closest` asks the host to supersede the memory the message restates most closely. The new
/// memory then names the one it replaced in this field, and that one names it in superseded_by_field.
inline constexpr std::string_view supersedes_field = "supersedes";

/// The decision field by which a correction names what is no longer so (an array of terms: for
/// "db-staging-2, not db-staging-1", "db-staging-1"): the memory it supersedes is then the closest
/// of those that name one of the terms, before the closest of all. The host reads it; it is not
/// stored.
inline constexpr std::string_view retires_field = "retires";

/// Something to remember, and where it was said.
struct RememberRequest {
    std::string text;
    std::string agent;
    std::string session_id;
    std::string project_id; ///< empty outside a project: project-scoped decisions are then discarded
    /// Set to skip the decision policy (`starling remember --force`): type and scope are taken as given.
    std::optional<sdk::Decision> forced;
    /// Pin the memory written or updated: what a person explicitly asks to keep is not for a decay
    /// policy to forget.
    bool pin = false;
    /// Which message of which session this is (`<session log stem>#<index>`), when it comes from a
    /// session log; empty otherwise. A message judged again because its judge died after writing
    /// its outcome and before recording that is then stored and counted once: the memory it made or
    /// reinforced lists it in `captured`, and a memory it made has an id derived from it.
    std::string message_ref{};
    /// A person asked for this to be kept (`starling remember`, an agent's memory_remember), rather
    /// than capture finding it in what they said to an agent: the decision policy is told
    /// (sdk::Message::asked_to_keep), and may keep a plain fact it would not pick out of a session.
    bool asked_to_keep{false};
};


struct RememberOutcome {
    enum class Action { created, updated, discarded };
    Action action = Action::discarded;
    std::string key; ///< the memory written or updated; empty when discarded
    sdk::Decision decision;
    std::string reason;      ///< why: the policy's reason, or what the duplicate check found
    double similarity = 0.0; ///< to the memory updated, when updated
    /// The key of the memory this one superseded (a correction); empty when none.
    std::string superseded{};
    /// Why a memory said alike was neither folded into nor superseded, and how to retire it ("kept
    /// apart from … which says 400 where this says 300: `starling forget …` if this replaces it");
    /// the new memory links to it (alike_link_relation, or amends_link_relation when it changes
    /// that memory in part). Empty when there was none.
    std::string kept_apart{};
    /// The value this message corrected in place in the memory at `key` (action `updated`), which
    /// says more than the correction changes; nullopt when it corrected nothing in place.
    std::optional<CorrectedValue> corrected{};
    /// When the decision split the message into claims (ABI 1.4): the outcome of each, in order.
    /// `action` and `key` above are then those of the first claim that was stored.
    std::vector<RememberOutcome> claims{};
};

[[nodiscard]] std::string_view to_string(RememberOutcome::Action action) noexcept;

/// What a correction states, without the words that open it: "No, that's wrong: the staging
/// database is db-staging-2." states "The staging database is db-staging-2." — the summary that
/// session start and `list` show, and the word its file is named after. The opening is what comes
/// before a colon and a blank (or a '：') within the first five words ("Nein, das stimmt nicht:"),
/// or a single word before a comma ("Actually,", "不对，"). `summary` itself when it has no such
/// opening.
[[nodiscard]] std::string correction_statement(std::string_view summary);

/// collie's STEP 2–4 around a decision policy's STEP 0, 1 and 3: decide, look for a similar memory
/// in the target scope (an update that reinforces it, never a duplicate), or write a new short-term
/// memory. Text is redacted before anything is decided or written.
class Rememberer {
public:
    Rememberer(MemoryStore &store, ActivePolicies policies, RememberSettings settings = {});

    RememberOutcome remember(const RememberRequest &request);
    /// Decides a batch in one policy call, then writes each stored one in order. `after_each` is
    /// called with a request's index and outcome as soon as that outcome is written, so that a
    /// caller can record its progress message by message.
    using OutcomeWritten = std::function<void(std::size_t index, const RememberOutcome &outcome)>;
    std::vector<RememberOutcome> remember_all(const std::vector<RememberRequest> &requests,
                                              const OutcomeWritten &after_each = {});
    /// The decision alone, writing nothing (`starling classify`).
    [[nodiscard]] std::vector<sdk::Decision> classify(const std::vector<RememberRequest> &requests) const;

private:
    RememberOutcome apply(const RememberRequest &request, const std::string &redacted_text, sdk::Decision decision);
    /// Stores each claim of `decision` as a decision of its own.
    RememberOutcome apply_claims(const RememberRequest &request, const std::string &redacted_text,
                                 sdk::Decision decision);
    /// A stored memory that a message restates.
    struct Duplicate {
        std::string key;
        std::string id;
        double similarity = 0;
        Scope scope = Scope::user(); ///< where it is kept
        bool closest_only = false;   ///< found as the closest memory, not by a value or name both say
        /// Found as a memory one number of which this changes in one clause (find_renumbered_in_part):
        /// changed there in place, or left as it is; never retired.
        bool in_part_only = false;
    };
    /// Adds the restated text to the memory `duplicate` found and reinforces it, in one write, and
    /// returns where that memory is now; nullopt when it no longer exists (archived, merged away).
    std::optional<std::string> restate(const Duplicate &duplicate, const RememberRequest &request,
                                       const std::string &redacted_text, const sdk::Decision &decision);
    /// Changes `value` in the memory `older` (its summary and its text) and counts the correction
    /// as a use of it, in one write, and returns where that memory is now; nullopt when it no
    /// longer exists or no longer writes the value once.
    std::optional<std::string> correct_in_place(const Duplicate &older, const CorrectedValue &value,
                                                const RememberRequest &request, const std::string &redacted_text);
    /// Links the memory `older_id`, which the memory `newer_id` changes in part and is kept beside,
    /// back to it (amended_by_link_relation) and says so in its history; once, however often asked.
    void link_amended(const std::string &older_id, const std::string &newer_id);
    /// Marks the memory `older_id` superseded by `newer_id` (supersede) and says so in both
    /// histories. Returns where it is; nothing when it is gone or was superseded already.
    std::optional<std::string> mark_superseded(const std::string &older_id, const std::string &newer_id);
    /// Marks what the memory at `key` (`newer_id`) names as superseded or changed in part by it
    /// (supersedes_field, amends_link_relation): what a judge that died after writing it left.
    void mark_what_it_names(const std::string &key, const std::string &newer_id);
    /// The key of the memory with id `id` if it lists `message_ref` in `captured`: the message was
    /// stored before its judge died. Clears `id` when another memory has it.
    [[nodiscard]] std::optional<std::string> stored_capture(std::string &id, const std::string &message_ref);
    [[nodiscard]] std::optional<Duplicate> find_duplicate(const Scope &scope, const std::string &text);
    /// The memory a message stored in `scope` supersedes, not superseded already. A plain statement
    /// (`statement`, what it states) supersedes the memory whose value it replaces with one of a
    /// kind (find_replaced). A `correction` (`text`, all it says) supersedes the closest memory that
    /// names a `retired` term, if close enough (retire_similarity), else the one whose value it
    /// replaces, else the one that gives a name it renumbers (find_renumbered), else the closest,
    /// if close enough (supersede_similarity). The first two are looked for in `scope` and the
    /// other scope the request sees; the last two only in `scope`, and for a correction kept as the
    /// user's, in the request's project. Either, when nothing else, may change one number of a
    /// memory that says more (find_renumbered_in_part, `in_part_only`), looked for as the first two.
    [[nodiscard]] std::optional<Duplicate> find_superseded(const Scope &scope, const std::string &project_id,
                                                           const std::string &text,
                                                           const std::vector<std::string> &retired,
                                                           const std::string &statement, bool correction);
    /// The memory of `scope` whose `dedupe_key` field is `dedupe_key`, if any.
    [[nodiscard]] std::optional<Duplicate> find_by_dedupe_key(const Scope &scope, const std::string &dedupe_key);

    MemoryStore *store_;
    ActivePolicies policies_;
    RememberSettings settings_;
};

} // namespace starling::core
