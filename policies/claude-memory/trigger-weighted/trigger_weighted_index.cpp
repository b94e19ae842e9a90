// SPDX-License-Identifier: Apache-2.0
#include "trigger_weighted_index.hpp"

#include "prompt_keywords.hpp"

#include "cache-files/posting_table.hpp"
#include "cache-files/text_hash.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace starling::trigger_weighted {

namespace {

/// The index's layout version; a file of another one is rebuilt.
constexpr std::uint64_t format_fingerprint = 0x7472'6967'7774'0002; // "trigwt" 2: the shared posting tables

enum Section : std::size_t {
    records, strings, terms, postings, recent_list, fallback_list, ids, id_memories, links, section_count
};

enum RecordFlag : std::uint8_t { superseded_flag = 1, episodic_flag = 2 };

struct Record {
    std::int64_t created = 0;
    std::uint32_t key_at = 0;
    std::uint32_t id_at = 0;
    std::uint32_t links_first = 0;
    std::uint16_t key_size = 0;
    std::uint16_t id_size = 0;
    std::uint16_t link_count = 0;
    std::uint8_t salience = 0;
    std::uint8_t flags = 0;
    std::uint32_t reserved = 0;
};
static_assert(sizeof(Record) == 32);

struct Posting {
    std::uint32_t memory = 0;
    std::uint32_t tag_matches = 0;
    std::uint32_t trigger_matches = 0;
};
static_assert(sizeof(Posting) == 12);

struct Dated {
    std::int64_t created = 0;
    std::uint32_t memory = 0;
    std::uint32_t reserved = 0;
};
static_assert(sizeof(Dated) == 16);

struct Link {
    std::uint32_t relation_at = 0;
    std::uint32_t id_at = 0;
    std::uint16_t relation_size = 0;
    std::uint16_t id_size = 0;
};
static_assert(sizeof(Link) == 12);

constexpr cache_files::PostingSections term_sections{terms, strings, postings};
/// Each id with the memory (first in build order) that has it.
constexpr cache_files::PostingSections id_sections{ids, strings, id_memories};

using Place = cache_files::CollectionPosition;

struct PlaceHash {
    std::size_t operator()(const Place &place) const noexcept {
        return std::hash<std::uint64_t>{}((std::uint64_t{place.collection} << 32) | place.memory);
    }
};

/// A collection's file, with what ranking read of it.
struct OpenIndex {
    cache_files::SectionFile file;
    cache_files::PostingTable terms{term_sections};
    cache_files::PostingTable id_table{id_sections};

    std::string text(std::uint32_t at, std::uint32_t size) { return file.bytes(strings, at, size); }
    Record record(std::uint32_t memory) { return file.record<Record>(records, memory); }

    /// The memory (first in build order) whose id is `id`, if any.
    std::optional<std::uint32_t> find_id(std::string_view id) {
        const auto entry = id_table.find(file, id);
        if (!entry) {
            return std::nullopt;
        }
        const auto memories = id_table.postings<std::uint32_t>(file, *entry);
        return memories.empty() ? std::nullopt : std::optional{memories.front()};
    }

    /// The postings of the term whose text is `keyword`, if any memory holds it.
    std::vector<Posting> postings_of(std::string_view keyword) {
        const auto term = terms.find(file, keyword);
        return term ? terms.postings<Posting>(file, *term) : std::vector<Posting>{};
    }
};

} // namespace

TriggerWeightedIndexes::TriggerWeightedIndexes(std::filesystem::path directory, const ScoreSettings &settings,
                                               sdk::HostServices host)
    : settings_(&settings), files_(std::move(directory), format_fingerprint, section_count, host) {}

void TriggerWeightedIndexes::build(const sdk::Collection &collection, const sdk::MemoryBatch &memories) const {
    using cache_files::checked_size;
    cache_files::SectionFileWriter writer{section_count};
    // term text -> (memory -> tag and trigger matches), both ordered so that the file is too
    std::map<std::string, std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>>, std::less<>> term_postings;
    std::vector<Dated> episodic;
    std::map<std::string, std::vector<std::uint32_t>, std::less<>> first_of_id;
    std::uint32_t link_total = 0;
    const auto count = checked_size<std::uint32_t>(memories.size(), "a collection");
    for (std::uint32_t index = 0; index < count; ++index) {
        const auto memory = memories[index];
        const ScoredFields read = scored_fields(memory);
        Record record;
        record.created = memory.created();
        record.key_size = checked_size<std::uint16_t>(memory.key().size(), "a key");
        record.key_at = writer.append_text(strings, memory.key());
        record.id_size = checked_size<std::uint16_t>(memory.id().size(), "an id");
        record.id_at = writer.append_text(strings, memory.id());
        record.salience = static_cast<std::uint8_t>(read.salience);
        record.flags = static_cast<std::uint8_t>((read.superseded ? superseded_flag : 0) |
                                                 (read.episodic ? episodic_flag : 0));
        const auto memory_links = memory.links();
        record.links_first = link_total;
        record.link_count = checked_size<std::uint16_t>(memory_links.size(), "a list of links");
        for (const auto &link : memory_links) {
            Link stored;
            stored.relation_size = checked_size<std::uint16_t>(link.relation.size(), "a link relation");
            stored.relation_at = writer.append_text(strings, link.relation);
            stored.id_size = checked_size<std::uint16_t>(link.id.size(), "a linked id");
            stored.id_at = writer.append_text(strings, link.id);
            writer.append(links, stored);
            ++link_total;
        }
        writer.append(records, record);
        if (!memory.id().empty()) {
            if (auto &holders = first_of_id[std::string{memory.id()}]; holders.empty()) {
                holders.push_back(index);
            }
        }
        if (read.superseded) {
            continue;
        }
        for (const auto &tag : read.tags) {
            ++term_postings[tag][index].first;
        }
        for (const auto &trigger : read.triggers) {
            ++term_postings[trigger][index].second;
        }
        if (read.episodic) {
            episodic.push_back({record.created, index, 0});
        }
        if (read.fallback) {
            writer.append(fallback_list, index);
        }
    }

    cache_files::write_posting_table(writer, term_sections, term_postings, "a tag", [](const auto &holder) {
        return Posting{holder.first, holder.second.first, holder.second.second};
    });

    std::sort(episodic.begin(), episodic.end(), [](const Dated &left, const Dated &right) {
        return std::tie(right.created, left.memory) < std::tie(left.created, right.memory);
    });
    for (const auto &dated : episodic) {
        writer.append(recent_list, dated);
    }

    cache_files::write_posting_table(writer, id_sections, first_of_id, "an id",
                                     [](std::uint32_t memory) { return memory; });
    files_.write(collection, writer);
}

