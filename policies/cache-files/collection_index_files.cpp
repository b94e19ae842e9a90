// SPDX-License-Identifier: Apache-2.0
#include "cache-files/collection_index_files.hpp"

#include "cache-files/cache_file_io.hpp"
#include "cache-files/text_hash.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace starling::cache_files {

std::filesystem::path index_file_path(const std::filesystem::path &directory, std::string_view collection_id) {
    char name[40];
    std::snprintf(name, sizeof name, "index-%016llx.bin", static_cast<unsigned long long>(hash_text(collection_id)));
    return directory / name;
}

void replace_index_file(const std::filesystem::path &directory, const std::filesystem::path &path,
                        std::string_view bytes, const sdk::HostServices &host) {
    if (const auto failure = replace_file(path, std::as_bytes(std::span{bytes}))) {
        throw std::runtime_error("cannot write the relevance index: " + *failure);
    }
    // Builds are rare and off the hook path: the moment to sweep what writers killed mid-write left.
    constexpr std::chrono::hours abandoned_after{1};
    if (const auto removed = remove_abandoned_partial_files(directory, abandoned_after); removed > 0) {
        host.info("removed " + std::to_string(removed) + " abandoned partial file(s) from " + directory.string());
    }
}

CollectionIndexFiles::CollectionIndexFiles(std::filesystem::path directory, std::uint64_t fingerprint,
                                           std::size_t section_count, sdk::HostServices host)
    : directory_(std::move(directory)), fingerprint_(fingerprint), section_count_(section_count), host_(host) {}

FileIdentity CollectionIndexFiles::identity_of(const sdk::Collection &collection) const noexcept {
    return {collection.id, collection.version, fingerprint_};
}

std::optional<SectionFile> CollectionIndexFiles::open(const sdk::Collection &collection,
                                                      std::string_view consequence) const {
    std::string problem;
    auto [opening, file] = SectionFile::open(path_of(collection.id), identity_of(collection), section_count_, problem);
    if (opening == SectionFile::Opening::damaged) {
        host_.warning("relevance index of '" + std::string{collection.id} + "' " + std::string{consequence} + ": " +
                      problem);
    }
    return std::move(file);
}

bool CollectionIndexFiles::current(const sdk::Collection &collection) const {
    auto file = open(collection, "will be rebuilt");
    if (!file) {
        return false;
    }
    try {
        file->verify();
        return true;
    } catch (const DamagedFile &failure) {
        host_.warning("relevance index of '" + std::string{collection.id} + "' will be rebuilt: " +
                      path_of(collection.id).string() + ": " + failure.what());
        return false;
    }
}

void CollectionIndexFiles::write(const sdk::Collection &collection, const SectionFileWriter &sections) const {
    replace_index_file(directory_, path_of(collection.id), sections.encode(identity_of(collection)), host_);
}

std::optional<std::vector<SectionFile>>
CollectionIndexFiles::open_all(std::span<const sdk::Collection> collections) const {
    std::vector<SectionFile> files;
    files.reserve(collections.size());
    for (const auto &collection : collections) {
        auto file = open(collection, "unusable");
        if (!file) {
            return std::nullopt;
        }
        files.push_back(std::move(*file));
    }
    return files;
}

void CollectionIndexFiles::report_damage(const DamagedFile &failure) const {
    host_.warning(std::string{"relevance index unusable, scoring instead: "} + failure.what());
}

} // namespace starling::cache_files
