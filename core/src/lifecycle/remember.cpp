// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/remember.hpp>

#include <starling/core/lifecycle/closest_memory.hpp>
#include <starling/core/lifecycle/episode_links.hpp>
#include <starling/core/store/record/memory_links.hpp>
#include <starling/core/lifecycle/plan_actions.hpp>
#include <starling/core/lifecycle/replaced_value.hpp>
#include <starling/core/redaction/redaction.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/io/store_error.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <utility>
#include <variant>

namespace starling::core {

std::string_view to_string(RememberOutcome::Action action) noexcept {
    switch (action) {
    case RememberOutcome::Action::created: return "created";
    case RememberOutcome::Action::updated: return "updated";
    case RememberOutcome::Action::discarded: return "discarded";
    }
    return "discarded";
}

namespace {

/// Where `separators` first occur in `text`, and the separator's length; npos when nowhere.
std::pair<std::size_t, std::size_t> first_of(std::string_view text, std::initializer_list<std::string_view> separators) {
    std::pair<std::size_t, std::size_t> first{std::string_view::npos, 0};
    for (const std::string_view separator : separators) {
        if (const auto at = text.find(separator); at < first.first) {
            first = {at, separator.size()};
        }
    }
    return first;
}

std::size_t word_count(std::string_view text) {
    std::size_t words = 0;
    bool in_word = false;
    for (const char character : text) {
        const bool space = character == ' ' || character == '\t';
        words += !space && !in_word ? 1 : 0;
        in_word = !space;
    }
    return words;
}

/// The summary of the memory at `key`; empty when it is gone or unreadable (a restatement there
/// is then no concern of this check).
std::string summary_of(const MemoryStore &store, const std::string &key) {
    try {
        return store.read(key).summary;
    } catch (const StoreError &) {
        return {};
    }
}

} // namespace

std::string correction_statement(std::string_view summary) {
    constexpr std::size_t most_opening_words = 5;
    std::size_t statement_at = 0;
    // A colon that opens the statement is followed by a blank or ends the text: not the one of
    // "https://" or "10:30".
    auto [colon, length] = first_of(summary, {": ", ":\t", "："});
    if (colon == std::string_view::npos && summary.ends_with(':')) {
        colon = summary.size() - 1;
        length = 1;
    }
    if (colon != std::string_view::npos && word_count(summary.substr(0, colon)) <= most_opening_words) {
        statement_at = colon + length;
    } else if (const auto [comma, comma_length] = first_of(summary, {",", "，"});
               comma != std::string_view::npos && word_count(summary.substr(0, comma)) == 1) {
        statement_at = comma + comma_length;
    }
    std::string statement{summary.substr(statement_at)};
    statement.erase(0, statement.find_first_not_of(" \t"));
    if (statement.empty()) {
        return std::string{summary};
    }
    if (statement.front() >= 'a' && statement.front() <= 'z') {
        statement.front() = static_cast<char>(statement.front() - 'a' + 'A');
    }
    return statement;
}

namespace {

constexpr std::size_t kMaxSummaryBytes = 120;

/// The first line of the text, cut at a UTF-8 boundary: what a memory shows when nothing better was
/// decided.
std::string summary_from_text(std::string_view text) {
    auto line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
        line.remove_prefix(1);
    }
    if (line.size() <= kMaxSummaryBytes) {
        return std::string{line};
    }
    std::size_t cut = kMaxSummaryBytes;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return std::string{line.substr(0, cut)} + "…";
}

/// The session id as a memory file can list it: an agent may send control characters in its ids,
/// which a file meant for people refuses; they are not worth losing what the user said over.
std::string listable_session_id(std::string_view session_id) {
    std::string listable{session_id};
    for (char &character : listable) {
        if (static_cast<unsigned char>(character) < 0x20 || character == 0x7f) {
            character = '_';
        }
    }
    return listable;
}

/// The frontmatter list of the session messages (RememberRequest::message_ref) most recently stored
/// in or restated into a memory: what tells a message judged again after a crash that its outcome
/// is written already. Only the last few are kept, since only the message a judge was writing
/// when it died is ever judged again.
constexpr std::string_view captured_field = "captured";
/// The frontmatter field that holds a decision's dedupe key.
constexpr std::string_view dedupe_key_field = "dedupe_key";
constexpr std::size_t max_listed_captures = 8;

bool lists_capture(const Memory &memory, const std::string &message_ref) {
    const FrontmatterEntry *entry = memory.extra_field(captured_field);
    if (message_ref.empty() || entry == nullptr) {
        return false;
    }
    try {
        const auto refs = decode_list(*entry, {});
        return std::find(refs.begin(), refs.end(), message_ref) != refs.end();
    } catch (const StoreError &) {
        return false; // a hand edit made it unreadable: judged again rather than lost
    }
}

void add_capture(Memory &memory, const std::string &message_ref) {
    if (message_ref.empty()) {
        return;
    }
    std::vector<std::string> refs;
    if (const FrontmatterEntry *entry = memory.extra_field(captured_field)) {
        try {
            refs = decode_list(*entry, {});
        } catch (const StoreError &) {
            refs.clear();
        }
    }
    add_missing_items(refs, {message_ref});
    if (refs.size() > max_listed_captures) {
        refs.erase(refs.begin(), refs.end() - static_cast<std::ptrdiff_t>(max_listed_captures));
    }
    memory.set_extra_list(captured_field, refs);
}

/// An event of the memory's history as the request that caused it tells it: who said what, where.
ProvenanceEvent said_event(ProvenanceKind kind, const RememberRequest &request, const std::string &redacted_text,
                           const MemoryStore &store) {
    ProvenanceEvent event;
    event.time = store.clock().now();
    event.kind = kind;
    event.agent = request.agent;
    event.session = request.session_id;
    event.message = request.message_ref;
    event.text = redacted_text;
    return event;
}

/// A supersession, from the side of the memory `memory_id`: it supersedes `other`, or is superseded by it.
void note_supersession(const MemoryStore &store, ProvenanceKind kind, const std::string &memory_id,
                       const std::string &other) {
    ProvenanceEvent event;
    event.time = store.clock().now();
    event.kind = kind;
    event.other = other;
    record_provenance(store.root(), store.redactor(), memory_id, std::move(event));
}

} // namespace

