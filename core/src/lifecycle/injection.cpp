// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/injection.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/index/index_markdown.hpp>
#include <starling/core/lifecycle/prompt_kind.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/core/store/record/memory_links.hpp>
#include <starling/core/store/memory_view_batch.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/sdk/kit/prefault.hpp>

#include <algorithm>
#include <bit>
#include <array>
#include <cctype>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace starling::core {

namespace {

/// What estimate_tokens counts: ASCII bytes (four to a token) and other characters (one each).
struct TextCounts {
    std::size_t ascii = 0;
    std::size_t others = 0;

    [[nodiscard]] static TextCounts of(std::string_view text) noexcept {
        TextCounts counts;
        for (const char c : text) {
            const auto byte = static_cast<unsigned char>(c);
            if (byte < 0x80) {
                ++counts.ascii;
            } else if ((byte & 0xC0) != 0x80) {
                ++counts.others; // count each multi-byte character once, at its lead byte
            }
        }
        return counts;
    }
    [[nodiscard]] std::size_t tokens() const noexcept { return (ascii + 3) / 4 + others; }
    [[nodiscard]] TextCounts plus(const TextCounts &other) const noexcept {
        return {ascii + other.ascii, others + other.others};
    }
};

} // namespace

std::size_t estimate_tokens(std::string_view text) noexcept { return TextCounts::of(text).tokens(); }

namespace {

bool contains(const std::vector<std::string> &keys, std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/// Adds text if the whole of it fits the budget; injection never exceeds its budget, it drops.
/// Counts are kept as text is added, so each try costs the length of the addition, not of all so far.
class BudgetedText {
public:
    explicit BudgetedText(std::size_t budget) : budget_(budget) {}
    bool try_add(std::string_view text) {
        const TextCounts after = counts_.plus(TextCounts::of(text));
        if (after.tokens() > budget_) {
            return false;
        }
        text_ += text;
        counts_ = after;
        return true;
    }
    /// Whether `text` would fit, on top of what is there.
    [[nodiscard]] bool fits(std::string_view text) const noexcept {
        return counts_.plus(TextCounts::of(text)).tokens() <= budget_;
    }
    [[nodiscard]] const std::string &text() const noexcept { return text_; }

private:
    std::size_t budget_;
    std::string text_;
    TextCounts counts_;
};

/// The scope's INDEX.md as the store would write it now, one line per long-term memory, newest last
/// (keys sort by file name, which starts with the date). Built from the listing rather than read from
/// the file, which only consolidation rewrites: a memory made long-term since then belongs in it.
/// Keys looked up by the thousand: a store of 10,000 memories names a few hundred at session start.
using KeySet = std::unordered_set<std::string_view>;

/// The lines an index section may show — the newest `most` — and how many there are in all.
struct IndexLines {
    std::vector<std::string> newest; ///< oldest first
    std::size_t total = 0;
};

/// A memory superseded by a correction, or one shown already (`shown`), is left out. Only the lines
/// that may be shown are written: at 10,000 memories the index has thousands of entries.
IndexLines index_lines_of(const IndexedMemories &long_term, const KeySet &shown, std::size_t most) {
    std::vector<const IndexedMemory *> listed;
    listed.reserve(long_term.size());
    for (const IndexedMemory &memory : long_term) {
        if (!shown.contains(memory.key) && !is_superseded(memory)) {
            listed.push_back(&memory);
        }
    }
    IndexLines lines;
    lines.total = listed.size();
    const std::size_t first = listed.size() - std::min(most, listed.size());
    lines.newest.reserve(listed.size() - first);
    for (std::size_t index = first; index < listed.size(); ++index) {
        const IndexedMemory &memory = *listed[index];
        lines.newest.push_back(index_markdown_line(memory.summary, memory.key.substr(memory.key.rfind('/') + 1)));
    }
    return lines;
}

/// Appends an index section, newest entries first when not all fit, and says what was left out
/// rather than silently truncating (the complaint against agents' own memory files, cut off at a fixed size).
void add_index(BudgetedText &out, const std::string &title, const IndexLines &lines) {
    if (lines.newest.empty()) {
        return;
    }
    std::size_t shown = lines.newest.size();
    while (shown > 0) {
        std::string section = "## " + title + "\n";
        for (std::size_t index = lines.newest.size() - shown; index < lines.newest.size(); ++index) {
            section += lines.newest[index];
            section += '\n';
        }
        if (shown < lines.total) {
            section += "(" + std::to_string(lines.total - shown) + " older entries not shown; `starling list`)\n";
        }
        section += "\n";
        if (out.try_add(section)) {
            return;
        }
        shown /= 2;
    }
}

/// A memory's section up to its body: all of it that the index knows without reading the file.
std::string section_head(std::string_view key, std::string_view summary, std::string_view type) {
    std::string head = "### ";
    head += summary;
    head += "\n(";
    head += type;
    head += ", `";
    head += key;
    head += "`)\n";
    return head;
}

/// What changed since in a memory kept beside the memories that change it in part (its
/// amended_by links, `newer_ids`): a line for each that is still live, "Changed in part since
/// (`id`, newer): <what it says>", each after `indent`. A memory is never shown with an older value
/// alone, whether or not the one that changed it is relevant too. The newer ones are looked up by
/// id, which costs a pass over the index: only a memory with such a link pays it.
std::string amendment_lines(MemoryStore &store, const std::vector<std::string> &newer_ids, std::string_view indent) {
    std::string lines;
    for (const auto &id : newer_ids) {
        try {
            const Memory newer = store.read(store.find_memory(id));
            if (newer.superseded_by.empty()) {
                lines += indent;
                lines += "Changed in part since (`" + id + "`, newer): " + newer.summary + "\n";
            }
        } catch (const StoreError &) {
            // forgotten or archived since: what it changed is no longer said anywhere
        }
    }
    return lines;
}

std::string memory_section(MemoryStore &store, const std::string &key, const Memory &memory) {
    std::string section = section_head(key, memory.summary, memory.type);
    section += memory.body;
    if (!section.empty() && section.back() != '\n') {
        section += '\n';
    }
    return section + amendment_lines(store, linked_ids(memory, amended_by_link_relation), "") + "\n";
}

struct Candidate {
    std::size_t index;
    double score;
};

/// Calls `visit` with each word of `text`, lower-cased: runs of ASCII letters and digits, and of
/// other characters (a word of a language written without spaces stays one run). `word` holds the
/// word being read; a view of it is valid only during its call.
template <typename Visit> void visit_words(std::string_view text, std::string &word, Visit visit) {
    word.clear();
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) != 0 || byte >= 0x80) {
            word += static_cast<char>(std::tolower(byte));
        } else if (!word.empty()) {
            visit(std::string_view{word});
            word.clear();
        }
    }
    if (!word.empty()) {
        visit(std::string_view{word});
    }
}

