// SPDX-License-Identifier: Apache-2.0
//
// The posting table the indexing policies share: every text reads back with its postings, found by
// its text whatever its hash neighbours, and a table cut short is damage, never data.
#include "policies/cache-files/posting_table.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

using starling::cache_files::DamagedFile;
using starling::cache_files::FileIdentity;
using starling::cache_files::PostingSections;
using starling::cache_files::PostingTable;
using starling::cache_files::SectionFile;
using starling::cache_files::SectionFileWriter;
namespace fs = std::filesystem;

namespace {

const FileIdentity identity{"user", "v1", 0x5057};
constexpr PostingSections sections{0, 1, 2};

struct Counted {
    std::uint32_t memory = 0;
    std::uint32_t count = 0;
};

SectionFile written(const fs::path &path, const SectionFileWriter &writer) {
    std::ofstream{path, std::ios::binary} << writer.encode(identity);
    std::string problem;
    auto [opening, file] = SectionFile::open(path, identity, 3, problem);
    REQUIRE(opening == SectionFile::Opening::opened);
    return std::move(*file);
}

} // namespace

TEST_CASE("a posting table reads back each text with its postings, found by text", "[policy][cache-files]") {
    starling::test::TempDir scratch{"posting-table"};
    std::map<std::string, std::set<std::uint32_t>, std::less<>> holders{
        {"deploy", {0, 4, 9}}, {"pnpm", {2}}, {"部署", {4}}};
    for (int index = 0; index < 200; ++index) { // enough texts for hash neighbours
        holders["tag-" + std::to_string(index)].insert(static_cast<std::uint32_t>(index));
    }
    SectionFileWriter writer{3};
    starling::cache_files::write_posting_table(writer, sections, holders, "a tag",
                                               [](std::uint32_t memory) { return memory; });
    auto file = written(scratch / "index.bin", writer);

    PostingTable table{sections};
    REQUIRE(table.entries(file).size() == holders.size());
    for (std::size_t index = 1; index < table.entries(file).size(); ++index) {
        CHECK(table.entries(file)[index - 1].hash <= table.entries(file)[index].hash);
    }
    for (const auto &[text, memories] : holders) {
        INFO(text);
        const auto found = table.find(file, text);
        REQUIRE(found.has_value());
        CHECK(table.text(file, *found) == text);
        const auto postings = table.postings<std::uint32_t>(file, *found);
        CHECK(std::vector<std::uint32_t>(memories.begin(), memories.end()) == postings);
    }
    CHECK_FALSE(table.find(file, "npm").has_value());
    CHECK_FALSE(table.find(file, "").has_value());
}

TEST_CASE("a posting table keeps the records its writer makes of each holder", "[policy][cache-files]") {
    starling::test::TempDir scratch{"posting-records"};
    std::map<std::string, std::map<std::uint32_t, std::uint32_t>, std::less<>> counts{{"helm", {{1, 2}, {3, 1}}}};
    SectionFileWriter writer{3};
    starling::cache_files::write_posting_table(writer, sections, counts, "a term", [](const auto &holder) {
        return Counted{holder.first, holder.second};
    });
    auto file = written(scratch / "index.bin", writer);
    PostingTable table{sections};
    const auto postings = table.postings<Counted>(file, *table.find(file, "helm"));
    REQUIRE(postings.size() == 2);
    CHECK((postings[0].memory == 1 && postings[0].count == 2));
    CHECK((postings[1].memory == 3 && postings[1].count == 1));
}

TEST_CASE("a posting table whose postings run past their section is damage", "[policy][cache-files]") {
    starling::test::TempDir scratch{"posting-damage"};
    std::map<std::string, std::vector<std::uint32_t>, std::less<>> holders{{"deploy", {0, 1, 2}}};
    SectionFileWriter writer{3};
    starling::cache_files::write_posting_table(writer, sections, holders, "a tag",
                                               [](std::uint32_t memory) { return memory; });
    writer.section(2).resize(sizeof(std::uint32_t)); // two of the three postings lost
    auto file = written(scratch / "index.bin", writer);
    PostingTable table{sections};
    const auto found = table.find(file, "deploy");
    REQUIRE(found.has_value());
    CHECK_THROWS_AS(table.postings<std::uint32_t>(file, *found), DamagedFile);
}
