// SPDX-License-Identifier: Apache-2.0
#include "first_weeks_bench.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace starling::bench {

namespace {

namespace fs = std::filesystem;

std::string percent(std::size_t part, std::size_t whole) {
    std::ostringstream out;
    out << part << "/" << whole << " " << std::fixed << std::setprecision(1)
        << (whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole)) << " %";
    return out.str();
}

/// The check and tuning halves of every store of one size, summed.
struct SizeFigures {
    std::vector<std::string> stores;
    HalfFigures check;
    HalfFigures tuning;
    std::size_t visible = 0; ///< over every session start of these stores
    std::size_t in_full = 0;
    std::size_t listed = 0;
    std::size_t starts = 0;
    std::size_t tokens = 0;
};

void add_half(HalfFigures &into, const HalfFigures &half) {
    into.unrelated += half.unrelated;
    into.quiet += half.quiet;
    into.relevant += half.relevant;
    into.answered += half.answered;
    into.in_context += half.in_context;
    into.in_context_by_line += half.in_context_by_line;
    into.quiet_in_session += half.quiet_in_session;
    into.tokens_unrelated += half.tokens_unrelated;
    into.tokens_relevant += half.tokens_relevant;
    into.injected_for_relevant += half.injected_for_relevant;
    into.relevant_injected += half.relevant_injected;
}

std::map<std::size_t, SizeFigures> by_size(const FirstWeeksReport &report) {
    std::map<std::size_t, SizeFigures> sizes;
    for (const auto &store : report.stores) {
        auto &figures = sizes[store.report.labelled_memories];
        figures.stores.push_back(store.name);
        for (const auto &sized : store.report.sizes) {
            add_half(figures.check, sized.check);
            add_half(figures.tuning, sized.tuning);
            for (const auto &start : sized.session_starts) {
                figures.visible += start.visible;
                figures.in_full += start.in_full;
                figures.listed += start.listed;
                figures.tokens += start.tokens;
                ++figures.starts;
            }
        }
    }
    return sizes;
}

nlohmann::json half_json(const HalfFigures &half) {
    return {{"unrelated", half.unrelated},
            {"quiet", half.quiet},
            {"quiet_rate", half.quiet_rate()},
            {"related", half.relevant},
            {"served", half.answered},
            {"served_rate", half.answered_rate()},
            {"in_context", half.in_context},
            {"in_context_rate", half.in_context_rate()},
            {"in_context_by_line", half.in_context_by_line},
            {"quiet_in_session", half.quiet_in_session},
            {"quiet_in_session_rate", half.quiet_in_session_rate()}};
}

} // namespace

FirstWeeksReport run_first_weeks_benchmark(const FirstWeeksOptions &options) {
    std::vector<fs::path> stores;
    for (const auto &entry : fs::directory_iterator(options.data)) {
        if (entry.is_directory() && fs::exists(entry.path() / "memories.txt")) {
            stores.push_back(entry.path());
        }
    }
    if (stores.empty()) {
        throw std::runtime_error(options.data.string() + " holds no store (a directory with memories.txt and prompts.txt)");
    }
    std::sort(stores.begin(), stores.end());
    FirstWeeksReport report;
    for (const auto &store : stores) {
        InjectionBenchOptions injection;
        injection.data = store;
        injection.config_file = options.config_file;
        injection.scratch = options.scratch / store.filename();
        injection.sizes = {0};
        report.stores.push_back({store.filename().string(), run_injection_benchmark(injection)});
    }
    return report;
}

std::string format_first_weeks_report(const FirstWeeksReport &report) {
    std::string out =
        "In a session (as the hooks run): each prompt follows its working directory's session start, and the "
        "prompt hook does not give again what that start showed. Outside a session: the prompt's injection alone.\n\n"
        "| store size | stores | check, in a session: related prompts with their memory's whole text in context "
        "(shown at the start in full, or by a line that is all of it, or injected; of them, by such a line "
        "alone) | check, in a session: unrelated prompts given nothing | check, outside a session: "
        "related prompts served | check, outside a session: unrelated prompts quiet | tuning, in a session: in "
        "context / given nothing | tuning, outside a session: served / quiet | session start: shown in full / by "
        "a line / visible (tokens per start) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const auto &[size, figures] : by_size(report)) {
        std::string names;
        for (const auto &name : figures.stores) {
            names += (names.empty() ? "" : ", ") + name;
        }
        out += "| " + std::to_string(size) + " | " + names + " | " +
               percent(figures.check.in_context, figures.check.relevant) + " (" +
               std::to_string(figures.check.in_context_by_line) + " by a line) | " +
               percent(figures.check.quiet_in_session, figures.check.unrelated) + " | " +
               percent(figures.check.answered, figures.check.relevant) + " | " +
               percent(figures.check.quiet, figures.check.unrelated) + " | " +
               percent(figures.tuning.in_context, figures.tuning.relevant) + " / " +
               percent(figures.tuning.quiet_in_session, figures.tuning.unrelated) + " | " +
               percent(figures.tuning.answered, figures.tuning.relevant) + " / " +
               percent(figures.tuning.quiet, figures.tuning.unrelated) + " | " + std::to_string(figures.in_full) +
               " / " + std::to_string(figures.listed) + " / " + std::to_string(figures.visible) + " (" +
               std::to_string(figures.starts == 0 ? 0 : figures.tokens / figures.starts) + ") |\n";
    }
    out += "\nCheck half, by store: unrelated prompts that got a memory (best score); related prompts that got "
           "none of theirs.\n\n";
    for (const auto &store : report.stores) {
        for (const auto &sized : store.report.sizes) {
            const auto [noisy, missed] = check_half_misses(sized);
            out += "- " + store.name + ": noisy" + (noisy.empty() ? " none" : noisy) + "; missed" +
                   (missed.empty() ? " none" : missed) + "\n";
        }
    }
    return out;
}

nlohmann::json first_weeks_report_json(const FirstWeeksReport &report) {
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto &[size, figures] : by_size(report)) {
        sizes.push_back({{"memories", size},
                         {"stores", figures.stores},
                         {"check", half_json(figures.check)},
                         {"tuning", half_json(figures.tuning)},
                         {"session_start",
                          {{"starts", figures.starts},
                           {"visible", figures.visible},
                           {"in_full", figures.in_full},
                           {"listed", figures.listed},
                           {"tokens", figures.tokens}}}});
    }
    nlohmann::json stores = nlohmann::json::array();
    for (const auto &store : report.stores) {
        stores.push_back({{"name", store.name}, {"injection", injection_report_json(store.report)}});
    }
    return {{"sizes", sizes}, {"stores", stores}};
}

} // namespace starling::bench
