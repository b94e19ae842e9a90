// SPDX-License-Identifier: Apache-2.0
#include "episodic_plan.hpp"

#include "calendar_date.hpp"
#include "claims.hpp"
#include "layered_memory.hpp"

#include <charconv>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace starling::episodic {
namespace {

using sdk::LifecycleAction;
using Kind = LifecycleAction::Kind;

LifecycleAction set_field(const LayeredMemory &memory, std::string field, sdk::FieldValue value, std::string reason) {
    LifecycleAction action;
    action.kind = Kind::set_field;
    action.key = memory.key;
    action.field = std::move(field);
    action.value = std::move(value);
    action.reason = std::move(reason);
    return action;
}

LifecycleAction keyed(Kind kind, const std::string &key, std::string reason) {
    LifecycleAction action;
    action.kind = kind;
    action.key = key;
    action.reason = std::move(reason);
    return action;
}

class ConsolidationPlanner {
public:
    ConsolidationPlanner(const sdk::MemoryBatch &batch, const EpisodicSettings &settings)
        : batch_(batch), settings_(settings), today_(day_of(batch.now())) {
        memories_.reserve(batch.size());
        for (std::size_t index = 0; index < batch.size(); ++index) {
            memories_.push_back(read_layered_memory(batch[index], index));
        }
    }

    std::vector<LifecycleAction> plan() {
        plan_semantic_updates();
        for (const LayeredMemory &memory : memories_) {
            if (memory.layer == Layer::episodic) {
                plan_episodic(memory);
            } else {
                plan_salience(memory);
            }
        }
        return std::move(actions_);
    }

private:
    /// The day after which `memory` decays, writing `decay-after` when it has none (or an unreadable one).
    std::int64_t decay_day(const LayeredMemory &memory) {
        const auto written = memory.field("decay-after");
        if (written) {
            if (const auto day = day_of_date(*written)) {
                return *day;
            }
        }
        int retention = settings_.retention_days;
        if (const auto days = memory.field("retention-days")) {
            int parsed = 0;
            const auto [end, error] = std::from_chars(days->data(), days->data() + days->size(), parsed);
            if (error == std::errc{} && end == days->data() + days->size() && parsed > 0) {
                retention = parsed;
            }
        }
        const std::int64_t day = day_of(memory.created) + retention;
        actions_.push_back(set_field(memory, "decay-after", date_of_day(day),
                                     written ? "decay-after '" + *written + "' is no date: created + " +
                                                   std::to_string(retention) + " days"
                                             : "episodic: decays " + std::to_string(retention) + " days after created"));
        if (memory.field("retention-days")) {
            actions_.push_back(set_field(memory, "retention-days", std::monostate{}, "dated: decay-after is set"));
        }
        return day;
    }

    void plan_episodic(const LayeredMemory &memory) {
        const std::int64_t decays_after = decay_day(memory);
        if (memory.pinned) {
            return; // the user keeps it as it is
        }
        const std::string_view body = batch_[memory.index].body();
        if (body.empty()) {
            return; // a batch without texts (an older host): nothing can be absorbed, so nothing is lost
        }
        const auto claims = extract_claims(body, settings_.min_claim_length);
        if (today_ > decays_after) {
            decay(memory, claims);
        } else if (!memory.field("absorbed") && today_ - day_of(memory.created) <= settings_.absorb_recent_days) {
            absorb_recent(memory, claims);
        }
    }

    /// The memory of `layer` in a scope `episodic` may write into that shares at least `min_shared` tags
    /// with it; ties go to the higher salience, then the later use.
    const LayeredMemory *best_target(const LayeredMemory &episodic, Layer layer, std::size_t min_shared) const {
        const LayeredMemory *best = nullptr;
        std::size_t best_shared = 0;
        for (const LayeredMemory &candidate : memories_) {
            const bool reachable = candidate.scope_directory == episodic.scope_directory ||
                                   (layer == Layer::procedural && candidate.scope_directory == "memory/user");
            if (candidate.layer != layer || !reachable || candidate.index == episodic.index ||
                merged_away_.contains(candidate.index)) {
                continue;
            }
            const std::size_t shared = shared_tags(episodic, candidate);
            if (shared < min_shared) {
                continue;
            }
            const auto rank = [](const LayeredMemory &memory, std::size_t tags) {
                return std::tuple{tags, memory.salience_rank, memory.last_accessed};
            };
            if (best == nullptr || rank(candidate, shared) > rank(*best, best_shared)) {
                best = &candidate;
                best_shared = shared;
            }
        }
        return best;
    }

    /// Where one claim goes: a rule to the procedural memory, a fact (or a rule no procedural memory
    /// fits) to the semantic one.
    const LayeredMemory *target_of(const LayeredMemory &episodic, const std::string &claim, std::size_t min_shared) const {
        if (is_behavioural(claim, settings_.behavioural)) {
            if (const auto *procedural = best_target(episodic, Layer::procedural, min_shared)) {
                return procedural;
            }
        }
        return best_target(episodic, Layer::semantic, min_shared);
    }

    void append(const LayeredMemory &target, const std::string &claim, const LayeredMemory &episodic) {
        LifecycleAction action = keyed(Kind::append, target.key, "a claim of episodic " + episodic.key);
        action.text = claim;
        actions_.push_back(std::move(action));
    }

