// SPDX-License-Identifier: Apache-2.0
#include "isolation_plan.hpp"

#include "connections.hpp"
#include "entry_type.hpp"
#include "substance.hpp"

#include <starling/sdk/abi.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace starling::isolation {

using Kind = sdk::LifecycleAction::Kind;

std::string calendar_day(std::int64_t seconds_since_epoch) {
    // Howard Hinnant's civil_from_days.
    std::int64_t days = seconds_since_epoch / 86'400 - (seconds_since_epoch % 86'400 < 0 ? 1 : 0);
    days += 719'468;
    const std::int64_t era = (days >= 0 ? days : days - 146'096) / 146'097;
    const std::int64_t day_of_era = days - era * 146'097;
    const std::int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36'524 - day_of_era / 146'096) / 365;
    const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const std::int64_t shifted_month = (5 * day_of_year + 2) / 153;
    const std::int64_t day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    const std::int64_t month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
    const std::int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
    char text[64]; // room for any 64-bit year, which the compiler cannot rule out
    std::snprintf(text, sizeof text, "%04lld-%02lld-%02lld", static_cast<long long>(year),
                  static_cast<long long>(month), static_cast<long long>(day));
    return text;
}

namespace {

constexpr std::int64_t seconds_per_day = 86'400;

/// Days since the epoch of a `YYYY-MM-DD` text; nothing when it is not one.
std::optional<std::int64_t> day_number(std::string_view text) {
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
    if (text.size() != 10 || text[4] != '-' || text[7] != '-' ||
        std::from_chars(text.data(), text.data() + 4, year).ec != std::errc{} ||
        std::from_chars(text.data() + 5, text.data() + 7, month).ec != std::errc{} ||
        std::from_chars(text.data() + 8, text.data() + 10, day).ec != std::errc{} || month < 1 || month > 12 ||
        day < 1 || day > 31) {
        return std::nullopt;
    }
    // Howard Hinnant's days_from_civil.
    const int shifted_year = year - (month <= 2 ? 1 : 0);
    const int era = (shifted_year >= 0 ? shifted_year : shifted_year - 399) / 400;
    const unsigned year_of_era = static_cast<unsigned>(shifted_year - era * 400);
    const unsigned day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return static_cast<std::int64_t>(era) * 146'097 + static_cast<std::int64_t>(day_of_era) - 719'468;
}

std::int64_t day_of(std::int64_t seconds) { return seconds / seconds_per_day - (seconds % seconds_per_day < 0 ? 1 : 0); }

/// A whole number of reprieves; a value that is none counts as none given, and is written anew.
int reprieves_of(const sdk::MemoryView &memory) {
    const auto written = memory.field("reprieve_count");
    int count = 0;
    if (!written || std::from_chars(written->data(), written->data() + written->size(), count).ec != std::errc{} ||
        count < 0) {
        return 0;
    }
    return count;
}

sdk::LifecycleAction action(Kind kind, std::string_view key, std::string reason) {
    sdk::LifecycleAction made;
    made.kind = kind;
    made.key = std::string{key};
    made.reason = std::move(reason);
    return made;
}

sdk::LifecycleAction set_field(std::string_view key, std::string field, sdk::FieldValue value, std::string reason) {
    auto made = action(Kind::set_field, key, std::move(reason));
    made.field = std::move(field);
    made.value = std::move(value);
    return made;
}

sdk::LifecycleAction link_action(Kind kind, std::string_view key, std::string_view into, const std::string &relation,
                                 std::string reason) {
    auto made = action(kind, key, std::move(reason));
    made.into = std::string{into};
    made.relation = relation;
    return made;
}

std::string two_decimals(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

/// One scope's plan. Positions are indices into the group's members.
class ScopePlanner {
public:
    ScopePlanner(const sdk::MemoryBatch &memories, const ScopeGroup &group, const IsolationSettings &settings,
                 std::vector<sdk::LifecycleAction> &plan)
        : memories_(memories), group_(group), settings_(settings), plan_(plan), size_(group.members.size()),
          archived_(size_, false), absorbed_into_(size_, npos), in_cluster_(size_, false), protected_(size_, false) {
        for (std::size_t at = 0; at < size_; ++at) {
            protected_[at] = is_protected(memory(at), settings_) || memory(at).pinned();
            position_of_id_.emplace(std::string{memory(at).id()}, at);
        }
    }

    /// The seed stored an automatic session save of a session without a user message as expired.
    void archive_empty_session_saves() {
        for (std::size_t at = 0; at < size_; ++at) {
            if (!protected_[at] && is_empty_session_save(text_of(memory(at)))) {
                archived_[at] = true;
                plan_.push_back(action(Kind::archive, memory(at).key(),
                                       "an automatic session save without a user message"));
            }
        }
    }

    /// Links, consolidation and aging: everything that needs the similarities.
    void plan_connections(const SimilarityOf &similarity_of) {
        std::vector<std::size_t> alive;
        for (std::size_t at = 0; at < size_; ++at) {
            if (!archived_[at]) {
                alive.push_back(at);
            }
        }
        keep_newest(alive);
        std::vector<const starling_memory_view *> items;
        for (const std::size_t at : alive) {
            items.push_back(memories_.raw().items[group_.members[at]]);
        }
        const starling_memory_batch raw{sizeof(starling_memory_batch), memories_.raw().flags, memories_.now(),
                                        items.size(), items.data()};
        const auto values = similarity_of(sdk::MemoryBatch{raw});
        if (!values || values->size() != alive.size() * alive.size()) {
            return;
        }
        const SimilarityMatrix similarity{alive.size(), *values};
        consolidate_clusters(alive, similarity);
        age_isolated(alive);
        link_connected(alive, similarity);
        relink_to_survivors();
        record_entry_types();
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    [[nodiscard]] sdk::MemoryView memory(std::size_t at) const { return memories_[group_.members[at]]; }

    /// Only the newest `window.memories` of the scope take part, in their original order: older ones
    /// have been judged by every earlier run (a memory ages once 20 newer ones exist), and what
    /// survived is in a cluster, protected or reprieved; comparing every pair of a large store on
    /// every consolidation would cost minutes.
    void keep_newest(std::vector<std::size_t> &alive) const {
        if (alive.size() <= settings_.window_memories) {
            return;
        }
        std::vector<std::size_t> newest = alive;
        const auto cut = newest.begin() + static_cast<std::ptrdiff_t>(settings_.window_memories);
        std::nth_element(newest.begin(), cut, newest.end(), [&](std::size_t left, std::size_t right) {
            return std::pair{memory(right).created(), memory(left).key()} <
                   std::pair{memory(left).created(), memory(right).key()};
        });
        newest.erase(cut, newest.end());
        std::sort(newest.begin(), newest.end());
        alive = std::move(newest);
    }
    [[nodiscard]] bool gone(std::size_t at) const { return archived_[at] || absorbed_into_[at] != npos; }

    /// 0 for a decision, 1 for another protected memory (the user's thought), 2 for the rest.
    [[nodiscard]] int protection_rank(std::size_t at) const {
        if (!protected_[at]) {
            return 2;
        }
        const bool decision = memory(at).field("entry_type") == "decision" ||
                              classify_entry(text_of(memory(at))) == "decision";
        return decision ? 0 : 1;
    }

    /// Which member a cluster is consolidated into: one the user pinned, else a decision, else the
    /// user's thought (neither is merged away; the seed's consolidated entry inherited `decision` first),
    /// else one consolidated before (long-term), else the oldest.
    [[nodiscard]] std::size_t consolidation_target(const std::vector<std::size_t> &core) const {
        return *std::min_element(core.begin(), core.end(), [&](std::size_t left, std::size_t right) {
            const auto rank = [&](std::size_t at) {
                return std::tuple{!memory(at).pinned(), protection_rank(at), memory(at).tier() != "long",
                                  memory(at).created(), memory(at).key()};
            };
            return rank(left) < rank(right);
        });
    }

    void consolidate_clusters(const std::vector<std::size_t> &alive, const SimilarityMatrix &similarity) {
        for (const auto &component : components(similarity, settings_.cluster_threshold)) {
            if (component.size() < settings_.cluster_min_size) {
                continue;
            }
            for (const std::size_t position : component) {
                in_cluster_[alive[position]] = true;
            }
            const auto core_positions =
                coherent_core(component, similarity, settings_.cluster_threshold, settings_.cluster_min_size);
            if (core_positions.empty()) {
                continue;
            }
            std::vector<std::size_t> core;
            for (const std::size_t position : core_positions) {
                core.push_back(alive[position]);
            }
            const std::size_t target = consolidation_target(core);
            std::vector<std::size_t> absorbed;
            for (const std::size_t at : core) {
                if (at != target && !protected_[at]) {
                    absorbed.push_back(at);
                }
            }
            if (absorbed.empty()) {
                continue;
            }
            const std::string reason = "consolidated: a cluster of " + std::to_string(core.size()) +
                                       " memories at least " + two_decimals(settings_.cluster_threshold) +
                                       " similar to each other";
            std::string combined{text_of(memory(target))};
            for (const std::size_t at : absorbed) {
                absorbed_into_[at] = target;
                combined += '\n';
                combined += text_of(memory(at));
                plan_.push_back(link_action(Kind::merge, memory(at).key(), memory(target).key(), {}, reason));
            }
            consolidated_.insert(target);
            combined_text_[target] = std::move(combined);
            if (memory(target).tier() != "long") {
                plan_.push_back(action(Kind::promote, memory(target).key(), reason + ": proven knowledge"));
            }
            plan_.push_back(set_field(memory(target).key(), "consolidated", calendar_day(memories_.now()), reason));
            if (memory(target).field("reprieve_count")) {
                plan_.push_back(set_field(memory(target).key(), "reprieve_count", std::monostate{},
                                          "consolidated: connected, no longer on reprieve"));
                plan_.push_back(set_field(memory(target).key(), "last_reprieved", std::monostate{},
                                          "consolidated: connected, no longer on reprieve"));
            }
        }
    }

    /// How many memories of the scope are newer: the seed aged by insertion count alone.
    [[nodiscard]] std::size_t newer_than(std::size_t at) const {
        return static_cast<std::size_t>(std::count_if(group_.members.begin(), group_.members.end(), [&](std::size_t index) {
            return memories_[index].created() > memory(at).created();
        }));
    }

    void age_isolated(const std::vector<std::size_t> &alive) {
        const std::int64_t now = memories_.now();
        for (const std::size_t at : alive) {
            const auto current = memory(at);
            if (gone(at) || protected_[at] || in_cluster_[at] || consolidated_.contains(at) ||
                current.tier() == "long") {
                continue;
            }
            const std::size_t newer = newer_than(at);
            const std::int64_t age_days = day_of(now) - day_of(current.created());
            if (newer < settings_.age_newer_memories || age_days < settings_.age_min_days) {
                continue;
            }
            const int reprieves = reprieves_of(current);
            const auto last = current.field("last_reprieved");
            const auto last_day = last ? day_number(*last) : std::nullopt;
            if (reprieves > 0 && last_day && day_of(now) - *last_day < settings_.reprieve_interval_days) {
                continue; // one reprieve per interval, however often consolidation runs
            }
            const std::string isolated = "isolated (in no cluster of " + std::to_string(settings_.cluster_min_size) +
                                         ", " + std::to_string(newer) + " newer memories, " +
                                         std::to_string(age_days) + " days old)";
            if (reprieves >= settings_.max_reprieves) {
                archived_[at] = true;
                plan_.push_back(action(Kind::archive, current.key(),
                                       isolated + " after " + std::to_string(reprieves) + " reprieves"));
                continue;
            }
            const SubstanceVerdict verdict = judge_substance(text_of(current), settings_);
            if (!verdict.substantive) {
                archived_[at] = true;
                plan_.push_back(action(Kind::archive, current.key(),
                                       isolated + " and not substantive: " + verdict.describe(settings_)));
                continue;
            }
            const std::string reason = isolated + ", substantive (" + verdict.describe(settings_) + "): reprieve " +
                                       std::to_string(reprieves + 1) + " of " + std::to_string(settings_.max_reprieves);
            plan_.push_back(set_field(current.key(), "reprieve_count", std::to_string(reprieves + 1), reason));
            plan_.push_back(set_field(current.key(), "last_reprieved", calendar_day(now), reason));
        }
    }

    /// Whom a member stands for after this plan: itself, or the memory it is merged into.
    [[nodiscard]] std::size_t survivor(std::size_t at) const {
        return absorbed_into_[at] == npos ? at : absorbed_into_[at];
    }

    [[nodiscard]] bool links_to(std::size_t from, std::size_t to) const {
        const auto links = memory(from).links();
        return std::any_of(links.begin(), links.end(), [&](const sdk::MemoryView::Link &link) {
            return link.relation == settings_.link_relation && link.id == memory(to).id();
        });
    }

    void add_link(std::size_t from, std::size_t to, const std::string &reason) {
        if (from == to || memory(from).id().empty() || memory(to).id().empty() ||
            !planned_links_.insert({from, to}).second || links_to(from, to)) {
            return;
        }
        plan_.push_back(link_action(Kind::link, memory(from).key(), memory(to).key(), settings_.link_relation, reason));
    }

    void link_connected(const std::vector<std::size_t> &alive, const SimilarityMatrix &similarity) {
        for (std::size_t first = 0; first < alive.size(); ++first) {
            for (std::size_t second = first + 1; second < alive.size(); ++second) {
                const double value = similarity.at(first, second);
                if (value < settings_.link_threshold) {
                    continue;
                }
                const std::size_t left = survivor(alive[first]);
                const std::size_t right = survivor(alive[second]);
                if (left == right || archived_[left] || archived_[right]) {
                    continue;
                }
                const std::string reason = "similarity " + two_decimals(value) + " of at least " +
                                           two_decimals(settings_.link_threshold);
                add_link(left, right, reason);
                add_link(right, left, reason);
            }
        }
    }

    /// A link to a memory this plan archives would point at nothing: it goes, and one to a memory merged
    /// away points at the memory that now holds its text.
    void relink_to_survivors() {
        for (std::size_t at = 0; at < size_; ++at) {
            if (gone(at)) {
                continue;
            }
            for (const auto &link : memory(at).links()) {
                const auto target = position_of_id_.find(link.id);
                if (link.relation != settings_.link_relation || target == position_of_id_.end() ||
                    !gone(target->second)) {
                    continue;
                }
                const std::size_t other = target->second;
                plan_.push_back(link_action(Kind::unlink, memory(at).key(), memory(other).key(), link.relation,
                                            archived_[other] ? "the memory it linked to is archived"
                                                             : "the memory it linked to is merged into another"));
                if (!archived_[other]) {
                    add_link(at, survivor(other), "the memory it linked to is merged into this one");
                }
            }
        }
    }

    /// §5.2's type, written once as the seed wrote it at insertion; a consolidated memory takes the type
    /// of everything it now holds.
    void record_entry_types() {
        for (std::size_t at = 0; at < size_; ++at) {
            if (gone(at)) {
                continue;
            }
            const auto combined = combined_text_.find(at);
            const std::string type =
                classify_entry(combined == combined_text_.end() ? text_of(memory(at)) : combined->second);
            if (memory(at).field("entry_type") != type) {
                plan_.push_back(set_field(memory(at).key(), "entry_type", type, "the cognitive layer's entry type"));
            }
        }
    }

    const sdk::MemoryBatch &memories_;
    const ScopeGroup &group_;
    const IsolationSettings &settings_;
    std::vector<sdk::LifecycleAction> &plan_;
    std::size_t size_;
    std::vector<bool> archived_;
    std::vector<std::size_t> absorbed_into_;
    std::vector<bool> in_cluster_;
    std::vector<bool> protected_;
    std::set<std::size_t> consolidated_;
    std::map<std::size_t, std::string> combined_text_;
    std::map<std::string, std::size_t, std::less<>> position_of_id_;
    std::set<std::pair<std::size_t, std::size_t>> planned_links_;
};

} // namespace

std::vector<sdk::LifecycleAction> plan_isolation(const sdk::MemoryBatch &memories, const IsolationSettings &settings,
                                                 const SimilarityOf &similarity_of) {
    std::vector<sdk::LifecycleAction> plan;
    for (const ScopeGroup &group : scope_groups(memories)) {
        ScopePlanner planner{memories, group, settings, plan};
        planner.archive_empty_session_saves();
        planner.plan_connections(similarity_of);
    }
    return plan;
}

} // namespace starling::isolation