Rememberer::Rememberer(MemoryStore &store, ActivePolicies policies, RememberSettings settings)
    : store_(&store), policies_(policies), settings_(settings) {}

std::vector<sdk::Decision> Rememberer::classify(const std::vector<RememberRequest> &requests) const {
    if (policies_.decision == nullptr) {
        throw std::runtime_error("no decision policy is active (set policies.decision)");
    }
    std::vector<sdk::Message> messages;
    messages.reserve(requests.size());
    for (const auto &request : requests) {
        messages.push_back({store_->redactor().redact(request.text).text, request.agent, request.project_id});
        messages.back().asked_to_keep = request.asked_to_keep;
    }
    if (policies_.decision->wants_closest_similarity()) {
        add_closest_similarities(*store_, policies_, settings_.duplicate_candidates, messages);
    }
    return policies_.decision->decide(messages);
}

RememberOutcome Rememberer::remember(const RememberRequest &request) {
    return remember_all({request}).front();
}

std::vector<RememberOutcome> Rememberer::remember_all(const std::vector<RememberRequest> &requests,
                                                      const OutcomeWritten &after_each) {
    std::vector<RememberRequest> undecided;
    for (const auto &request : requests) {
        if (!request.forced) {
            undecided.push_back(request);
        }
    }
    const auto decisions = undecided.empty() ? std::vector<sdk::Decision>{} : classify(undecided);
    std::vector<RememberOutcome> outcomes;
    std::size_t next_decision = 0;
    for (const auto &request : requests) {
        const auto redacted = store_->redactor().redact(request.text).text;
        sdk::Decision decision = request.forced ? *request.forced : decisions.at(next_decision++);
        outcomes.push_back(apply(request, redacted, std::move(decision)));
        if (after_each) {
            after_each(outcomes.size() - 1, outcomes.back());
        }
    }
    return outcomes;
}

RememberOutcome Rememberer::apply_claims(const RememberRequest &request, const std::string &redacted_text,
                                         sdk::Decision decision) {
    RememberOutcome outcome;
    outcome.reason = decision.reason;
    for (std::size_t index = 0; index < decision.claims.size(); ++index) {
        RememberRequest claim_request = request;
        // Each claim is its own capture: a judge killed halfway through a message's claims stores
        // the rest, and none twice, when the message is judged again.
        if (!request.message_ref.empty()) {
            claim_request.message_ref = request.message_ref + "/" + std::to_string(index + 1);
        }
        RememberOutcome claim = apply(claim_request, redacted_text, std::move(decision.claims[index]));
        if (outcome.action == RememberOutcome::Action::discarded && claim.action != RememberOutcome::Action::discarded) {
            outcome.action = claim.action;
            outcome.key = claim.key;
        }
        outcome.claims.push_back(std::move(claim));
    }
    decision.claims.clear();
    outcome.decision = std::move(decision);
    return outcome;
}

