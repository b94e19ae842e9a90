// SPDX-License-Identifier: Apache-2.0
#include "bench/secret_corpus.hpp"

#include "support/temp_dir.hpp"

#include <starling/core/redaction/redaction.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using starling::bench::evaluate_secret_corpus;
using starling::bench::read_secret_cases;
using starling::bench::read_secret_corpus;
using starling::bench::SecretCorpusError;
using starling::test::TempDir;

namespace {

const fs::path kCorpus = fs::path{STARLING_SOURCE_DIR} / "tests/fixtures/secrets";

fs::path write(const fs::path &file, const std::string &content) {
    fs::create_directories(file.parent_path());
    std::ofstream{file, std::ios::binary} << content;
    return file;
}

} // namespace

TEST_CASE("the secret corpus: every positive found, every near miss kept, no finding in ordinary text",
          "[bench][secrets]") {
    const auto corpus = read_secret_corpus(kCorpus);
    REQUIRE(corpus.positives.size() >= 100);
    REQUIRE(corpus.near_misses.size() >= 100);
    REQUIRE(corpus.ordinary_files.size() >= 10);
    const auto report = evaluate_secret_corpus(corpus, starling::core::Redactor{});
    for (const auto &id : report.missed) {
        UNSCOPED_INFO("missed: " << id);
    }
    for (const auto &id : report.changed) {
        UNSCOPED_INFO("near miss changed: " << id);
    }
    for (const auto &finding : report.ordinary_findings) {
        UNSCOPED_INFO("ordinary text: " << finding.file.filename().string() << ":" << finding.line << ": " << finding.kind);
    }
    CHECK(report.missed.empty());
    CHECK(report.changed.empty());
    CHECK(report.ordinary_findings.empty());
    CHECK(report.ordinary_bytes > 200'000);
}

TEST_CASE("a positive keeps the text around its secret", "[bench][secrets]") {
    // The corpus marks only the secret: what stands before and after it is the user's own text.
    for (const auto &positive : read_secret_corpus(kCorpus).positives) {
        INFO(positive.id);
        const auto at = positive.text.find(positive.secret);
        const auto redacted = starling::core::redact_secrets(positive.text).text;
        CHECK(redacted.find(positive.secret) == std::string::npos);
        const auto after = positive.text.substr(at + positive.secret.size());
        if (starling::core::find_builtin_secrets(after).empty()) {
            CHECK(redacted.ends_with(after));
        }
    }
}

TEST_CASE("the corpus reader names the file and line of a line that is not a case", "[bench][secrets]") {
    const TempDir directory{"secret-corpus"};
    const auto positives = write(directory.path() / "positives.txt", "# comment\n\nok | a \u27E6secret\u27E7 here\nno bar here\n");
    CHECK_THROWS_WITH(read_secret_cases(positives, true), Catch::Contains("positives.txt:4: expected `id | text`"));
    write(positives, "unmarked | no secret marked\n");
    CHECK_THROWS_WITH(read_secret_cases(positives, true), Catch::Contains("positives.txt:1: expected exactly one secret"));
    write(positives, "twice | \u27E6a\u27E7 and \u27E6b\u27E7\n");
    CHECK_THROWS_AS(read_secret_cases(positives, true), SecretCorpusError);
    write(positives, "empty | \u27E6\u27E7\n");
    CHECK_THROWS_AS(read_secret_cases(positives, true), SecretCorpusError);
    const auto negatives = write(directory.path() / "negatives.txt", "marked | a \u27E6mark\u27E7\n");
    CHECK_THROWS_WITH(read_secret_cases(negatives, false), Catch::Contains("negatives.txt:1: a near miss holds no"));
    CHECK_THROWS_WITH(read_secret_cases(directory.path() / "absent.txt", false), Catch::Contains("cannot read"));
}

TEST_CASE("the corpus report counts a changed near miss and a finding in ordinary text against precision",
          "[bench][secrets]") {
    const TempDir directory{"secret-corpus"};
    write(directory.path() / "positives.txt",
          "found | export GITHUB_TOKEN=\u27E6ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R\u27E7\n"
          "missed | the code word is \u27E6swordfish\u27E7\n");
    write(directory.path() / "negatives.txt", "kept | commit 3f9a2c1\nchanged | password: hunter22x\n");
    write(directory.path() / "ordinary/log.txt", "line one\nAKIAIOSFODNN7EXAMPLE on line two\n");
    const auto report = evaluate_secret_corpus(read_secret_corpus(directory.path()), starling::core::Redactor{});
    CHECK(report.found() == 1);
    CHECK(report.missed == std::vector<std::string>{"missed"});
    CHECK(report.changed == std::vector<std::string>{"changed"});
    REQUIRE(report.ordinary_findings.size() == 1);
    CHECK(report.ordinary_findings.front().line == 2);
    CHECK(report.ordinary_findings.front().kind == "aws-access-key");
    CHECK(report.ordinary_lines == 2);
    CHECK(report.precision() == Approx(1.0 / 3.0));
    CHECK(report.recall() == Approx(0.5));
    const auto text = starling::bench::format_secret_corpus_report(report);
    CHECK_THAT(text, Catch::Contains("log.txt:2: aws-access-key"));
    CHECK_THAT(text, !Catch::Contains("AKIAIOSFODNN7EXAMPLE")); // a finding is never printed
}