/// Words too common to say why a memory was chosen.
bool is_common_word(std::string_view word) {
    static const std::unordered_set<std::string_view> common{
        "the", "and", "for", "with", "that", "this", "you", "are", "was", "were", "not", "but", "have", "has",
        "from", "what", "how", "why", "when", "which", "who", "can", "will", "would", "should", "could", "our",
        "your", "its", "all", "any", "use", "using", "into", "about", "there", "their", "then", "than", "also"};
    return common.contains(word);
}

/// The prompt's words that the memory's summary or body says too, in the prompt's order, each once:
/// what a receipt shows as the reason a memory was found. The memory's words are only compared
/// with the prompt's few: a memory can be long, and this runs for each injected memory before the
/// agent has its reply.
std::vector<std::string> shared_words(std::string_view prompt, const Memory &memory) {
    constexpr std::size_t most_shown = 8;
    std::vector<std::string> candidates;
    std::string word;
    visit_words(prompt, word, [&](std::string_view candidate) {
        if (candidate.size() >= 3 && !is_common_word(candidate) &&
            std::find(candidates.begin(), candidates.end(), candidate) == candidates.end()) {
            candidates.emplace_back(candidate);
        }
    });
    std::vector<bool> said(candidates.size(), false);
    std::size_t unsaid = candidates.size();
    for (const std::string_view text : {std::string_view{memory.summary}, std::string_view{memory.body}}) {
        visit_words(text, word, [&](std::string_view memory_word) {
            if (unsaid == 0 || memory_word.size() < 3) {
                return;
            }
            for (std::size_t candidate = 0; candidate < candidates.size(); ++candidate) {
                if (!said[candidate] && candidates[candidate] == memory_word) {
                    said[candidate] = true;
                    --unsaid;
                }
            }
        });
    }
    std::vector<std::string> shared;
    for (std::size_t candidate = 0; candidate < candidates.size() && shared.size() < most_shown; ++candidate) {
        if (said[candidate]) {
            shared.push_back(std::move(candidates[candidate]));
        }
    }
    return shared;
}

std::string score_text(double score) {
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", score);
    return text;
}

/// Why a memory was found relevant to `query`: its score, and the words they share.
std::string relevance_reason(std::string_view query, const Memory &memory, double score, std::string_view against) {
    std::string reason = "relevant to the " + std::string{against} + " (score " + score_text(score) + ")";
    const auto shared = shared_words(query, memory);
    if (shared.empty()) {
        return reason + "; no word in common: related words (the relevance policy's lexicon or synonyms)";
    }
    reason += "; matched:";
    for (const auto &word : shared) {
        reason += " " + word;
    }
    return reason;
}