RememberOutcome Rememberer::apply(const RememberRequest &request, const std::string &redacted_text,
                                  sdk::Decision decision) {
    if (decision.store && !decision.claims.empty()) {
        return apply_claims(request, redacted_text, std::move(decision));
    }
    RememberOutcome outcome;
    outcome.reason = decision.reason;
    if (!decision.store) {
        outcome.decision = std::move(decision);
        return outcome;
    }
    if (decision.scope == "project" && request.project_id.empty()) {
        outcome.reason = "a project memory needs a project: run from inside one, or pass --scope user";
        outcome.decision = std::move(decision);
        return outcome;
    }
    // A policy's summary and tags may quote the message; the store redacts what it writes, and
    // this keeps them out of the duplicate search and the outcome shown to the user as well.
    decision.summary = store_->redactor().redact(decision.summary).text;
    for (auto &tag : decision.tags) {
        tag = store_->redactor().redact(tag).text;
    }
    // A claim is one part of the message; the memory holds the claim, not the whole message.
    const std::string text = decision.body.empty() ? redacted_text : store_->redactor().redact(decision.body).text;
    if (decision.summary.empty()) {
        decision.summary = summary_from_text(text);
    }
    // A field the host keeps is not the policy's to set; the memory is still stored, without it.
    std::string refused_fields;
    std::erase_if(decision.fields, [&](const auto &field) {
        const std::string &name = field.first;
        // The typed fields have members of the decision (type, summary, tags) or are the host's.
        const bool refused = !policy_may_set_field(name) || is_typed_memory_field(name);
        if (refused) {
            refused_fields += (refused_fields.empty() ? "'" : ", '") + name + "'";
        }
        return refused;
    });
    if (!refused_fields.empty()) {
        outcome.reason += " (not set: " + refused_fields + ", which a decision may not set)";
    }
    Scope scope = decision.scope == "project" ? Scope::project(request.project_id) : Scope::user();
    // A correction restates what it corrects closely ("the staging database is db-staging-2, not
    // db-staging-1"): folded into it, both would stay one memory. It replaces it instead.
    const bool is_correction = std::erase_if(decision.fields, [](const auto &field) {
                                   return field.first == supersedes_field;
                               }) > 0;
    std::vector<std::string> retired;
    std::erase_if(decision.fields, [&](const auto &field) {
        if (field.first != retires_field) {
            return false;
        }
        if (const auto *terms = std::get_if<std::vector<std::string>>(&field.second)) {
            retired = *terms;
        } else if (const auto *term = std::get_if<std::string>(&field.second)) {
            retired = {*term};
        }
        return true;
    });
    if (is_correction) {
        decision.summary = correction_statement(decision.summary);
    }
    const std::string said = decision.summary + "\n" + text; // what a stored memory may restate
    // A message judged again after its judge died is stored already, under an id derived from it;
    // what it supersedes or changes in part, it names itself, and is marked now if that judge died
    // before marking it. Looked up first: judged again, it would find itself as what it restates.
    std::string captured_id;
    if (!request.message_ref.empty()) {
        captured_id = derive_memory_id(std::chrono::sys_seconds{}, "captured " + request.message_ref);
        if (const auto stored = stored_capture(captured_id, request.message_ref)) {
            mark_what_it_names(*stored, captured_id);
            outcome.key = *stored;
            outcome.action = RememberOutcome::Action::created;
            outcome.decision = std::move(decision);
            return outcome;
        }
    }
    // A correction retires what it corrects; a plain statement may replace an older one on the
    // same subject ("I prefer pnpm …" for "I prefer yarn …"), which must not be folded into it.
    // A policy that keys what it says (dedupe_key: skill_master's triples) judges conflicts itself.
    auto superseded = is_correction || decision.dedupe_key.empty()
                          ? find_superseded(scope, request.project_id, said, retired, decision.summary, is_correction)
                          : std::nullopt;
    // A memory said alike that is neither superseded nor folded into: the new one links to it
    // (`alike:`), for `health` to list, and the user is told how to retire it.
    std::string alike_id;
    // Kept apart from a memory this changes in part (the branches below): the older one is then
    // linked back, so that it is never shown without what changed since.
    std::optional<Duplicate> amended;
    // A correction of one value in a memory that says more ("Deploys go through ArgoCD; the staging
    // cluster is stg-eu-1." for "the staging cluster is stg-eu-2 now") changes that value there:
    // retiring the memory would lose the rest, keeping both would still serve the old value.
    // What the memory found says, read once for the rules below.
    std::optional<Memory> found;
    if (superseded) {
        try {
            found = store_->read(superseded->key);
        } catch (const StoreError &) {
            // gone since it was found: nothing to correct in it
        }
    }
    if (superseded) {
        // Judged again after its judge died: the correction is in that memory already.
        if (found && lists_capture(*found, request.message_ref)) {
            outcome.action = RememberOutcome::Action::updated;
            outcome.key = superseded->key;
            outcome.reason = "corrected " + superseded->id + " already";
            outcome.decision = std::move(decision);
            return outcome;
        }
        // Else the value the correction names as no longer so ("Go 1.22, not 1.21"), written in that
        // memory once, with the one word of its form the correction says instead.
        auto value = found ? corrected_value(found->summary, decision.summary) : std::nullopt;
        if (!value && found) {
            value = corrected_named_value(found->summary, decision.summary, retired);
        }
        // Else the one number it changes in a memory of one clause that says other numbers too
        // ("… is pg-staging-3 on port 5433." for "… is pg-staging-4 now").
        if (!value && found) {
            value = corrected_number(found->summary, decision.summary);
        }
        if (value) {
            if (auto key = correct_in_place(*superseded, *value, request, text)) {
                outcome.action = RememberOutcome::Action::updated;
                outcome.key = std::move(*key);
                outcome.similarity = superseded->similarity;
                outcome.corrected = value;
                outcome.reason = "corrects " + value->older + " to " + value->newer + " in " + superseded->id +
                                 ", which says more than this changes: it now reads \"" +
                                 summary_of(*store_, outcome.key) + "\"";
                outcome.decision = std::move(decision);
                return outcome;
            }
        }
    }
    // Found only as one whose number this changes in one clause: changed there, or left alone.
    if (superseded && superseded->in_part_only) {
        superseded.reset();
    }
    // A memory that says more numbers than this one changes holds more than it corrects ("payments
    // on port 8081 and the ledger on 8082" for "we moved the ledger to 9082"): retiring it would
    // lose the rest. Unsure, both are kept. One number of its own is the value corrected ("the API
    // docs are at …/v3" for "the API docs moved to …/api").
    // Likewise a memory that is only the closest and says much the correction does not touch ("…
    // Schema ANALYTICS_PROD, da nur lesend zugreifen!" for "das Schema heißt inzwischen
    // ANALYTICS_V2"): retiring it would lose the read-only rule with the old name. And one with a
    // clause the correction leaves untouched when it names no one value to change ("Node 18 in CI;
    // Node 18 on the dev boxes too." for "Node 20 in CI").
    if (superseded) {
        const std::string older = found ? found->summary : std::string{};
        const auto older_words = statement_words(older);
        const auto newer_words = statement_words(decision.summary);
        if (const auto numbers = own_numbers(older_words, newer_words);
            numbers.older.size() >= 2 && numbers.older.size() > numbers.newer.size()) {
            alike_id = superseded->id;
            outcome.kept_apart = "changes only part of " + alike_id + " (" + listed(numbers.older) + " there, " +
                                 (numbers.newer.empty() ? std::string{"none"} : listed(numbers.newer)) +
                                 " here): both kept, `starling forget " + alike_id + "` when nothing else in it holds";
            amended = std::move(superseded);
            superseded.reset();
        } else if (superseded->closest_only && says_much_more(older_words, newer_words)) {
            alike_id = superseded->id;
            outcome.kept_apart = "changes only part of " + alike_id + ", which says more than this corrects: both "
                                 "kept, `starling forget " + alike_id + "` when nothing else in it holds";
            amended = std::move(superseded);
            superseded.reset();
        } else if (leaves_a_clause_untouched(older, decision.summary)) {
            alike_id = superseded->id;
            outcome.kept_apart = "changes only part of " + alike_id + ", which says more than this corrects and "
                                 "names no one value this changes: both kept, `starling forget " + alike_id +
                                 "` when nothing else in it holds";
            amended = std::move(superseded);
            superseded.reset();
        }
    }
    // A correction the decision policy kept as the user's belongs to the project whose memory it
    // corrects ("The metrics dashboard moved to …"): not a rule for every other project.
    if (is_correction && superseded && scope.is_user() && !superseded->scope.is_user()) {
        scope = superseded->scope;
        decision.scope = "project";
        outcome.reason += "; kept as the project's, like the memory it corrects";
    }
    // Kept apart from what it changes only in part, it is folded into nothing either.
    auto duplicate = is_correction || superseded || !alike_id.empty() ? std::nullopt
                     : decision.dedupe_key.empty()                   ? find_duplicate(scope, said)
                                                                     : find_by_dedupe_key(scope, decision.dedupe_key);
    // Said alike but with a number of its own on each side ("the auth service runs on port 8081",
    // "the mail service … 8025"): another rule or a newer value, and folding it in would hide it
    // under the older summary. Unsure which, both are kept and the user is told how to retire one.
    if (duplicate && decision.dedupe_key.empty()) {
        if (const auto numbers = own_numbers(summary_of(*store_, duplicate->key), decision.summary); numbers.differ()) {
            alike_id = duplicate->id;
            outcome.kept_apart = "kept apart from " + alike_id + " (similarity " +
                                 std::to_string(duplicate->similarity).substr(0, 4) + "), which says " +
                                 listed(numbers.older) + " where this says " + listed(numbers.newer) +
                                 ": `starling forget " + alike_id + "` if this replaces it";
            duplicate.reset();
        }
    }
    if (duplicate) {
        if (auto key = restate(*duplicate, request, text, decision)) {
            ProvenanceEvent event = said_event(ProvenanceKind::reinforced, request, text, *store_);
            event.reason = decision.dedupe_key.empty() ? "restated (similarity " +
                                                             std::to_string(duplicate->similarity).substr(0, 4) + ")"
                                                       : "restated (dedupe key '" + decision.dedupe_key + "')";
            record_provenance(store_->root(), store_->redactor(), duplicate->id, std::move(event));
            outcome.action = RememberOutcome::Action::updated;
            outcome.key = std::move(*key);
            outcome.similarity = duplicate->similarity;
            outcome.reason = decision.dedupe_key.empty()
                                 ? "similar to an existing memory (similarity " +
                                       std::to_string(duplicate->similarity).substr(0, 4) + "): updated and reinforced it"
                                 : "the same as an existing memory (dedupe key '" + decision.dedupe_key +
                                       "'): reinforced it";
            outcome.decision = std::move(decision);
            return outcome;
        }
    }
    Memory memory;
    memory.id = captured_id;
    memory.type = decision.type.empty() ? std::string{"feedback"} : decision.type;
    memory.summary = decision.summary;
    memory.tags = decision.tags;
    memory.body = text + "\n";
    memory.pinned = request.pin || decision.pin;
    for (const auto &[name, value] : decision.fields) {
        set_memory_field(memory, name, value);
    }
    if (!decision.dedupe_key.empty()) {
        memory.set_extra_field(dedupe_key_field, decision.dedupe_key);
    }
    add_sessions(memory, {listable_session_id(request.session_id)});
    add_capture(memory, request.message_ref);
    auto links = episode_link_items(episode_predecessors(*store_, scope, settings_.episode_links, settings_.episode_window));
    if (!alike_id.empty()) {
        links.push_back(link_item(amended ? amends_link_relation : alike_link_relation, alike_id));
    }
    set_link_items(memory, links);
    if (superseded) {
        memory.set_extra_field(supersedes_field, superseded->id);
    }
    if (!outcome.kept_apart.empty()) {
        outcome.reason += "; " + outcome.kept_apart;
    }
    std::string new_id = memory.id; // known before it is written when derived from message_ref
    outcome.key = store_->create(scope, Tier::short_term, std::move(memory));
    outcome.action = RememberOutcome::Action::created;
    try {
        // Read by key only when the store chose the id: a consolidation running beside this one
        // may merge the new memory away the moment it exists.
        if (new_id.empty()) {
            new_id = memory_id_of(store_->read(outcome.key));
        }
    } catch (const StoreError &) {
        // Merged or archived meanwhile: there is no memory left to give a history or to supersede with.
    }
    if (!new_id.empty()) {
        ProvenanceEvent origin = said_event(ProvenanceKind::created, request, text, *store_);
        origin.decision = (decision.type.empty() ? std::string{"feedback"} : decision.type) + ", " +
                          (scope.is_user() ? "user" : "project " + request.project_id);
        origin.reason = outcome.reason;
        record_provenance(store_->root(), store_->redactor(), new_id, std::move(origin));
    }
    if (amended && !new_id.empty()) {
        link_amended(amended->id, new_id);
    }
    if (superseded && !new_id.empty()) {
        if (auto key = mark_superseded(superseded->id, new_id)) {
            outcome.superseded = std::move(*key);
            outcome.reason += "; supersedes " + superseded->id +
                              (is_correction ? ", which it corrects" : ", which it replaces with a newer value");
        }
    }
    outcome.decision = std::move(decision);
    return outcome;
}

