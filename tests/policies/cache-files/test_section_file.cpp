// SPDX-License-Identifier: Apache-2.0
//
// The checked section file: what is written reads back, a file of another collection, version,
// fingerprint or shape is told apart, and no damaged byte is ever returned as data.
#include "policies/cache-files/section_file.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using starling::cache_files::DamagedFile;
using starling::cache_files::FileIdentity;
using starling::cache_files::SectionFile;
using starling::cache_files::SectionFileWriter;
namespace fs = std::filesystem;

namespace {

struct Pair {
    std::uint32_t first = 0;
    std::uint32_t second = 0;
};

const FileIdentity identity{"projects/app", "version-1", 0xabcdef};

/// Three sections: 3,000 pairs (more than one block), a text, and nothing.
SectionFileWriter sample_writer() {
    SectionFileWriter writer{3};
    for (std::uint32_t index = 0; index < 3000; ++index) {
        writer.append(0, Pair{index, index * 7});
    }
    writer.section(1) = "deploy the billing queue!";
    return writer;
}

void write_file(const fs::path &path, const std::string &bytes) {
    std::ofstream out{path, std::ios::binary};
    out << bytes;
}

std::pair<SectionFile::Opening, std::optional<SectionFile>> open(const fs::path &path,
                                                                 const FileIdentity &as = identity,
                                                                 std::size_t sections = 3) {
    std::string problem;
    return SectionFile::open(path, as, sections, problem);
}

} // namespace

TEST_CASE("a section file reads back what was written, record by record and byte by byte",
          "[policy][cache-files][section-file]") {
    starling::test::TempDir scratch{"section-file"};
    const auto path = scratch / "index.bin";
    write_file(path, sample_writer().encode(identity));

    auto [opening, file] = open(path);
    REQUIRE(opening == SectionFile::Opening::opened);
    CHECK(file->count<Pair>(0) == 3000);
    CHECK(file->size(1) == 25);
    CHECK(file->size(2) == 0);
    const auto pair = file->record<Pair>(0, 2999);
    CHECK((pair.first == 2999 && pair.second == 2999 * 7));
    const auto run = file->records<Pair>(0, 500, 1000); // spans block boundaries
    REQUIRE(run.size() == 1000);
    for (std::uint32_t index = 0; index < run.size(); ++index) {
        CHECK(run[index].first == 500 + index);
    }
    CHECK(file->bytes(1, 11, 7) == "billing");
    CHECK(file->records<Pair>(2, 0, 0).empty());
    CHECK_NOTHROW(file->verify());
}

TEST_CASE("a section file with no data at all (an empty collection's index) opens and reads as empty",
          "[policy][cache-files][section-file]") {
    starling::test::TempDir scratch{"section-file-empty"};
    const auto path = scratch / "index.bin";
    write_file(path, SectionFileWriter{3}.encode(identity));
    auto [opening, file] = open(path);
    REQUIRE(opening == SectionFile::Opening::opened);
    for (std::size_t section = 0; section < 3; ++section) {
        CHECK(file->size(section) == 0);
    }
    CHECK(file->records<Pair>(0, 0, 0).empty());
    CHECK_NOTHROW(file->verify());
}

TEST_CASE("a read outside a section is refused, however large", "[policy][cache-files][section-file]") {
    starling::test::TempDir scratch{"section-file"};
    const auto path = scratch / "index.bin";
    write_file(path, sample_writer().encode(identity));
    auto [opening, file] = open(path);
    REQUIRE(opening == SectionFile::Opening::opened);
    CHECK_THROWS_AS(file->record<Pair>(0, 3000), DamagedFile);
    CHECK_THROWS_AS(file->records<Pair>(0, 2999, 2), DamagedFile);
    CHECK_THROWS_AS(file->records<Pair>(0, 1, UINT64_MAX / 4), DamagedFile);
    CHECK_THROWS_AS(file->bytes(1, 20, 6), DamagedFile);
    CHECK_THROWS_AS(file->bytes(1, UINT64_MAX, 2), DamagedFile);
    CHECK_THROWS_AS(file->count<Pair>(1), DamagedFile); // 25 bytes are no whole number of pairs
    CHECK_THROWS_AS(file->size(3), DamagedFile);
}

TEST_CASE("a file of another collection, version, fingerprint or shape is not opened as this one",
          "[policy][cache-files][section-file]") {
    starling::test::TempDir scratch{"section-file"};
    const auto path = scratch / "index.bin";
    CHECK(open(path).first == SectionFile::Opening::missing);
    write_file(path, sample_writer().encode(identity));
    CHECK(open(path, {"projects/app", "version-2", 0xabcdef}).first == SectionFile::Opening::other_identity);
    CHECK(open(path, {"user", "version-1", 0xabcdef}).first == SectionFile::Opening::other_identity);
    CHECK(open(path, {"projects/ap", "pversion-1", 0xabcdef}).first == SectionFile::Opening::other_identity);
    CHECK(open(path, {"projects/app", "version-1", 0xabcdee}).first == SectionFile::Opening::other_identity);
    CHECK(open(path, identity, 4).first == SectionFile::Opening::other_identity);
    CHECK(open(path).first == SectionFile::Opening::opened);
}

TEST_CASE("no damaged byte of a section file is ever read as data", "[policy][cache-files][section-file]") {
    starling::test::TempDir scratch{"section-file"};
    const auto path = scratch / "index.bin";
    SectionFileWriter writer{2};
    for (std::uint32_t index = 0; index < 1100; ++index) { // two blocks and a bit
        writer.append(0, Pair{index, ~index});
    }
    writer.section(1) = "tags";
    const std::string original = writer.encode(identity);

    for (std::size_t position = 0; position < original.size(); position += (position < 200 ? 1 : 97)) {
        INFO("byte " << position);
        std::string damaged = original;
        damaged[position] = static_cast<char>(damaged[position] ^ 0x20);
        write_file(path, damaged);
        auto [opening, file] = open(path, identity, 2);
        if (opening != SectionFile::Opening::opened) {
            CHECK(opening != SectionFile::Opening::missing);
            continue;
        }
        CHECK_THROWS_AS(file->verify(), DamagedFile);
        try {
            static_cast<void>(file->records<Pair>(0, 0, 1100));
            static_cast<void>(file->bytes(1, 0, 4));
            FAIL("read a damaged file without noticing");
        } catch (const DamagedFile &) {
        }
    }
}

TEST_CASE("a truncated or lengthened section file is damaged", "[policy][cache-files][section-file]") {
    starling::test::TempDir scratch{"section-file"};
    const auto path = scratch / "index.bin";
    const std::string original = sample_writer().encode(identity);
    for (const std::size_t size : {std::size_t{0}, std::size_t{10}, std::size_t{48}, std::size_t{200},
                                   original.size() - 1}) {
        INFO("size " << size);
        write_file(path, original.substr(0, size));
        CHECK(open(path).first == SectionFile::Opening::damaged);
    }
    write_file(path, original + "x");
    CHECK(open(path).first == SectionFile::Opening::damaged);
    write_file(path, std::string(original.size(), 'x'));
    CHECK(open(path).first == SectionFile::Opening::damaged);
}