/// Adds memories, in the order offered, while they fit and fewer than `max_memories` are in, under
/// a heading that is written with the first of them.
class MemorySections {
public:
    /// `query` is what the memories were found relevant to, and `against` names it in their reasons
    /// ("prompt", "project").
    MemorySections(BudgetedText &out, Injection &injection, MemoryStore &store, std::size_t max_memories,
                   std::string heading, std::string_view query, std::string_view against)
        : out_(&out), injection_(&injection), store_(&store), max_memories_(max_memories),
          heading_(std::move(heading)), query_(query), against_(against) {}

    [[nodiscard]] bool full() const noexcept { return injection_->memories.size() >= max_memories_; }

    /// Offers one memory; `indexed`, when known, lets a memory that cannot fit be skipped without
    /// reading its file (once the budget is nearly spent, most cannot fit even without their body).
    void offer(std::string_view key, double score, const IndexedMemory *indexed) {
        if (full()) {
            return;
        }
        if (indexed != nullptr && !out_->fits(section_head(indexed->key, indexed->summary, indexed->type))) {
            left_out(key, score);
            return;
        }
        std::optional<Memory> memory;
        try {
            memory = store_->read(key);
        } catch (const StoreError &) {
            return; // deleted or broken by hand since the index last saw it: the others still go in
        }
        if (!memory->superseded_by.empty()) {
            return; // a correction or a newer statement replaced it
        }
        const std::string owned_key{key};
        const auto section = memory_section(*store_, owned_key, *memory);
        const std::string text = heading_added_ ? section : heading_ + section;
        if (out_->try_add(text)) {
            heading_added_ = true;
            injection_->memories.push_back({owned_key, score, estimate_tokens(section),
                                            relevance_reason(query_, *memory, score, against_)});
        } else {
            left_out(key, score);
        }
    }

private:
    void left_out(std::string_view key, double score) {
        injection_->left_out.push_back({std::string{key}, score, 0, "relevant, but its text did not fit the budget"});
    }

    BudgetedText *out_;
    Injection *injection_;
    MemoryStore *store_;
    std::size_t max_memories_;
    std::string heading_;
    std::string_view query_;
    std::string_view against_;
    bool heading_added_ = false;
};

/// Offers memories in candidate order until `sections` is full.
void add_memories(MemorySections &sections, const MemoryViewBatch &memories, const std::vector<Candidate> &candidates) {
    for (const auto &candidate : candidates) {
        if (sections.full()) {
            break;
        }
        const IndexedMemory &indexed = memories.memory(candidate.index);
        sections.offer(indexed.key, candidate.score, &indexed);
    }
}

/// The finished text, without the blank lines that separate sections, and what it costs.
void set_context(Injection &injection, const BudgetedText &out) {
    injection.context = out.text();
    while (!injection.context.empty() && injection.context.back() == '\n') {
        injection.context.pop_back();
    }
    injection.tokens = estimate_tokens(injection.context);
}

IndexedMemories memories_of(MemoryStore &store, const Scope &scope, std::optional<Tier> tier) {
    ListFilter filter;
    filter.scope = scope;
    filter.tier = tier;
    return store.list_indexed(filter);
}

/// Every memory of `scopes`, both tiers, in scope order. The first listing is sized for the whole
/// index, so the next ones are appended without growing it.
IndexedMemories memories_of(MemoryStore &store, const std::vector<Scope> &scopes) {
    IndexedMemories listing = memories_of(store, scopes.front(), std::nullopt);
    for (auto scope = std::next(scopes.begin()); scope != scopes.end(); ++scope) {
        listing.append(memories_of(store, *scope, std::nullopt));
    }
    return listing;
}

} // namespace

namespace {

/// The types of memory a user states deliberately and means for every session: who they are and
/// how they want to work (user, feedback), the project's constraints (project) and where its
/// systems live (reference). Ordered as session start shows them: how to work first.
constexpr std::array<std::string_view, 4> standing_types = {"feedback", "user", "project", "reference"};

std::size_t standing_type_rank(std::string_view type) noexcept {
    return static_cast<std::size_t>(std::find(standing_types.begin(), standing_types.end(), type) -
                                    standing_types.begin());
}

/// What ends a standing memory's list item: its type and id.
std::string standing_entry_tail(const IndexedMemory &indexed) {
    return " (" + std::string{indexed.type} + ", `" + std::string{indexed.id} + "`)\n";
}

/// What changed since in a standing memory, as lines under its list item (amendment_lines).
std::string standing_amendments(MemoryStore &store, const IndexedMemory &indexed) {
    return amendment_lines(store, linked_ids(indexed.fields, amended_by_link_relation), "  ");
}

/// One standing memory as a list item: its summary, the body when it says more, and where to find
/// it. A body of several lines keeps them, indented under the item.
std::string standing_entry(const IndexedMemory &indexed, const Memory &memory) {
    std::string_view body = memory.body;
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r' || body.back() == ' ')) {
        body.remove_suffix(1);
    }
    std::string entry = "- ";
    if (body.empty()) {
        entry += memory.summary;
    } else if (body.find('\n') == std::string_view::npos) {
        // One line: the text as the user said it; the summary is at most that line, cleaned up.
        entry += body;
    } else {
        // `remember` keeps the whole text as the body and its first line as the summary.
        if (body.starts_with(memory.summary) && body.size() > memory.summary.size() &&
            body[memory.summary.size()] == '\n') {
            body.remove_prefix(memory.summary.size() + 1);
        }
        entry += memory.summary;
        entry += ":";
        for (std::size_t line_start = 0; line_start <= body.size();) {
            const auto line_end = std::min(body.find('\n', line_start), body.size());
            entry += line_start == 0 ? " " : "\n  ";
            entry += body.substr(line_start, line_end - line_start);
            line_start = line_end + 1;
        }
    }
    return entry + standing_entry_tail(indexed);
}

