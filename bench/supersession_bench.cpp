// SPDX-License-Identifier: Apache-2.0
#include "supersession_bench.hpp"

#include "data_lines.hpp"
#include "scoped_environment.hpp"

#include <starling/app/application.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/store/record/memory_links.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace starling::bench {
namespace {

namespace fs = std::filesystem;

constexpr const char *fixed_now = "2026-11-22T09:00:00Z";
constexpr std::array<const char *, 4> kLabels{"replaces", "corrects", "both", "restates"};

/// Whether `outcome` is what its label asks for. A value corrected in place also retires what an
/// older memory said that is no longer so: right for `replaces` too.
bool is_right(const SupersessionOutcome &outcome) {
    return outcome.outcome == outcome.label || (outcome.label == "replaces" && outcome.outcome == "corrects");
}

/// Stores `pair`'s two sentences as `starling remember` does, in a store of their own, and says
/// what the newer one did to the older memory.
SupersessionOutcome run_pair(const SupersessionPair &pair, const SupersessionOptions &options) {
    const fs::path root = options.scratch / pair.id;
    fs::remove_all(root);
    const fs::path project = root / "work" / "app";
    fs::create_directories(project);
    if (!std::ofstream{project / ".starling-project"}) {
        throw std::runtime_error("cannot create a project in " + project.string());
    }
    ScopedEnvironment environment;
    environment.set("STARLING_HOME", (root / "home").string());
    environment.set("STARLING_NOW", fixed_now);
    app::Application application{options.config_file};
    if (fs::weakly_canonical(application.config().store.root) != fs::weakly_canonical(root / "home")) {
        throw std::runtime_error("the configuration sets store.root to " + application.config().store.root.string() +
                                 ": the benchmark stores its memories only in a scratch store of its own");
    }
    core::Rememberer rememberer{application.store(), application.active_policies(),
                                application.lifecycle_settings().remember};
    const auto remember = [&](const std::string &text) {
        core::RememberRequest request;
        request.text = text;
        request.agent = "cli";
        request.project_id =
            application.store().resolve_project(project, core::MemoryStore::ProjectFolder::record);
        request.pin = true;
        request.asked_to_keep = true;
        return rememberer.remember(request);
    };
    const auto older = remember(pair.older);
    if (older.action != core::RememberOutcome::Action::created) {
        throw std::runtime_error("pair " + pair.id + ": the older sentence was not stored: " + older.reason);
    }
    const auto newer = remember(pair.newer);
    SupersessionOutcome outcome{pair.id, pair.label, "both", pair.check, newer.reason};
    if (!newer.superseded.empty() && newer.superseded == older.key) {
        outcome.outcome = "replaces";
    } else if (newer.corrected && newer.key == older.key) {
        outcome.outcome = "corrects";
    } else if (newer.action == core::RememberOutcome::Action::updated && newer.key == older.key) {
        outcome.outcome = "restates";
    } else if (newer.action == core::RememberOutcome::Action::discarded) {
        outcome.outcome = "discarded";
    } else {
        const auto links = core::links_of(application.store().read(older.key));
        outcome.amended = std::any_of(links.begin(), links.end(), [](const core::Link &link) {
            return link.relation == core::amended_by_link_relation;
        });
    }
    return outcome;
}

std::string percent(std::size_t part, std::size_t whole) {
    std::ostringstream out;
    out << part << "/" << whole << " " << std::fixed << std::setprecision(1)
        << (whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole)) << " %";
    return out.str();
}

/// label → outcome → count, of one half.
/// label → outcome → count, of one half.
using Confusion = std::map<std::string, std::map<std::string, std::size_t>>;

Confusion confusion_of(const SupersessionReport &report, bool check) {
    Confusion confusion;
    for (const auto &outcome : report.outcomes) {
        if (outcome.check == check) {
            ++confusion[outcome.label][outcome.outcome];
        }
    }
    return confusion;
}

/// label → how many of its `both` outcomes show the older memory with the newer, of one half.
std::map<std::string, std::size_t> amended_of(const SupersessionReport &report, bool check) {
    std::map<std::string, std::size_t> amended;
    for (const auto &outcome : report.outcomes) {
        if (outcome.check == check && outcome.amended) {
            ++amended[outcome.label];
        }
    }
    return amended;
}