    /// Phase 1, once: what fits a memory closely (≥ 2 shared tags) is copied there while the episodic
    /// stays; the rest waits for the decay.
    void absorb_recent(const LayeredMemory &memory, const std::vector<std::string> &claims) {
        for (const auto &claim : claims) {
            if (const auto *target = target_of(memory, claim, 2)) {
                append(*target, claim, memory);
            }
        }
        actions_.push_back(set_field(memory, "absorbed", date_of_day(today_), "recent episodic absorbed once"));
    }

    /// Phase 2: every claim finds a home and the episodic goes, or it stays as a semantic memory.
    void decay(const LayeredMemory &memory, const std::vector<std::string> &claims) {
        std::vector<std::pair<const LayeredMemory *, const std::string *>> homes;
        for (const auto &claim : claims) {
            const auto *target = target_of(memory, claim, 1);
            if (target == nullptr) {
                become_semantic(memory);
                return;
            }
            homes.emplace_back(target, &claim);
        }
        for (const auto &[target, claim] : homes) {
            append(*target, *claim, memory);
        }
        actions_.push_back(keyed(Kind::archive, memory.key,
                                 "episodic past its decay-after: all " + std::to_string(claims.size()) +
                                     " claims absorbed"));
    }

    void become_semantic(const LayeredMemory &memory) {
        const std::string reason = "episodic past its decay-after with a claim no memory shares a tag with: kept as semantic";
        actions_.push_back(set_field(memory, "layer", std::string{"semantic"}, reason));
        actions_.push_back(set_field(memory, "status", std::string{"confirmed"}, reason));
        for (const char *field : {"retention", "decay-after", "absorbed"}) {
            if (memory.fields.contains(field)) {
                actions_.push_back(set_field(memory, field, std::monostate{}, reason));
            }
        }
    }

    /// Rule 3 of the layer tree: a new semantic memory that shares ≥ `duplicates.min_shared_tags` tags
    /// with an older one of its scope updates it — merged into it, both texts kept — instead of
    /// standing beside it. Judged here, on the layers and tags the decision chose, because the duplicate
    /// judge of remembering sees only a message's text, and an episodic naming two of a fact's tags is
    /// no restatement of that fact.
    void plan_semantic_updates() {
        for (const LayeredMemory &memory : memories_) {
            const bool new_fact = memory.layer == Layer::semantic && !memory.pinned &&
                                  today_ - day_of(memory.created) <= settings_.absorb_recent_days;
            if (!new_fact) {
                continue;
            }
            const LayeredMemory *best = nullptr;
            std::size_t best_shared = 0;
            for (const LayeredMemory &older : memories_) {
                const bool earlier = older.created < memory.created ||
                                     (older.created == memory.created && older.index < memory.index);
                if (older.layer != Layer::semantic || !earlier || older.scope_directory != memory.scope_directory ||
                    merged_away_.contains(older.index)) {
                    continue;
                }
                const std::size_t shared = shared_tags(memory, older);
                const auto rank = [](const LayeredMemory &candidate, std::size_t tags) {
                    return std::tuple{tags, candidate.salience_rank, candidate.last_accessed};
                };
                if (shared >= settings_.min_shared_tags && (best == nullptr || rank(older, shared) > rank(*best, best_shared))) {
                    best = &older;
                    best_shared = shared;
                }
            }
            if (best != nullptr) {
                LifecycleAction merge = keyed(Kind::merge, memory.key,
                                              "a new fact sharing " + std::to_string(best_shared) +
                                                  " tags with a semantic memory updates it");
                merge.into = best->key;
                actions_.push_back(std::move(merge));
                merged_away_.insert(memory.index);
            }
        }
    }

    /// The last day the memory was used: read (a use after it was written), or injected into a
    /// session, which is what claude-memory's session tags recorded.
    std::optional<std::int64_t> last_used_day(const LayeredMemory &memory) const {
        std::optional<std::int64_t> used;
        if (memory.last_accessed > memory.created) {
            used = day_of(memory.last_accessed);
        }
        if (const auto injected = memory.field("last_injected")) {
            if (const auto day = day_of_date(*injected); day && (!used || *day > *used)) {
                used = day;
            }
        }
        return used;
    }

    void plan_salience(const LayeredMemory &memory) {
        if (merged_away_.contains(memory.index)) {
            return;
        }
        const auto used = last_used_day(memory);
        const std::int64_t idle_days = today_ - used.value_or(day_of(memory.last_accessed));
        std::string salience = "medium";
        if (used && idle_days <= settings_.recent_use_days) {
            salience = "high";
        } else if (idle_days > settings_.unused_days) {
            salience = "low";
        }
        if (memory.salience != salience) {
            actions_.push_back(set_field(memory, "salience", salience,
                                         salience == "high"  ? "used in the latest session day"
                                         : salience == "low" ? "unused for more than " +
                                                                   std::to_string(settings_.unused_days) + " days"
                                                             : "neither used lately nor long unused"));
        }
    }

    const sdk::MemoryBatch &batch_;
    const EpisodicSettings &settings_;
    std::int64_t today_;
    std::vector<LayeredMemory> memories_;
    std::set<std::size_t> merged_away_; ///< new facts merged into older ones: no target, no salience
    std::vector<LifecycleAction> actions_;
};

} // namespace

std::vector<sdk::LifecycleAction> plan_consolidation(const sdk::MemoryBatch &memories, const EpisodicSettings &settings) {
    return ConsolidationPlanner{memories, settings}.plan();
}

} // namespace starling::episodic