/// Why a memory is shown at every session start, for a receipt.
std::string standing_reason(const IndexedMemory &indexed) {
    return indexed.pinned ? std::string{"standing memory: pinned"}
                          : "standing memory: of type " + std::string{indexed.type};
}

/// A standing memory whose body says nothing beyond its summary (the index's body excerpt is
/// empty): its entry, without reading its file.
std::string standing_summary_entry(const IndexedMemory &indexed) {
    return "- " + std::string{indexed.summary} + standing_entry_tail(indexed);
}

/// The standing memories of the user and the project, most useful first: pinned before unpinned,
/// then by type (standing_types), then the project's before the user's, then the most used, then
/// the newest (a newer statement of a preference is the likelier one to hold). Only the first
/// `most` are put in order — session start names a few hundred at most, of up to thousands — the
/// rest follow in no order, to be counted.
std::vector<const IndexedMemory *> standing_memories(const IndexedMemories &listing, std::size_t most) {
    struct Ranked {
        // Smaller first: each field is negated where more is better.
        std::tuple<bool, std::size_t, bool, std::int64_t, std::int64_t> order;
        const IndexedMemory *memory;
    };
    std::vector<Ranked> ranked;
    ranked.reserve(listing.size());
    sdk::kit::prefault_for_writing(ranked.data(), ranked.capacity() * sizeof(Ranked));
    for (const IndexedMemory &memory : listing) {
        const auto rank = standing_type_rank(memory.type);
        if ((memory.pinned || rank < standing_types.size()) && !is_superseded(memory)) {
            ranked.push_back({{!memory.pinned, rank, memory.scope_kind != ScopeKind::project,
                               -static_cast<std::int64_t>(memory.access_count), -memory.created.time_since_epoch().count()},
                              &memory});
        }
    }
    const auto before = [](const Ranked &a, const Ranked &b) {
        return a.order != b.order ? a.order < b.order : a.memory->key < b.memory->key;
    };
    const auto sorted_end = ranked.begin() + static_cast<std::ptrdiff_t>(std::min(most, ranked.size()));
    std::nth_element(ranked.begin(), sorted_end, ranked.end(), before);
    std::sort(ranked.begin(), sorted_end, before);
    std::vector<const IndexedMemory *> standing;
    standing.reserve(ranked.size());
    for (const Ranked &entry : ranked) {
        standing.push_back(entry.memory);
    }
    return standing;
}

/// The share of the budget standing memories may fill in full when not all of them fit: the rest
/// is left for a line each of those that did not, so that every one is at least named.
constexpr double full_share_when_crowded = 0.7;

