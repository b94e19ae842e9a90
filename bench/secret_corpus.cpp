// SPDX-License-Identifier: Apache-2.0
#include "secret_corpus.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace starling::bench {

namespace fs = std::filesystem;

namespace {

std::string percent(std::size_t part, std::size_t whole) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
    return text;
}

} // namespace

SecretCorpus read_secret_corpus(const fs::path &directory, const std::vector<fs::path> &more_ordinary) {
    SecretCorpus corpus;
    corpus.positives = read_secret_cases(directory / "positives.txt", true);
    corpus.near_misses = read_secret_cases(directory / "negatives.txt", false);
    std::vector<fs::path> roots{directory / "ordinary"};
    roots.insert(roots.end(), more_ordinary.begin(), more_ordinary.end());
    for (const auto &root : roots) {
        std::error_code error;
        if (!fs::is_directory(root, error)) {
            throw SecretCorpusError{root.string() + ": not a directory of ordinary text"};
        }
        for (const auto &entry : fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied)) {
            if (entry.is_regular_file(error) && !entry.is_symlink(error)) {
                corpus.ordinary_files.push_back(entry.path());
            }
        }
    }
    std::sort(corpus.ordinary_files.begin(), corpus.ordinary_files.end());
    return corpus;
}

namespace {

template <typename Item>
std::vector<Item> every_other(const std::vector<Item> &items, CorpusHalf half) {
    std::vector<Item> kept;
    for (std::size_t index = half == CorpusHalf::tuning ? 0 : 1; index < items.size(); index += 2) {
        kept.push_back(items[index]);
    }
    return kept;
}

} // namespace

SecretCorpus half_of(const SecretCorpus &corpus, CorpusHalf half) {
    return {every_other(corpus.positives, half), every_other(corpus.near_misses, half),
            every_other(corpus.ordinary_files, half)};
}

double SecretCorpusReport::precision() const noexcept {
    const std::size_t false_positives = changed.size() + ordinary_findings.size();
    return found() + false_positives == 0 ? 1.0
                                          : static_cast<double>(found()) / static_cast<double>(found() + false_positives);
}

double SecretCorpusReport::recall() const noexcept {
    return positives == 0 ? 1.0 : static_cast<double>(found()) / static_cast<double>(positives);
}

SecretCorpusReport evaluate_secret_corpus(const SecretCorpus &corpus, const core::Redactor &redactor) {
    SecretCorpusReport report;
    report.positives = corpus.positives.size();
    for (const auto &positive : corpus.positives) {
        if (redactor.redact(positive.text).text.find(positive.secret) != std::string::npos) {
            report.missed.push_back(positive.id);
        }
    }
    report.near_misses = corpus.near_misses.size();
    for (const auto &near_miss : corpus.near_misses) {
        if (!redactor.find(near_miss.text).empty()) {
            report.changed.push_back(near_miss.id);
        }
    }
    for (const auto &file : corpus.ordinary_files) {
        const auto content = read_corpus_file(file);
        ++report.ordinary_files;
        report.ordinary_bytes += content.size();
        report.ordinary_lines += static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n'));
        std::size_t line = 1;
        std::size_t counted_to = 0;
        for (const auto &span : redactor.find(content)) {
            line += static_cast<std::size_t>(std::count(content.begin() + static_cast<std::ptrdiff_t>(counted_to),
                                                        content.begin() + static_cast<std::ptrdiff_t>(span.begin), '\n'));
            counted_to = span.begin;
            report.ordinary_findings.push_back({file, line, span.kind});
        }
    }
    return report;
}

std::string format_secret_corpus_report(const SecretCorpusReport &report) {
    std::ostringstream out;
    out << "| corpus | cases | result |\n|---|---:|---|\n";
    out << "| positives: secret removed | " << report.positives << " | " << report.found() << " found, "
        << percent(report.found(), report.positives) << " |\n";
    out << "| near misses: kept byte for byte | " << report.near_misses << " | "
        << report.near_misses - report.changed.size() << " kept, "
        << percent(report.near_misses - report.changed.size(), report.near_misses) << " |\n";
    out << "| ordinary developer text: findings | " << report.ordinary_files << " files, " << report.ordinary_lines
        << " lines, " << report.ordinary_bytes / 1024 << " KiB | " << report.ordinary_findings.size() << " |\n\n";
    out << "precision " << percent(report.found(), report.found() + report.changed.size() + report.ordinary_findings.size())
        << ", recall " << percent(report.found(), report.positives) << "\n";
    for (const auto &id : report.missed) {
        out << "missed: " << id << "\n";
    }
    for (const auto &id : report.changed) {
        out << "near miss changed: " << id << "\n";
    }
    for (const auto &finding : report.ordinary_findings) {
        out << "ordinary text: " << finding.file.string() << ":" << finding.line << ": " << finding.kind << "\n";
    }
    return out.str();
}

nlohmann::json secret_corpus_report_json(const SecretCorpusReport &report) {
    auto findings = nlohmann::json::array();
    for (const auto &finding : report.ordinary_findings) {
        findings.push_back({{"file", finding.file.string()}, {"line", finding.line}, {"kind", finding.kind}});
    }
    return {{"positives", report.positives},
            {"found", report.found()},
            {"missed", report.missed},
            {"near_misses", report.near_misses},
            {"changed", report.changed},
            {"ordinary_files", report.ordinary_files},
            {"ordinary_lines", report.ordinary_lines},
            {"ordinary_bytes", report.ordinary_bytes},
            {"ordinary_findings", findings},
            {"precision", report.precision()},
            {"recall", report.recall()}};
}

} // namespace starling::bench