namespace {

/// Thrown from inside an update to leave the file untouched: the key now holds another memory.
struct AnotherMemoryThere {};
/// Thrown from inside a correction in place to leave the file untouched: the memory there no
/// longer writes the value once.
struct NotCorrectable {};

} // namespace

std::optional<std::string> Rememberer::correct_in_place(const Duplicate &older, const CorrectedValue &value,
                                                        const RememberRequest &request,
                                                        const std::string &redacted_text) {
    const std::vector<std::string> session{listable_session_id(request.session_id)};
    const auto now = store_->clock().now();
    std::string said_before;
    // Found by id, as restate does: another process may have moved or merged it since.
    std::string key;
    try {
        key = store_->find_memory(older.id);
        store_->update(key, [&](Memory &memory) {
            if (memory_id_of(memory) != older.id) {
                throw NotCorrectable{}; // another memory took its file meanwhile
            }
            auto summary = with_value_corrected(memory.summary, value);
            // A text that does not write the value (one cut short, one written by hand) keeps what
            // it says; one that writes it twice does not say which of them to change.
            auto body = times_written(memory.body, value.older) == 0 ? std::optional{memory.body}
                                                                     : with_value_corrected(memory.body, value);
            if (!summary || !body) {
                throw NotCorrectable{};
            }
            said_before = memory.summary;
            memory.summary = std::move(*summary);
            memory.body = std::move(*body);
            memory.pinned = memory.pinned || request.pin;
            add_reads(memory, 1, now, session);
            add_capture(memory, request.message_ref);
        });
    } catch (const NotCorrectable &) {
        return std::nullopt;
    } catch (const StoreError &) {
        return std::nullopt; // archived or merged away meanwhile
    }
    ProvenanceEvent event = said_event(ProvenanceKind::edited, request, redacted_text, *store_);
    event.reason = "corrected " + value.older + " to " + value.newer + "; it said \"" + said_before + "\"";
    record_provenance(store_->root(), store_->redactor(), older.id, std::move(event));
    return key;
}