/// Adds the standing memories in full while they fit, then a line each for the rest while those
/// fit, and says how many are left beyond that. Returns the keys of every memory it named.
std::vector<std::string> add_standing(BudgetedText &out, Injection &injection, MemoryStore &store,
                                      const IndexedMemories &listing, const std::vector<std::string> &already_injected,
                                      std::size_t budget, std::size_t index_lines) {
    std::vector<const IndexedMemory *> entries;
    // Every line costs at least four tokens: no more can be named than the budget holds lines.
    for (const IndexedMemory *indexed : standing_memories(listing, budget / 4 + 1)) {
        if (!contains(already_injected, indexed->key)) {
            entries.push_back(indexed);
        }
    }
    // Whether all fit is judged from the index (summary and body excerpt), so that when they do
    // not, only the files of those shown in full are read: at 10,000 memories each read is
    // a file opened and parsed in a hook the agent waits on.
    const std::string heading = "## Starling memory: what you asked to keep\n";
    std::size_t estimated = estimate_tokens(heading);
    bool all_fit = true;
    for (const IndexedMemory *indexed : entries) {
        estimated += estimate_tokens(indexed->summary) + estimate_tokens(indexed->body_excerpt) +
                     estimate_tokens(indexed->type) + 4;
        if (estimated > budget) {
            all_fit = false;
            break;
        }
    }
    const auto crowded_budget = static_cast<std::size_t>(static_cast<double>(budget) * full_share_when_crowded);
    BudgetedText full{all_fit ? budget : crowded_budget};
    std::vector<std::pair<const IndexedMemory *, std::string>> shown; // in full, with their text
    std::vector<const IndexedMemory *> not_shown;
    bool full_closed = false;
    const auto add_in_full = [&](const IndexedMemory *indexed, const std::string &text) {
        if (!full.try_add(shown.empty() ? heading + text : text)) {
            return false;
        }
        shown.emplace_back(indexed, text);
        return true;
    };
    for (std::size_t index = 0; index < entries.size(); ++index) {
        const IndexedMemory *indexed = entries[index];
        if (!full_closed) {
            std::string text;
            try {
                text = indexed->body_excerpt.empty() ? standing_summary_entry(*indexed)
                                                     : standing_entry(*indexed, store.read(indexed->key));
                text += standing_amendments(store, *indexed);
            } catch (const StoreError &) {
                continue; // deleted or broken by hand since the index last saw it: the others still go in
            }
            if (add_in_full(indexed, text)) {
                continue;
            }
            if (all_fit) {
                // The index's excerpts said all would fit and the bodies did not: the crowded share
                // again, from what is shown so far, so that the rest still get their line.
                all_fit = false;
                auto so_far = std::move(shown);
                shown.clear();
                full = BudgetedText{crowded_budget};
                for (auto &[memory, shown_text] : so_far) {
                    if (full_closed || !add_in_full(memory, shown_text)) {
                        full_closed = true;
                        not_shown.push_back(memory);
                    }
                }
            }
            full_closed = true;
        }
        not_shown.push_back(indexed);
    }
    std::vector<std::string> named;
    for (const auto &[indexed, text] : shown) {
        injection.memories.push_back(
            {std::string{indexed->key}, 1.0, estimate_tokens(text), standing_reason(*indexed)});
        named.emplace_back(indexed->key);
    }
    const bool heading_added = !shown.empty();
    out.try_add(full.text());
    if (not_shown.empty()) {
        if (heading_added) {
            out.try_add("\n");
        }
        return named;
    }
    // The rest as an index, one line each, most useful first: what the agent can ask for by id.
    std::string section = heading_added ? "\n" : "";
    section += "## Starling memory: more you asked to keep (one line each; `starling show ID` for the rest)\n";
    std::size_t listed = 0;
    for (const IndexedMemory *indexed : not_shown) {
        std::string line = "- ";
        line += indexed->summary;
        line += " (`";
        line += indexed->id;
        line += "`)\n";
        line += standing_amendments(store, *indexed);
        // Room is kept for the closing line that counts what is left out.
        if (listed == index_lines || !out.fits(section + line + "(9999 more: `starling list`)\n\n")) {
            break;
        }
        section += line;
        named.emplace_back(indexed->key);
        injection.listed.emplace_back(indexed->key);
        ++listed;
    }
    if (listed < not_shown.size()) {
        section += "(" + std::to_string(not_shown.size() - listed) + " more: `starling list`)\n";
        // The first few by name, the rest counted: each one named is a line of the session's receipt.
        constexpr std::size_t named_left_out = 20;
        for (auto left = not_shown.begin() + static_cast<std::ptrdiff_t>(listed); left != not_shown.end(); ++left) {
            if (injection.left_out.size() == named_left_out) {
                injection.more_left_out = static_cast<std::size_t>(not_shown.end() - left);
                break;
            }
            injection.left_out.push_back({std::string{(*left)->key}, 1.0, 0,
                                          standing_reason(**left) + ": not even its line fit the budget"});
        }
    }
    out.try_add(section + "\n");
    return named;
}

/// One of the scorer's rankings: RelevanceScorer::rank or RelevanceScorer::rank_first_pass.
using RankingPass = std::optional<std::vector<RankedKey>> (RelevanceScorer::*)(
    std::string_view, std::span<const MemoryCollection>, std::chrono::sys_seconds, std::size_t) const;

/// A ranking from the relevance policy's indexes, and the collections it was asked for.
struct IndexRanking {
    std::vector<MemoryCollection> collections;
    std::vector<RankedKey> ranked;
    bool earlier = false; ///< some collection ranked at the earlier version with the same texts
};