std::size_t total(const std::map<std::string, std::size_t> &counts) {
    std::size_t sum = 0;
    for (const auto &[outcome, count] : counts) {
        sum += count;
    }
    return sum;
}

} // namespace

std::vector<SupersessionPair> read_supersession_pairs(const fs::path &file) {
    std::ifstream in{file};
    if (!in) {
        throw std::runtime_error("cannot read " + file.string());
    }
    std::vector<SupersessionPair> pairs;
    std::set<std::string> ids;
    std::map<std::string, std::size_t> seen_of_label;
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (trimmed(line).empty() || trimmed(line).front() == '#') {
            continue;
        }
        const auto where = file.string() + ":" + std::to_string(number) + ": ";
        const auto fields = fields_of(line, 4);
        if (fields.size() != 4 || fields[0].empty() || fields[2].empty() || fields[3].empty()) {
            throw std::runtime_error(where + "expected `id | label | older | newer`, got '" + line + "'");
        }
        if (std::find(kLabels.begin(), kLabels.end(), fields[1]) == kLabels.end()) {
            throw std::runtime_error(where + "unknown label '" + fields[1] + "' (expected replaces, corrects, both or restates)");
        }
        if (!ids.insert(fields[0]).second) {
            throw std::runtime_error(where + "id '" + fields[0] + "' is used twice");
        }
        const bool check = seen_of_label[fields[1]]++ % 2 == 1;
        pairs.push_back({fields[0], fields[1], fields[2], fields[3], check});
    }
    if (pairs.empty()) {
        throw std::runtime_error(file.string() + " holds no pair");
    }
    return pairs;
}

SupersessionReport run_supersession_benchmark(const SupersessionOptions &options) {
    SupersessionReport report;
    for (const auto &pair : read_supersession_pairs(options.data)) {
        report.outcomes.push_back(run_pair(pair, options));
    }
    return report;
}

std::string format_supersession_report(const SupersessionReport &report) {
    std::ostringstream out;
    for (const bool check : {true, false}) {
        const auto confusion = confusion_of(report, check);
        auto amended = amended_of(report, check);
        out << "## " << (check ? "Check half (the figures to quote)" : "Tuning half") << "\n\n"
            << "| should | right | replaced | corrected in place | both kept | of them, the older shown with the newer | folded | discarded |\n"
            << "|---|---:|---:|---:|---:|---:|---:|---:|\n";
        for (const char *label : kLabels) {
            const auto found = confusion.find(label);
            const auto counts = found == confusion.end() ? std::map<std::string, std::size_t>{} : found->second;
            const auto count = [&](const char *outcome) {
                const auto at = counts.find(outcome);
                return at == counts.end() ? std::size_t{0} : at->second;
            };
            const auto right = count(label) + (std::string_view{label} == "replaces" ? count("corrects") : 0);
            out << "| " << label << " | " << percent(right, total(counts)) << " | " << count("replaces") << " | "
                << count("corrects") << " | " << count("both") << " | " << amended[label] << " | " << count("restates")
                << " | " << count("discarded") << " |\n";
        }
        out << "\nWrong:";
        bool any = false;
        for (const auto &outcome : report.outcomes) {
            if (outcome.check == check && !is_right(outcome)) {
                out << " " << outcome.id << " (" << outcome.label << " → " << outcome.outcome << ")";
                any = true;
            }
        }
        out << (any ? "" : " none") << "\n\n";
    }
    return out.str();
}

nlohmann::json supersession_report_json(const SupersessionReport &report) {
    nlohmann::json json{{"check", nlohmann::json::object()}, {"tuning", nlohmann::json::object()},
                        {"pairs", nlohmann::json::array()}};
    for (const bool check : {true, false}) {
        for (const auto &[label, counts] : confusion_of(report, check)) {
            json[check ? "check" : "tuning"][label] = counts;
        }
    }
    for (const auto &outcome : report.outcomes) {
        json["pairs"].push_back({{"id", outcome.id},
                                 {"label", outcome.label},
                                 {"outcome", outcome.outcome},
                                 {"half", outcome.check ? "check" : "tuning"},
                                 {"amended", outcome.amended},
                                 {"reason", outcome.reason}});
    }
    return json;
}

} // namespace starling::bench