namespace {

/// Changes the memory with id `id` where it is now (another process may have moved it since it was
/// found); `change` returns whether it changed anything. The key when it did; nothing when it did
/// not, or the memory was archived or merged away meanwhile.
std::optional<std::string> change_memory_by_id(MemoryStore &store, const std::string &id,
                                               const std::function<bool(Memory &)> &change) {
    try {
        const std::string key = store.find_memory(id);
        bool changed = false;
        store.update(key, [&](Memory &memory) {
            if (memory_id_of(memory) != id) {
                throw AnotherMemoryThere{}; // its file holds another memory now
            }
            changed = change(memory);
        });
        return changed ? std::optional<std::string>{key} : std::nullopt;
    } catch (const AnotherMemoryThere &) {
    } catch (const StoreError &) {
    }
    return std::nullopt;
}

} // namespace

void Rememberer::link_amended(const std::string &older_id, const std::string &newer_id) {
    if (older_id == newer_id) {
        return;
    }
    const auto linked = change_memory_by_id(*store_, older_id, [&](Memory &memory) {
        return add_link(memory, amended_by_link_relation, newer_id);
    });
    if (linked) {
        note_supersession(*store_, ProvenanceKind::amended_by, older_id, newer_id);
    }
}

std::optional<std::string> Rememberer::mark_superseded(const std::string &older_id, const std::string &newer_id) {
    if (older_id == newer_id) {
        return std::nullopt;
    }
    auto marked = change_memory_by_id(*store_, older_id, [&](Memory &memory) {
        if (!memory.superseded_by.empty()) {
            return false;
        }
        supersede(memory, newer_id);
        return true;
    });
    if (marked) {
        note_supersession(*store_, ProvenanceKind::supersedes, newer_id, older_id);
        note_supersession(*store_, ProvenanceKind::superseded_by, older_id, newer_id);
    }
    return marked;
}