/// The `limit` best of `query` over the collections of `scopes`, from their indexes at the store's
/// version; while those are still being built, each collection's at that version or at the earlier
/// one with the same texts (MemoryStore::earlier_version_with_same_texts; they are built one after
/// the other), fewest at the earlier one first. Nothing when no index answers.
std::optional<IndexRanking> rank_from_indexes(MemoryStore &store, const RelevanceScorer &scorer,
                                              std::string_view query, const std::vector<Scope> &scopes,
                                              std::size_t limit, RankingPass pass = &RelevanceScorer::rank) {
    const auto current = store.index_version();
    if (!current) {
        return std::nullopt;
    }
    const auto rank_at = [&](const std::string *earlier, unsigned earlier_scopes) -> std::optional<IndexRanking> {
        IndexRanking ranking;
        for (std::size_t at = 0; at < scopes.size(); ++at) {
            const bool at_earlier = ((earlier_scopes >> at) & 1U) != 0;
            ranking.collections.push_back({collection_id(scopes[at]), at_earlier ? *earlier : *current});
        }
        auto ranked = (scorer.*pass)(query, ranking.collections, store.clock().now(), limit);
        if (!ranked) {
            return std::nullopt;
        }
        ranking.ranked = std::move(*ranked);
        ranking.earlier = earlier_scopes != 0;
        return ranking;
    };
    if (auto ranking = rank_at(nullptr, 0)) {
        return ranking;
    }
    const auto earlier = store.earlier_version_with_same_texts(*current);
    if (!earlier) {
        return std::nullopt;
    }
    const unsigned all = (1U << scopes.size()) - 1U;
    for (int count = 1; count <= static_cast<int>(scopes.size()); ++count) {
        for (unsigned earlier_scopes = 1; earlier_scopes <= all; ++earlier_scopes) {
            if (std::popcount(earlier_scopes) != count) {
                continue;
            }
            if (auto ranking = rank_at(&*earlier, earlier_scopes)) {
                return ranking;
            }
        }
    }
    return std::nullopt;
}

/// Ranks `query` again over the collections `ranking` was answered from, `limit` deep and in the
/// full pass: false, leaving `ranking` as it was, when an index stopped answering meanwhile.
bool rank_again(MemoryStore &store, const RelevanceScorer &scorer, std::string_view query, IndexRanking &ranking,
                std::size_t limit) {
    auto ranked = scorer.rank(query, ranking.collections, store.clock().now(), limit);
    if (!ranked) {
        return false;
    }
    ranking.ranked = std::move(*ranked);
    return true;
}

/// The relevance to `query` of each of the project's long-term `memories`, from the relevance
/// policy's index of the project: at 10,000 memories, scoring the batch would tokenise every one
/// of them in a hook the agent waits on. Ranks until at least `wanted` of them score above 0 or the
/// ranking ends; the others count as unrelated (0). Nothing when the index cannot answer, at the
/// store's version nor at an earlier one with the same texts.
std::optional<std::vector<double>> ranked_project_relevance(MemoryStore &store, const RelevanceScorer &scorer,
                                                            const std::string &project_id, std::string_view query,
                                                            const MemoryViewBatch &memories, std::size_t wanted) {
    if (!scorer.keeps_index()) {
        return std::nullopt;
    }
    std::unordered_map<std::string_view, std::size_t> position;
    position.reserve(memories.size());
    for (std::size_t index = 0; index < memories.size(); ++index) {
        position.emplace(memories.memory(index).key, index);
    }
    constexpr std::size_t spare = 8;
    std::size_t limit = wanted + spare;
    auto ranking = rank_from_indexes(store, scorer, query, {Scope::project(project_id)}, limit);
    if (!ranking) {
        return std::nullopt;
    }
    while (true) {
        std::vector<double> relevance(memories.size(), 0.0);
        std::size_t related = 0;
        for (const RankedKey &memory : ranking->ranked) {
            if (const auto found = position.find(memory.key); found != position.end() && memory.score > 0.0) {
                relevance[found->second] = memory.score;
                ++related;
            }
        }
        if (related >= wanted || ranking->ranked.size() < limit) {
            return relevance;
        }
        limit *= 4;
        if (!rank_again(store, scorer, query, *ranking, limit)) {
            return std::nullopt;
        }
    }
}

} // namespace

