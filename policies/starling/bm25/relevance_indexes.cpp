// SPDX-License-Identifier: Apache-2.0
#include "relevance_indexes.hpp"

#include "cache-files/collection_index_files.hpp"
#include "cache-files/text_hash.hpp"
#include "index_term_source.hpp"
#include "relevance_index_writer.hpp"
#include "scoring_formula.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>

namespace starling::bm25 {

namespace {

/// A memory that may still make the ranking, with what reading it cost.
struct Kept {
    ScoredMemory memory;
    const RelevanceIndexFile *file = nullptr;
    IndexedRecord record;
};

/// What an index's content depends on besides its memories: the tokens, and which links lend
/// context (field weights and the rest apply at query time).
std::uint64_t index_fingerprint(std::uint64_t tokens_fingerprint, const std::vector<std::string> &context_relations) {
    std::string described = std::to_string(tokens_fingerprint);
    for (const auto &relation : context_relations) {
        described += '\n' + relation;
    }
    return cache_files::hash_text(described);
}

} // namespace

RelevanceIndexes::RelevanceIndexes(std::filesystem::path directory, Bm25Scorer &scorer, sdk::HostServices host,
                                   std::uint64_t tokens_fingerprint)
    : directory_(std::move(directory)), scorer_(&scorer), host_(host),
      fingerprint_(index_fingerprint(tokens_fingerprint, scorer.settings().context_relations)),
      evaluator_(scorer.settings(), scorer.tokenizer()) {}

std::filesystem::path RelevanceIndexes::path_of(std::string_view collection_id) const {
    return cache_files::index_file_path(directory_, collection_id);
}

IndexIdentity RelevanceIndexes::identity_of(const sdk::Collection &collection) const noexcept {
    return {collection.id, collection.version, fingerprint_};
}

std::optional<RelevanceIndexFile> RelevanceIndexes::open_index(const sdk::Collection &collection,
                                                               std::string_view consequence) const {
    std::string problem;
    auto [opening, file] = RelevanceIndexFile::open(path_of(collection.id), identity_of(collection), problem);
    if (opening == RelevanceIndexFile::Opening::damaged) {
        host_.warning("relevance index of '" + std::string{collection.id} + "' " + std::string{consequence} + ": " +
                      problem);
    }
    return std::move(file);
}

const RelevanceIndexFile *RelevanceIndexes::ranking_file(const sdk::Collection &collection) {
    const auto kept = std::find_if(open_files_.begin(), open_files_.end(),
                                   [&](const OpenFile &open) { return open.collection_id == collection.id; });
    // A file changed in place since (never done by a writer here, but by hand it could be) would
    // fault where the mapping reaches past its new end: such a file is opened again.
    if (kept != open_files_.end() && kept->collection_version == collection.version &&
        cache_files::stamp_of(path_of(collection.id)) == kept->file.stamp()) {
        return &kept->file;
    }
    auto file = open_index(collection, "unusable");
    if (!file) {
        return nullptr;
    }
    OpenFile opened{std::string{collection.id}, std::string{collection.version}, std::move(*file)};
    if (kept != open_files_.end()) {
        *kept = std::move(opened); // of a version gone by: its mapping is released
        return &kept->file;
    }
    return &open_files_.emplace_back(std::move(opened)).file;
}

bool RelevanceIndexes::current(const sdk::Collection &collection) const {
    auto file = open_index(collection, "will be rebuilt");
    if (!file) {
        return false;
    }
    try {
        file->verify();
        return true;
    } catch (const DamagedIndex &failure) {
        host_.warning("relevance index of '" + std::string{collection.id} + "' will be rebuilt: " + failure.what());
        return false;
    }
}

void RelevanceIndexes::build(const sdk::Collection &collection, const sdk::MemoryBatch &memories) {
    std::string bytes;
    scorer_->with_batch_terms(memories, [&](const BatchTerms &terms, const TermDictionary &dictionary) {
        bytes = encode_relevance_index(identity_of(collection), memories, terms, dictionary);
    });
    cache_files::replace_index_file(directory_, path_of(collection.id), bytes, host_);
    std::erase_if(open_files_, [&](const OpenFile &open) { return open.collection_id == collection.id; });
}

std::optional<std::vector<sdk::RankedMemory>> RelevanceIndexes::rank(std::string_view query,
                                                                     std::span<const sdk::Collection> collections,
                                                                     std::int64_t now, std::size_t limit,
                                                                     QueryPass pass) {
    std::vector<const RelevanceIndexFile *> pointers;
    double bound = 1.0;
    for (const auto &collection : collections) {
        const RelevanceIndexFile *file = ranking_file(collection);
        if (file == nullptr) {
            return std::nullopt;
        }
        pointers.push_back(file);
        bound = std::max(bound,
                         boost_factor_bound(file->max_access_count(), file->max_session_count(), scorer_->settings()));
    }

    std::vector<sdk::RankedMemory> ranked;
    keys_.clear();
    TermDictionary dictionary;
    if (limit == 0 || !evaluator_.set_query(query, dictionary)) {
        return ranked;
    }
    try {
        IndexTermSource source{std::move(pointers), dictionary};
        evaluator_.evaluate(source, scored_, pass);
        // Candidates are taken best first from a heap rather than sorting them all: a prompt of
        // common words matches thousands of memories, of which the loop mostly reads a few dozen.
        const auto worse = [](const ScoredMemory &left, const ScoredMemory &right) { return ranks_before(right, left); };
        std::make_heap(scored_.begin(), scored_.end(), worse);
        auto unsorted_end = scored_.end();

        std::vector<Kept> kept; // best first, at most `limit`
        while (unsorted_end != scored_.begin()) {
            std::pop_heap(scored_.begin(), unsorted_end, worse);
            --unsorted_end;
            const ScoredMemory &candidate = *unsorted_end;
            if (kept.size() == limit && candidate.score * bound < kept.back().memory.score) {
                break; // best first by raw score: no later memory can be boosted past the last kept one
            }
            const auto [file, local] = source.locate(candidate.memory);
            Kept memory{candidate, file, file->record(local)};
            memory.memory.score *= boost_factor(now, memory.record.last_accessed, memory.record.access_count,
                                                memory.record.session_count, scorer_->settings());
            if (!(memory.memory.score > 0.0)) {
                continue;
            }
            const auto at = std::upper_bound(kept.begin(), kept.end(), memory,
                                             [](const Kept &left, const Kept &right) { return ranks_before(left.memory, right.memory); });
            if (static_cast<std::size_t>(at - kept.begin()) < limit) {
                kept.insert(at, std::move(memory));
                if (kept.size() > limit) {
                    kept.pop_back();
                }
            }
        }
        keys_.reserve(kept.size());
        for (const auto &memory : kept) {
            keys_.emplace_back(memory.file->key(memory.record));
        }
        for (std::size_t index = 0; index < kept.size(); ++index) {
            ranked.push_back({keys_[index], kept[index].memory.score});
        }
    } catch (const DamagedIndex &failure) {
        host_.warning(std::string{"relevance index unusable, scoring instead: "} + failure.what());
        open_files_.clear(); // opened again next time, in case it has been rebuilt by then
        return std::nullopt;
    }
    return ranked;
}

} // namespace starling::bm25