void Rememberer::mark_what_it_names(const std::string &key, const std::string &newer_id) {
    try {
        const Memory newer = store_->read(key);
        if (const FrontmatterEntry *supersedes = newer.extra_field(supersedes_field)) {
            (void)mark_superseded(decode_scalar(*supersedes, key), newer_id);
        }
        for (const auto &link : links_of(newer)) {
            if (link.relation == amends_link_relation) {
                link_amended(link.id, newer_id);
            }
        }
    } catch (const StoreError &) {
        // gone, or its fields do not read: there is nothing it can be said to name
    }
}

std::optional<std::string> Rememberer::restate(const Duplicate &duplicate, const RememberRequest &request,
                                               const std::string &redacted_text, const sdk::Decision &decision) {
    const std::vector<std::string> session{listable_session_id(request.session_id)};
    const auto now = store_->clock().now();
    std::string key = duplicate.key;
    // Between finding the memory and writing to it, another process may promote, demote or merge
    // it, and a new memory may take its old file name: the memory is followed by its id, and the
    // text and the use are added in one write, so neither is lost nor counted twice.
    for (int attempt = 0; attempt < 3; ++attempt) {
        try {
            store_->update(key, [&](Memory &memory) {
                if (memory_id_of(memory) != duplicate.id) {
                    throw AnotherMemoryThere{};
                }
                if (lists_capture(memory, request.message_ref)) {
                    return; // restated by a judge that died before recording it
                }
                // A restatement reinforces; a supplement is kept next to what was there, so nothing
                // the user said earlier is overwritten.
                if (memory.body.find(redacted_text) == std::string::npos && memory.summary != redacted_text) {
                    if (!memory.body.empty() && memory.body.back() != '\n') {
                        memory.body += '\n';
                    }
                    memory.body += '\n' + redacted_text + '\n';
                }
                add_missing_items(memory.tags, decision.tags);
                memory.pinned = memory.pinned || request.pin || decision.pin;
                add_reads(memory, 1, now, session);
                add_capture(memory, request.message_ref);
            });
            return key;
        } catch (const AnotherMemoryThere &) {
        } catch (const StoreError &) {
            if (store_->contains(key) && memory_id_of(store_->read(key)) == duplicate.id) {
                throw; // the memory is there and still cannot be written: a real error
            }
        }
        try {
            key = store_->find_memory(duplicate.id);
        } catch (const StoreError &) {
            return std::nullopt; // archived or merged away: the message becomes a memory of its own
        }
    }
    return std::nullopt;
}