Injection session_start_injection(MemoryStore &store, const RelevanceScorer *scorer, const std::string &project_id,
                                  std::string_view project_query, const std::vector<std::string> &already_injected,
                                  const InjectionSettings &settings) {
    Injection injection;
    BudgetedText out{settings.budget_tokens};
    std::vector<std::string> shown;
    if (settings.standing_memories) {
        const IndexedMemories listing = memories_of(store, prompt_scopes(project_id));
        shown = add_standing(out, injection, store, listing, already_injected, settings.budget_tokens,
                             settings.index_lines);
    }
    const KeySet shown_keys{shown.begin(), shown.end()};
    const auto user_long_term = memories_of(store, Scope::user(), Tier::long_term);
    add_index(out, "Starling memory: about you (user)",
              index_lines_of(user_long_term, shown_keys, settings.index_lines));
    if (!project_id.empty()) {
        const auto scope = Scope::project(project_id);
        auto long_term = memories_of(store, scope, Tier::long_term);
        add_index(out, "Starling memory: this project (" + project_id + ")",
                  index_lines_of(long_term, shown_keys, settings.index_lines));
        const MemoryViewBatch memories{std::move(long_term), store.clock().now()};
        std::vector<double> relevance(memories.size(), 0.0);
        if (scorer != nullptr && memories.size() > 0) {
            const std::size_t excluded = shown_keys.size() + already_injected.size();
            auto ranked = ranked_project_relevance(store, *scorer, project_id, project_query, memories,
                                                   settings.max_memories + excluded);
            relevance = ranked ? std::move(*ranked) : scorer->score(project_query, memories.batch());
        }
        std::vector<Candidate> candidates;
        for (std::size_t index = 0; index < memories.size(); ++index) {
            const IndexedMemory &memory = memories.memory(index);
            if (!contains(already_injected, memory.key) && !shown_keys.contains(memory.key) && !is_superseded(memory)) {
                candidates.push_back({index, relevance[index]});
            }
        }
        // Relevance first; among equals, what has been used most and most recently.
        std::stable_sort(candidates.begin(), candidates.end(), [&](const Candidate &a, const Candidate &b) {
            const auto &left = memories.memory(a.index);
            const auto &right = memories.memory(b.index);
            if (a.score != b.score) {
                return a.score > b.score;
            }
            if (left.access_count != right.access_count) {
                return left.access_count > right.access_count;
            }
            return left.last_accessed > right.last_accessed;
        });
        MemorySections sections{out,
                                injection,
                                store,
                                settings.max_memories,
                                "## Starling memory: details for this project\n",
                                project_query,
                                "project"};
        add_memories(sections, memories, candidates);
    }
    set_context(injection, out);
    return injection;
}

namespace {

constexpr std::string_view prompt_heading = "## Starling memory: relevant to this prompt\n";

/// What a general question gets when `best`, its best memory in the relevance policy's first pass,
/// does not clear `question_relevance`: nothing, and why. Nothing to say when it does. The first
/// pass, because feedback drawn from a lone faint match lends that very memory its own words and
/// lifts it as if it answered the question.
std::optional<Injection> held_question(const std::optional<RankedKey> &best, double question_relevance) {
    if (best && best->score >= question_relevance) {
        return std::nullopt;
    }
    Injection held;
    held.held_as_question = true;
    held.threshold = question_relevance;
    if (best) {
        held.best_below_threshold = InjectedMemory{best->key, best->score, 0};
    }
    return held;
}

/// The first of `ranked`, if any.
std::optional<RankedKey> best_ranked(const std::vector<RankedKey> &ranked) {
    return ranked.empty() ? std::nullopt : std::optional<RankedKey>{ranked.front()};
}

/// The best of `scores` over `memories`, the first of equals as the index ranks them; nothing when
/// none scores above 0.
std::optional<RankedKey> best_scored(const MemoryViewBatch &memories, const std::vector<double> &scores) {
    const auto best_at = std::max_element(scores.begin(), scores.end());
    if (best_at == scores.end() || !(*best_at > 0.0)) {
        return std::nullopt;
    }
    return RankedKey{std::string{memories.memory(static_cast<std::size_t>(best_at - scores.begin())).key}, *best_at};
}

/// The prompt's injection from the relevance policy's indexes, or nothing when an index is neither
/// of the store's current version nor of an earlier one with the same texts. Ranks as many
/// memories as could be needed — the most that fit, plus those already given in this session, plus
/// a few that may not fit — and more only when the ranking ran out before the injection was full.
/// A general question (`question`) is first ranked in the first pass, for its best memory only.
std::optional<Injection> ranked_prompt_injection(MemoryStore &store, const RelevanceScorer &scorer,
                                                 std::string_view prompt, const std::string &project_id,
                                                 const std::vector<std::string> &already_injected,
                                                 const InjectionSettings &settings, bool question) {
    constexpr std::size_t spare = 8;
    std::size_t limit = settings.max_memories + already_injected.size() + spare;
    std::optional<IndexRanking> ranking;
    if (question) {
        ranking = rank_from_indexes(store, scorer, prompt, prompt_scopes(project_id), 1,
                                    &RelevanceScorer::rank_first_pass);
        if (!ranking) {
            return std::nullopt;
        }
        if (auto held = held_question(best_ranked(ranking->ranked), settings.question_relevance)) {
            held->index_stale = ranking->earlier;
            return held;
        }
        // The indexes that answered the first pass answer the full one.
        if (!rank_again(store, scorer, prompt, *ranking, limit)) {
            return std::nullopt;
        }
    } else {
        ranking = rank_from_indexes(store, scorer, prompt, prompt_scopes(project_id), limit);
        if (!ranking) {
            return std::nullopt;
        }
    }
    Injection injection;
    BudgetedText out{settings.budget_tokens};
    MemorySections sections{out, injection, store, settings.max_memories, std::string{prompt_heading},
                            prompt, "prompt"};
    // An index of the same texts with older use counts answers while the current one is still to
    // be built, which the hook does after its reply.
    injection.index_stale = ranking->earlier;
    const std::vector<RankedKey> &ranked = ranking->ranked; // replaced as the ranking goes deeper
    std::size_t offered = 0;
    while (true) {
        if (ranked.empty() || ranked[0].score < settings.min_relevance) {
            if (!ranked.empty() && ranked[0].score > 0.0) {
                injection.best_below_threshold = InjectedMemory{ranked[0].key, ranked[0].score, 0};
            }
            break; // the prompt is about nothing the store knows
        }
        const double least = least_prompt_relevance(ranked[0].score, settings);
        bool below_minimum = false;
        for (; offered < ranked.size() && !sections.full(); ++offered) {
            const RankedKey &memory = ranked[offered];
            if (memory.score < least) {
                below_minimum = true; // best first: every later one is lower still
                break;
            }
            if (!contains(already_injected, memory.key)) {
                sections.offer(memory.key, memory.score, nullptr);
            }
        }
        if (below_minimum || sections.full() || ranked.size() < limit) {
            break;
        }
        limit *= 4;
        if (!rank_again(store, scorer, prompt, *ranking, limit)) {
            return std::nullopt;
        }
    }
    set_context(injection, out);
    return injection;
}

} // namespace

