// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench locomo`, `decisions` and `injection`: quality benchmarks of the active policies,
// configured exactly as `starling` configures them, on labelled data read by path (the data sets are
// never part of the repository). A tool of its own so that the installed `starling` carries no
// benchmark code. Exit codes as `starling`'s: 0 success, 1 the benchmark failed, 64 a bad command line.
#include "decision_bench.hpp"
#include "first_weeks_bench.hpp"
#include "supersession_bench.hpp"
#include "injection_bench.hpp"
#include "locomo_bench.hpp"
#include "locomo_misses.hpp"
#include "locomo_product_path.hpp"
#include "locomo_window_documents.hpp"
#include "secret_corpus.hpp"
#include "weeks_bench.hpp"


#include <starling/app/application.hpp>
#include <starling/app/arguments.hpp>
#include <starling/app/child_process.hpp>
#include <starling/app/output.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/config/config_error.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace starling::bench {

namespace {

using app::Application;
using app::Arguments;
using app::run_process;
using app::UsageError;

constexpr int kExitUsage = 64;

constexpr const char *kUsage = R"(starling-bench — quality benchmarks of the configured Starling policies

Usage: starling-bench [--config FILE] BENCHMARK [ARGS...]

  locomo --data PATH [--k 5,10] [--misses K] [--scratch DIR] [--json] [--window-documents]
                         recall@k over a LoCoMo file on the product path: each turn stored
                         as `starling remember --force` stores it, in a scratch store per
                         conversation (under DIR, kept; default: a temporary one, removed),
                         each question ranked as `starling search` ranks; the first half of
                         the conversations (tuning) and the rest (check) reported apart.
                         --misses K: also each question with an evidence turn outside the
                         best K memories, and where its evidence turns were ranked
                         --window-documents: the earlier figures' documents, each turn with
                         the turns around it, scored in memory: NOT the product path
  decisions --data FILE.jsonl [--json]
                         accuracy of the decision policy over labelled messages, misses listed
  injection [--data DIR] [--sizes 0,10000] [--sweep T,...] [--scratch DIR] [--json] [--json-out FILE]
                         injection precision on the product path: the labelled memories of
                         DIR (default: the repository's bench/injection) stored as `starling
                         remember --force` stores them, padded with synthetic memories to each
                         size (0: none), and each labelled prompt injected as the prompt hook
                         injects it, in its project's directory: how many unrelated prompts get
                         nothing, how many relevant ones get their memory, on the tuning and
                         the check half; --sweep: the tuning half at other thresholds too
  first-weeks [--data DIR] [--scratch DIR] [--json] [--json-out FILE]
                         a new user's first weeks: each store of DIR (default: the
                         repository's bench/first-weeks; 5, 30 and 300 memories as typed,
                         EN/DE/ZH) run as injection runs it, at its own size, and each
                         working directory's session start: related prompts served and
                         unrelated ones quiet per store size, tuning and check half apart
  supersession [--data FILE] [--scratch DIR] [--json] [--json-out FILE]
                         what a newer sentence does to an older memory: each pair of FILE
                         (default: the repository's bench/supersession/pairs.txt, written
                         apart from the code) stored as `starling remember` stores it, in a
                         store of its own; the older memory should be replaced, corrected
                         in place, kept beside the newer, or restated; tuning and check
                         half apart
  secrets [--data DIR] [--ordinary DIR]... [--json]
                         the redactor on a corpus written apart from it (default: the
                         repository's tests/fixtures/secrets): positives found, near misses
                         kept byte for byte, findings in ordinary developer text (each named by
                         file, line and format, never by what it found), precision and recall,
                         the check and the tuning half apart; --ordinary: more directories of ordinary text, searched recursively
  weeks [--profiles defaults,NAME,...] [--bin DIR] [--scratch DIR] [--json] [--json-out FILE]
                         eight scripted weeks of two agents on two projects through the hook
                         binaries of DIR (default: this tool's own), once per profile (default:
                         the embedded defaults and every shipped profile): what each keeps,
                         forgets, archives and injects, and the context it spends

The configuration is Starling's own: $STARLING_HOME/starling.toml, or --config FILE (not read by
weeks, which gives each profile a home of its own; locomo and injection read it for each scratch
store, so it must leave store.root to its default).
)";

std::vector<std::string> split_list(const std::string &text) {
    std::vector<std::string> items;
    std::size_t position = 0;
    while (position <= text.size()) {
        const auto end = std::min(text.find(',', position), text.size());
        items.push_back(text.substr(position, end - position));
        position = end + 1;
    }
    return items;
}

std::vector<int> parse_ks(const std::string &text) {
    std::vector<int> ks;
    std::size_t position = 0;
    while (position <= text.size()) {
        const auto end = std::min(text.find(',', position), text.size());
        ks.push_back(static_cast<int>(app::parse_count(text.substr(position, end - position), "--k")));
        position = end + 1;
    }
    return ks;
}

/// --scratch DIR, which is kept; else a directory of its own under the system's temporary
/// directory, removed when done.
class ScratchDirectory {
public:
    ScratchDirectory(const std::optional<std::string> &chosen, const std::string &name) : temporary_(!chosen) {
        if (chosen) {
            path_ = *chosen;
            return;
        }
        std::string pattern = (std::filesystem::temp_directory_path() / (name + ".XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("cannot create a scratch directory under " +
                                     std::filesystem::temp_directory_path().string());
        }
        path_ = pattern;
    }
    ~ScratchDirectory() {
        if (temporary_) {
            std::error_code ignored;
            std::filesystem::remove_all(path_, ignored);
        }
    }
    ScratchDirectory(const ScratchDirectory &) = delete;
    ScratchDirectory &operator=(const ScratchDirectory &) = delete;

    [[nodiscard]] const std::filesystem::path &path() const noexcept { return path_; }

private:
    bool temporary_;
    std::filesystem::path path_;
};

/// A report as --json-out FILE asks (pretty JSON, written whole or an error naming the file), then
/// on stdout as JSON with --json, else as text.
int write_report(const Arguments &arguments, const nlohmann::json &json, const std::string &text) {
    if (const auto file = arguments.value("json-out")) {
        std::ofstream out{*file};
        out << json.dump(2) << '\n';
        if (!out) {
            throw std::runtime_error("cannot write " + *file);
        }
    }
    if (arguments.flag("json")) {
        app::print_json(json);
    } else {
        std::cout << text;
    }
    return 0;
}

/// The configuration `starling` would read: --config FILE, else $STARLING_HOME/starling.toml when
/// there is one; nothing means the embedded defaults.
std::optional<std::filesystem::path> configuration_of(Application &application) {
    if (application.config_file()) {
        return application.config_file();
    }
    const auto file = core::default_config_file(application.environment());
    return std::filesystem::exists(file) ? std::optional{file} : std::nullopt;
}

int bench_locomo(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data", "k", "scratch", "misses"}, {"json", "window-documents"}};
    arguments.expect_operands(0, 0, "");
    const auto data = arguments.value("data");
    if (!data) {
        throw UsageError("bench locomo needs --data PATH (e.g. shared/data/locomo/locomo-dev.json)");
    }
    const auto ks = parse_ks(arguments.value("k").value_or("5,10"));
    // --misses K: 0 when not asked for; K beyond the largest k would need ranks that are not kept.
    std::size_t misses_k = 0;
    if (const auto misses = arguments.value("misses")) {
        misses_k = app::parse_count(*misses, "--misses");
        const auto largest_k = static_cast<std::size_t>(std::max(0, *std::max_element(ks.begin(), ks.end())));
        if (misses_k == 0 || misses_k > largest_k) {
            throw UsageError("--misses " + *misses + ": must be from 1 to the largest --k (" +
                             std::to_string(largest_k) + "), the depth to which ranks are kept");
        }
    }
    LocomoReport report;
    if (arguments.flag("window-documents")) {
        if (arguments.value("scratch")) {
            throw UsageError("--scratch is for the product path's stores; --window-documents stores nothing");
        }
        const auto *relevance = application.relevance_policy();
        if (!relevance) {
            throw std::runtime_error("no relevance policy is active (set policies.relevance)");
        }
        WindowDocumentRetriever retriever{*relevance, LocomoWindow{}};
        report = run_locomo_benchmark(*data, ks, retriever);
    } else {
        const ScratchDirectory scratch{arguments.value("scratch"), "starling-locomo"};
        ProductPathRetriever retriever{configuration_of(application), scratch.path()};
        report = run_locomo_benchmark(*data, ks, retriever);
    }
    if (arguments.flag("json")) {
        auto json = locomo_report_json(report);
        if (misses_k > 0) {
            json["misses"] = locomo_misses_json(report, misses_k);
        }
        app::print_json(json);
    } else {
        std::cout << format_locomo_report(report);
        if (misses_k > 0) {
            std::cout << format_locomo_misses(report, misses_k);
        }
    }
    return 0;
}

std::vector<double> parse_thresholds(const std::string &text) {
    std::vector<double> thresholds;
    for (const auto &item : split_list(text)) {
        std::size_t used = 0;
        double value = 0.0;
        try {
            value = std::stod(item, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used == 0 || used != item.size() || !(value >= 0.0)) {
            throw UsageError("--sweep: '" + item + "' is not a number at or above 0");
        }
        thresholds.push_back(value);
    }
    return thresholds;
}

int bench_injection(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data", "sizes", "sweep", "scratch", "json-out"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    InjectionBenchOptions options;
    options.data = arguments.value("data").value_or(STARLING_INJECTION_DATA);
    options.config_file = configuration_of(application);
    for (const auto &size : split_list(arguments.value("sizes").value_or("0,10000"))) {
        options.sizes.push_back(app::parse_count(size, "--sizes"));
    }
    if (const auto sweep = arguments.value("sweep")) {
        options.sweep = parse_thresholds(*sweep);
    }
    const ScratchDirectory scratch{arguments.value("scratch"), "starling-injection"};
    options.scratch = scratch.path();
    const auto report = run_injection_benchmark(options);
    return write_report(arguments, injection_report_json(report), format_injection_report(report));
}

int bench_first_weeks(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data", "scratch", "json-out"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    FirstWeeksOptions options;
    options.data = arguments.value("data").value_or(STARLING_FIRST_WEEKS_DATA);
    options.config_file = configuration_of(application);
    const ScratchDirectory scratch{arguments.value("scratch"), "starling-first-weeks"};
    options.scratch = scratch.path();
    const auto report = run_first_weeks_benchmark(options);
    return write_report(arguments, first_weeks_report_json(report), format_first_weeks_report(report));
}

int bench_supersession(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data", "scratch", "json-out"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    SupersessionOptions options;
    options.data = arguments.value("data").value_or(STARLING_SUPERSESSION_DATA);
    options.config_file = configuration_of(application);
    const ScratchDirectory scratch{arguments.value("scratch"), "starling-supersession"};
    options.scratch = scratch.path();
    const auto report = run_supersession_benchmark(options);
    return write_report(arguments, supersession_report_json(report), format_supersession_report(report));
}

int bench_secrets(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data", "ordinary"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    std::vector<std::filesystem::path> more_ordinary;
    for (const auto &directory : arguments.values("ordinary")) {
        more_ordinary.emplace_back(directory);
    }
    const auto corpus = read_secret_corpus(arguments.value("data").value_or(STARLING_SECRET_CORPUS), more_ordinary);
    const core::Redactor redactor{application.config().redaction.extra_patterns};
    const auto tuning = evaluate_secret_corpus(half_of(corpus, CorpusHalf::tuning), redactor);
    const auto check = evaluate_secret_corpus(half_of(corpus, CorpusHalf::check), redactor);
    if (arguments.flag("json")) {
        app::print_json({{"tuning", secret_corpus_report_json(tuning)}, {"check", secret_corpus_report_json(check)}});
    } else {
        std::cout << "## Check half\n\n" << format_secret_corpus_report(check) << "\n## Tuning half\n\n"
                  << format_secret_corpus_report(tuning);
    }
    return 0;
}

int bench_decisions(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    const auto data = arguments.value("data");
    if (!data) {
        throw UsageError("bench decisions needs --data FILE.jsonl (e.g. shared/data/decisions/dev.jsonl)");
    }
    const auto *decision_policy = application.decision_policy();
    if (!decision_policy) {
        throw std::runtime_error("no decision policy is active (set policies.decision)");
    }
    const auto cases = read_labelled_decisions(*data);
    // Judged without a store: a policy that weighs novelty is told of no similar memory
    // (closest_similarity left negative), so that a case's verdict is the message's alone.
    std::vector<sdk::Message> messages;
    for (const auto &labelled : cases) {
        messages.push_back({labelled.text, "bench", "bench-project"});
    }
    const auto report = score_decisions(cases, decision_policy->decide(messages));
    if (arguments.flag("json")) {
        app::print_json(decision_report_json(report));
    } else {
        std::cout << "decision policy: " << decision_policy->info().id << ", " << format_decision_report(report);
    }
    return 0;
}

std::filesystem::path own_directory() {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::current_path() : self.parent_path();
}

std::vector<std::string> split_names(const std::string &text) {
    std::vector<std::string> names;
    std::size_t position = 0;
    while (position <= text.size()) {
        const auto end = std::min(text.find(',', position), text.size());
        if (end > position) {
            names.push_back(text.substr(position, end - position));
        }
        position = end + 1;
    }
    return names;
}

/// "defaults" and every profile `starling profile list --json` names.
std::vector<std::string> every_profile(const std::filesystem::path &binaries) {
    const auto listed = run_process(binaries / "starling", {"profile", "list", "--json"});
    if (listed.exit_code != 0) {
        throw std::runtime_error("starling profile list failed: " + listed.stderr_text);
    }
    std::vector<std::string> names{"defaults"};
    const auto parsed = nlohmann::json::parse(listed.stdout_text, nullptr, false);
    const auto &profiles = parsed.is_object() && parsed.contains("profiles") ? parsed["profiles"] : parsed;
    if (!profiles.is_array()) {
        throw std::runtime_error("starling profile list --json printed no list of profiles");
    }
    for (const auto &profile : profiles) {
        names.push_back(profile.at("name").get<std::string>());
    }
    return names;
}

int bench_weeks(std::span<const std::string> words) {
    const Arguments arguments{words, {"profiles", "bin", "scratch", "json-out"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    const std::filesystem::path binaries = arguments.value("bin").value_or(own_directory().string());
    const auto profiles = arguments.value("profiles") ? split_names(*arguments.value("profiles")) : every_profile(binaries);
    const ScratchDirectory scratch{arguments.value("scratch"), "starling-weeks"};
    std::vector<WeeksReport> reports;
    const auto scenario = developer_weeks();
    for (const auto &profile : profiles) {
        std::cerr << "starling-bench weeks: " << profile << "\n";
        reports.push_back(run_weeks(scenario, {binaries, scratch.path(), profile}));
    }
    return write_report(arguments, weeks_report_json(reports), format_weeks_table(reports));
}

int run(std::span<const std::string> words) {
    std::optional<std::filesystem::path> config_file;
    if (!words.empty() && words.front() == "--config") {
        if (words.size() < 2) {
            throw UsageError("option --config needs a value");
        }
        config_file = words[1];
        words = words.subspan(2);
    }
    if (words.empty() || words.front() == "-h" || words.front() == "--help") {
        std::cout << kUsage;
        return words.empty() ? kExitUsage : 0;
    }
    if (words.front() == "weeks") {
        return bench_weeks(words.subspan(1));
    }
    Application application{config_file};
    if (words.front() == "locomo") {
        return bench_locomo(application, words.subspan(1));
    }
    if (words.front() == "decisions") {
        return bench_decisions(application, words.subspan(1));
    }
    if (words.front() == "injection") {
        return bench_injection(application, words.subspan(1));
    }
    if (words.front() == "secrets") {
        return bench_secrets(application, words.subspan(1));
    }
    if (words.front() == "first-weeks") {
        return bench_first_weeks(application, words.subspan(1));
    }
    if (words.front() == "supersession") {
        return bench_supersession(application, words.subspan(1));
    }
    throw UsageError("unknown benchmark '" + words.front() + "' (expected locomo, decisions, injection, first-weeks, supersession, secrets or weeks)");
}

} // namespace

} // namespace starling::bench

int main(int argc, char **argv) {
    const std::vector<std::string> words(argv + 1, argv + argc);
    try {
        return starling::bench::run(words);
    } catch (const starling::app::UsageError &failure) {
        std::cerr << "starling-bench: " << failure.what() << "\nTry 'starling-bench --help'.\n";
        return starling::bench::kExitUsage;
    } catch (const starling::core::ConfigError &failure) {
        std::cerr << "starling-bench: configuration error: " << failure.what() << '\n';
        return 1;
    } catch (const std::exception &failure) {
        std::cerr << "starling-bench: error: " << failure.what() << '\n';
        return 1;
    }
}