std::optional<std::string> Rememberer::stored_capture(std::string &id, const std::string &message_ref) {
    try {
        const std::string key = store_->find_memory(id);
        if (lists_capture(store_->read(key), message_ref)) {
            return key;
        }
        id.clear(); // another memory has the id: the store picks a free one
    } catch (const StoreError &) {
        // no memory has the id: the message was not stored yet
    }
    return std::nullopt;
}

std::optional<Rememberer::Duplicate> Rememberer::find_by_dedupe_key(const Scope &scope, const std::string &dedupe_key) {
    ListFilter filter;
    filter.scope = scope;
    // The index holds every memory's fields as JSON: only those that mention the key are parsed.
    const std::string quoted = nlohmann::json(dedupe_key).dump();
    for (const IndexEntry &entry : store_->list(filter)) {
        if (entry.fields.find(quoted) == std::string::npos) {
            continue;
        }
        const auto fields = nlohmann::json::parse(entry.fields, nullptr, false);
        const auto found = fields.is_object() ? fields.find(dedupe_key_field) : fields.end();
        if (found != fields.end() && *found == dedupe_key) {
            return Duplicate{entry.key, entry.id, 1.0, scope};
        }
    }
    return std::nullopt;
}

std::optional<Rememberer::Duplicate> Rememberer::find_superseded(const Scope &scope, const std::string &project_id,
                                                                 const std::string &text,
                                                                 const std::vector<std::string> &retired,
                                                                 const std::string &statement, bool correction) {
    // A memory that says the same with another value, or names what is no longer so, may be in
    // the other scope the request sees ("Ich nehme jetzt pnpm statt npm …", kept as the project's,
    // for the user's "Ich bevorzuge npm …"). A looser match stays in the statement's scope: what is
    // said of one project must not retire what the user holds everywhere ("wir sind auf Airflow
    // 2.10 umgestiegen" for "Ich bin Data Engineer, … Airflow 2.9 …"); a correction the user makes,
    // said in a project, may retire what that project holds.
    std::vector<Scope> both_scopes{scope};
    std::vector<Scope> near_scopes{scope};
    if (!scope.is_user()) {
        both_scopes.push_back(Scope::user());
    } else if (!project_id.empty()) {
        both_scopes.push_back(Scope::project(project_id));
        if (correction) {
            near_scopes.push_back(Scope::project(project_id));
        }
    }
    // The best of `scopes` at or above `threshold` that is not superseded already.
    const auto best_of = [&](const std::vector<Scope> &scopes, const auto &find, double threshold) {
        std::optional<Duplicate> best;
        for (const Scope &candidate_scope : scopes) {
            const std::optional<ClosestMemory> closest = find(candidate_scope);
            if (!closest || closest->similarity < threshold || (best && closest->similarity <= best->similarity)) {
                continue;
            }
            try {
                if (store_->read(closest->key).superseded_by.empty()) {
                    best = Duplicate{closest->key, closest->id, closest->similarity, candidate_scope};
                }
            } catch (const StoreError &) {
                // gone since it was listed: no candidate
            }
        }
        return best;
    };
    // A plain statement replaces only a memory it says again with a number changed ("Node 20" for
    // "Node 18"), or in three words or more around a value of one kind ("I prefer pnpm for
    // JavaScript projects"): "Use mypy" does not replace "Use ruff". A correction, which says that
    // it replaces something, also one framed by two words or more around any value ("we use Bloc
    // for state management").
    const ReplacementFrames frames = correction ? ReplacementFrames{1, 2} : ReplacementFrames{3};
    const auto replaced = [&](const Scope &candidate_scope) {
        return find_replaced(*store_, policies_, candidate_scope, statement, frames);
    };
    // "Actuator moved to port 9091." for "The API listens on port 8080, and the actuator endpoints
    // are on port 8081.": a newer value of one thing a memory says among others, changed there.
    const auto renumbered_in_part = [&]() -> std::optional<Duplicate> {
        const auto in_part = find_renumbered_in_part(*store_, both_scopes, statement);
        if (!in_part) {
            return std::nullopt;
        }
        Duplicate found{in_part->memory.key, in_part->memory.id, in_part->memory.similarity, in_part->scope};
        found.in_part_only = true;
        return found;
    };
    if (!correction) {
        if (auto replacing = best_of(both_scopes, replaced, 0.0)) {
            return replacing;
        }
        return renumbered_in_part();
    }
    // What the correction says is no longer so points at the memory that says it; the closest
    // memory may be one that agrees with the correction ("use pnpm" for "use pnpm, not yarn").
    if (auto naming = best_of(
            both_scopes,
            [&](const Scope &candidate_scope) {
                return find_closest_naming(*store_, policies_, settings_.duplicate_candidates, candidate_scope,
                                           retired, text);
            },
            settings_.retire_similarity)) {
        return naming;
    }
    if (auto replacing = best_of(both_scopes, replaced, 0.0)) {
        return replacing;
    }
    // "Wir sind inzwischen auf Postgres 16 umgestiegen" for "… gegen Postgres 15 in Docker."
    if (auto renumbering = best_of(
            near_scopes,
            [&](const Scope &candidate_scope) { return find_renumbered(*store_, candidate_scope, statement); }, 0.0)) {
        return renumbering;
    }
    if (auto in_part = renumbered_in_part()) {
        return in_part;
    }
    auto closest = best_of(
        near_scopes,
        [&](const Scope &candidate_scope) {
            return find_closest_memory(*store_, policies_, settings_.duplicate_candidates, candidate_scope, text);
        },
        settings_.supersede_similarity);
    if (closest) {
        closest->closest_only = true;
    }
    return closest;
}

std::optional<Rememberer::Duplicate> Rememberer::find_duplicate(const Scope &scope, const std::string &text) {
    // What a duplicate is, the decay policy decides: it merges them at consolidation too.
    const auto closest = find_closest_memory(*store_, policies_, settings_.duplicate_candidates, scope, text);
    if (!closest || closest->similarity < settings_.duplicate_similarity) {
        return std::nullopt;
    }
    return Duplicate{closest->key, closest->id, closest->similarity, scope};
}

} // namespace starling::core