std::optional<std::vector<sdk::RankedMemory>>
TriggerWeightedIndexes::rank(std::string_view query, std::span<const sdk::Collection> collections, std::int64_t now,
                             std::size_t limit) {
    auto files = files_.open_all(collections);
    if (!files) {
        return std::nullopt;
    }
    std::vector<OpenIndex> indexes;
    indexes.reserve(files->size());
    for (auto &file : *files) {
        indexes.push_back({std::move(file)});
    }
    std::vector<sdk::RankedMemory> ranked;
    keys_.clear();
    if (limit == 0) {
        return ranked;
    }
    const ScoreSettings &settings = *settings_;
    try {
        const Keywords keywords = prompt_keywords(query);
        std::unordered_map<Place, double, PlaceHash> direct;
        for (std::uint32_t collection = 0; collection < indexes.size(); ++collection) {
            auto &index = indexes[collection];
            std::unordered_map<std::uint32_t, std::pair<std::size_t, std::size_t>> matched;
            for (const auto &keyword : keywords) {
                for (const auto &posting : index.postings_of(keyword)) {
                    auto &counts = matched[posting.memory];
                    counts.first += posting.tag_matches;
                    counts.second += posting.trigger_matches;
                }
            }
            for (const auto &[memory, counts] : matched) {
                const Record record = index.record(memory);
                const bool earns_recency = (record.flags & episodic_flag) != 0 && recent(record.created, now, settings);
                direct[{collection, memory}] = direct_score(counts.first, counts.second,
                                                            static_cast<Salience>(record.salience), earns_recency, settings);
            }
            // Newest first: the episodic memories still within the recency window are a prefix.
            const auto recent_count = index.file.count<Dated>(recent_list);
            for (std::uint64_t at = 0; at < recent_count; ++at) {
                const auto dated = index.file.record<Dated>(recent_list, at);
                if (!recent(dated.created, now, settings)) {
                    break;
                }
                if (!matched.contains(dated.memory)) {
                    const Record record = index.record(dated.memory);
                    direct[{collection, dated.memory}] =
                        direct_score(0, 0, static_cast<Salience>(record.salience), true, settings);
                }
            }
        }
        std::erase_if(direct, [](const auto &entry) { return !(entry.second > 0.0); });
        if (direct.empty() && settings.fallback_score > 0.0) {
            for (std::uint32_t collection = 0; collection < indexes.size(); ++collection) {
                auto &file = indexes[collection].file;
                for (const auto memory : file.records<std::uint32_t>(fallback_list, 0, file.count<std::uint32_t>(fallback_list))) {
                    direct[{collection, memory}] = settings.fallback_score;
                }
            }
        }

        auto scores = direct;
        if (!settings.expansion_relations.empty()) {
            for (const auto &[source, score] : direct) {
                const Record record = indexes[source.collection].record(source.memory);
                if (record.link_count == 0) {
                    continue;
                }
                auto &index = indexes[source.collection];
                for (const auto &link : index.file.records<Link>(links, record.links_first, record.link_count)) {
                    const auto relation = index.text(link.relation_at, link.relation_size);
                    if (std::find(settings.expansion_relations.begin(), settings.expansion_relations.end(), relation) ==
                        settings.expansion_relations.end()) {
                        continue;
                    }
                    const auto id = index.text(link.id_at, link.id_size);
                    for (std::uint32_t collection = 0; collection < indexes.size(); ++collection) {
                        const auto target = indexes[collection].find_id(id);
                        if (!target) {
                            continue;
                        }
                        if ((indexes[collection].record(*target).flags & superseded_flag) == 0) {
                            auto &target_score = scores[{collection, *target}];
                            target_score = std::max(target_score, expanded_score(score));
                        }
                        break;
                    }
                }
            }
        }

        std::vector<std::pair<Place, double>> order;
        std::copy_if(scores.begin(), scores.end(), std::back_inserter(order),
                     [](const auto &entry) { return entry.second > 0.0; });
        const auto better = [](const std::pair<Place, double> &left, const std::pair<Place, double> &right) {
            return left.second != right.second ? left.second > right.second : left.first < right.first;
        };
        const auto kept = std::min(limit, order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept), order.end(), better);
        order.resize(kept);
        for (const auto &[place, score] : order) {
            const Record record = indexes[place.collection].record(place.memory);
            keys_.push_back(indexes[place.collection].text(record.key_at, record.key_size));
        }
        for (std::size_t index = 0; index < order.size(); ++index) {
            ranked.push_back({keys_[index], order[index].second});
        }
    } catch (const cache_files::DamagedFile &failure) {
        files_.report_damage(failure);
        return std::nullopt;
    }
    return ranked;
}

} // namespace starling::trigger_weighted
