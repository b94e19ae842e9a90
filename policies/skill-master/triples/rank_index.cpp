// SPDX-License-Identifier: Apache-2.0
#include "rank_index.hpp"

#include "rule_ranking.hpp"

#include "cache-files/posting_table.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace starling::policies::triples {

namespace {

/// The index's layout version; a file of another one is rebuilt.
constexpr std::uint64_t format_fingerprint = 0x7472'6970'6c65'0002; // "triple" 2: the shared posting table

enum Section : std::size_t { records, strings, tags, tag_postings, order, superseded, section_count };

struct Record {
    std::int64_t last_stated = 0;
    std::uint32_t key_at = 0;
    std::uint32_t id_at = 0;
    std::uint16_t key_size = 0;
    std::uint16_t id_size = 0;
    std::uint16_t strength = 0;
    std::uint8_t kind_rank = 0;
    std::uint8_t lost = 0;
};
static_assert(sizeof(Record) == 24);

/// A superseded id, in the strings section.
struct Text {
    std::uint32_t at = 0;
    std::uint32_t size = 0;
};
static_assert(sizeof(Text) == 8);

constexpr cache_files::PostingSections tag_sections{tags, strings, tag_postings};

using Place = cache_files::CollectionPosition;

struct Scored {
    Place place;
    double score = 0.0;
    Record record;
};

bool better(const Scored &left, const Scored &right) noexcept {
    return left.score != right.score ? left.score > right.score : left.place < right.place;
}

} // namespace

RankIndexes::RankIndexes(std::filesystem::path directory, sdk::HostServices host)
    : files_(std::move(directory), format_fingerprint, section_count, host) {}

void RankIndexes::build(const sdk::Collection &collection, const sdk::MemoryBatch &memories) const {
    using cache_files::checked_size;
    cache_files::SectionFileWriter writer{section_count};
    const auto standing = batch_standing(memories);
    const auto count = checked_size<std::uint32_t>(memories.size(), "a collection");
    std::map<std::string, std::set<std::uint32_t>, std::less<>> holders_of_tag;
    std::vector<std::uint32_t> standing_order;
    std::vector<Record> kept_records;
    for (std::uint32_t index = 0; index < count; ++index) {
        const auto memory = memories[index];
        Record record;
        record.last_stated = memory.last_accessed();
        record.key_size = checked_size<std::uint16_t>(memory.key().size(), "a key");
        record.key_at = writer.append_text(strings, memory.key());
        record.id_size = checked_size<std::uint16_t>(memory.id().size(), "an id");
        record.id_at = writer.append_text(strings, memory.id());
        record.strength = static_cast<std::uint16_t>(strength_of(memory.access_count()));
        record.kind_rank = static_cast<std::uint8_t>(standing.kind_ranks[index]);
        record.lost = standing.lost[index] ? 1 : 0;
        writer.append(records, record);
        kept_records.push_back(record);
        memory.for_each_tag([&](std::string_view tag) { holders_of_tag[std::string{tag}].insert(index); });
        if (!standing.lost[index]) {
            standing_order.push_back(index);
        }
    }
    cache_files::write_posting_table(writer, tag_sections, holders_of_tag, "a tag",
                                     [](std::uint32_t holder) { return holder; });
    std::sort(standing_order.begin(), standing_order.end(), [&](std::uint32_t left, std::uint32_t right) {
        const Record &a = kept_records[left];
        const Record &b = kept_records[right];
        return std::tie(b.kind_rank, b.strength, b.last_stated, left) < std::tie(a.kind_rank, a.strength, a.last_stated, right);
    });
    for (const auto memory : standing_order) {
        writer.append(order, memory);
    }
    for (const auto &id : standing.superseded_ids) {
        Text text;
        text.size = checked_size<std::uint32_t>(id.size(), "a superseded id");
        text.at = writer.append_text(strings, id);
        writer.append(superseded, text);
    }
    files_.write(collection, writer);
}

std::optional<std::vector<sdk::RankedMemory>> RankIndexes::rank(std::string_view query,
                                                                std::span<const sdk::Collection> collections,
                                                                std::int64_t now, std::size_t limit) {
    auto files = files_.open_all(collections);
    if (!files) {
        return std::nullopt;
    }
    std::vector<sdk::RankedMemory> ranked;
    keys_.clear();
    if (limit == 0) {
        return ranked;
    }
    try {
        const auto text_of = [&](cache_files::SectionFile &file, std::uint32_t at, std::uint32_t size) {
            return file.bytes(strings, at, size);
        };
        std::set<std::string, std::less<>> superseded_ids;
        for (auto &file : *files) {
            for (const auto &text : file.records<Text>(superseded, 0, file.count<Text>(superseded))) {
                superseded_ids.insert(text_of(file, text.at, text.size));
            }
        }
        const auto scores = [&](cache_files::SectionFile &file, const Record &record) {
            return record.lost == 0 && !superseded_ids.contains(text_of(file, record.id_at, record.id_size));
        };

        const QueryWords words{query};
        std::vector<Scored> candidates;
        std::vector<std::set<std::uint32_t>> named(files->size());
        for (std::uint32_t collection = 0; collection < files->size(); ++collection) {
            auto &file = (*files)[collection];
            cache_files::PostingTable tag_table{tag_sections};
            for (const auto &tag : tag_table.entries(file)) {
                if (!words.names(tag_table.text(file, tag))) {
                    continue;
                }
                for (const auto memory : tag_table.postings<std::uint32_t>(file, tag)) {
                    if (!named[collection].insert(memory).second) {
                        continue;
                    }
                    const auto record = file.record<Record>(records, memory);
                    if (scores(file, record)) {
                        candidates.push_back({{collection, memory},
                                              rule_score(true, record.kind_rank, record.strength, record.last_stated, now),
                                              record});
                    }
                }
            }
        }
        // The order's scores never rise: each collection gives its `limit` best unnamed memories and
        // every one tied with the last of them, which no memory after them can beat.
        for (std::uint32_t collection = 0; collection < files->size(); ++collection) {
            auto &file = (*files)[collection];
            std::size_t taken = 0;
            double last_taken = 0.0;
            for (std::uint64_t at = 0, end = file.count<std::uint32_t>(order); at < end; ++at) {
                const auto memory = file.record<std::uint32_t>(order, at);
                if (named[collection].contains(memory)) {
                    continue;
                }
                const auto record = file.record<Record>(records, memory);
                if (!scores(file, record)) {
                    continue;
                }
                const double score = rule_score(false, record.kind_rank, record.strength, record.last_stated, now);
                if (taken >= limit && score != last_taken) {
                    break;
                }
                candidates.push_back({{collection, memory}, score, record});
                last_taken = score;
                ++taken;
            }
        }
        std::erase_if(candidates, [](const Scored &candidate) { return !(candidate.score > 0.0); });
        const auto kept = std::min(limit, candidates.size());
        std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(kept), candidates.end(),
                          better);
        candidates.resize(kept);
        for (const auto &candidate : candidates) {
            keys_.push_back(text_of((*files)[candidate.place.collection], candidate.record.key_at, candidate.record.key_size));
        }
        for (std::size_t index = 0; index < candidates.size(); ++index) {
            ranked.push_back({keys_[index], candidates[index].score});
        }
    } catch (const cache_files::DamagedFile &failure) {
        files_.report_damage(failure);
        return std::nullopt;
    }
    return ranked;
}

} // namespace starling::policies::triples