double least_prompt_relevance(double best, const InjectionSettings &settings) noexcept {
    // A best memory that clears the threshold says the prompt is about something the store knows;
    // memories scoring close to it are then likely about it too, though alone they would not clear it.
    return std::min(settings.min_relevance, settings.relative_relevance * best);
}

namespace {

/// The prompt's injection scored from a listing of its scopes, as the indexes would rank it from the
/// same texts: both passes of a general question (`question`) from one listing.
Injection scored_prompt_injection(MemoryStore &store, const RelevanceScorer &scorer, std::string_view prompt,
                                  const std::string &project_id, const std::vector<std::string> &already_injected,
                                  const InjectionSettings &settings, bool question) {
    IndexedMemories listing = memories_of(store, prompt_scopes(project_id));
    if (listing.empty()) {
        return question ? std::move(*held_question(std::nullopt, settings.question_relevance)) : Injection{};
    }
    const auto memories = MemoryViewBatch::with_body_excerpts(std::move(listing), store.clock().now());
    if (question) {
        if (auto held = held_question(best_scored(memories, scorer.score_first_pass(prompt, memories.batch())),
                                      settings.question_relevance)) {
            return std::move(*held);
        }
    }
    const auto scores = scorer.score(prompt, memories.batch());
    const auto best = best_scored(memories, scores);
    Injection injection;
    std::vector<Candidate> candidates;
    if (best && best->score < settings.min_relevance) {
        injection.best_below_threshold = InjectedMemory{best->key, best->score, 0};
    }
    if (best && best->score >= settings.min_relevance) {
        const double least = least_prompt_relevance(best->score, settings);
        for (std::size_t index = 0; index < memories.size(); ++index) {
            if (scores[index] >= least && scores[index] > 0.0 &&
                !contains(already_injected, memories.memory(index).key) && !is_superseded(memories.memory(index))) {
                candidates.push_back({index, scores[index]});
            }
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
    BudgetedText out{settings.budget_tokens};
    MemorySections sections{out, injection, store, settings.max_memories, std::string{prompt_heading},
                            prompt, "prompt"};
    add_memories(sections, memories, candidates);
    set_context(injection, out);
    return injection;
}

} // namespace

Injection prompt_injection(MemoryStore &store, const RelevanceScorer &scorer, std::string_view prompt,
                           const std::string &project_id, const std::vector<std::string> &already_injected,
                           const InjectionSettings &settings) {
    // A configuration that injects nothing per prompt (collie's profile) pays for no ranking.
    if (settings.max_memories == 0 || settings.budget_tokens == 0) {
        return Injection{};
    }
    const bool question = settings.question_relevance > 0.0 && is_general_question(prompt);
    std::optional<Injection> injection;
    if (scorer.keeps_index()) {
        injection = ranked_prompt_injection(store, scorer, prompt, project_id, already_injected, settings, question);
    }
    if (!injection) {
        injection = scored_prompt_injection(store, scorer, prompt, project_id, already_injected, settings, question);
        injection->index_stale = scorer.keeps_index();
    }
    if (!injection->held_as_question) {
        injection->threshold = settings.min_relevance;
    }
    return std::move(*injection);
}

} // namespace starling::core
