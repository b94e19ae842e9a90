// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench secrets`: how well the redactor tells secrets from ordinary developer text, on the
// corpus of tests/fixtures/secrets/ (issue 43), written apart from the redactor it judges:
//   positives.txt   `id | text`, the secret of each line marked ⟦…⟧: it must be found;
//   negatives.txt   `id | text`, near misses (hashes, UUIDs, references, secret words without a
//                   secret): each must be kept byte for byte;
//   ordinary/       files of ordinary developer text (lock files, logs, code, docs): every finding
//                   in them is a false positive.
// Halves as for the other benchmarks: tune the redactor on one, report the other. More
// directories of ordinary text can be given; a finding is named by file, line and format,
// never by the text it found.
#pragma once

#include "secret_cases.hpp"

#include <starling/core/redaction/redaction.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace starling::bench {

struct SecretCorpus {
    std::vector<SecretCase> positives;
    std::vector<SecretCase> near_misses;
    std::vector<std::filesystem::path> ordinary_files; ///< sorted
};

/// The halves of a corpus, as the other benchmarks split theirs: of the positives, the near misses
/// and the ordinary files (sorted) each, the 1st, 3rd, 5th, … tune and the others check.
enum class CorpusHalf { tuning, check };

[[nodiscard]] SecretCorpus half_of(const SecretCorpus &corpus, CorpusHalf half);

/// positives.txt, negatives.txt and every regular file under ordinary/ (and under each of
/// `more_ordinary`, recursively; symlinks not followed).
[[nodiscard]] SecretCorpus read_secret_corpus(const std::filesystem::path &directory,
                                              const std::vector<std::filesystem::path> &more_ordinary = {});

struct OrdinaryFinding {
    std::filesystem::path file;
    std::size_t line = 0;
    std::string kind;
};

struct SecretCorpusReport {
    std::size_t positives = 0;
    std::vector<std::string> missed;        ///< ids of positives whose secret survived
    std::size_t near_misses = 0;
    std::vector<std::string> changed;       ///< ids of near misses the redactor changed
    std::size_t ordinary_files = 0;
    std::size_t ordinary_lines = 0;
    std::uintmax_t ordinary_bytes = 0;
    std::vector<OrdinaryFinding> ordinary_findings;

    [[nodiscard]] std::size_t found() const noexcept { return positives - missed.size(); }
    /// Found secrets over everything redacted: each changed near miss and each finding in ordinary
    /// text counts as one false positive.
    [[nodiscard]] double precision() const noexcept;
    [[nodiscard]] double recall() const noexcept;
};

[[nodiscard]] SecretCorpusReport evaluate_secret_corpus(const SecretCorpus &corpus, const core::Redactor &redactor);

[[nodiscard]] std::string format_secret_corpus_report(const SecretCorpusReport &report);
[[nodiscard]] nlohmann::json secret_corpus_report_json(const SecretCorpusReport &report);

} // namespace starling::bench
