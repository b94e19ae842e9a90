// SPDX-License-Identifier: Apache-2.0
#include "injection_bench.hpp"
#include "scoped_environment.hpp"
#include "synthetic_store.hpp"

#include <starling/app/application.hpp>
#include <starling/core/lifecycle/injection.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/store/record/body_excerpt.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace starling::bench {

namespace {

namespace fs = std::filesystem;

/// The time every memory is stored and every prompt submitted at, so that two runs rank alike.
constexpr const char *fixed_now = "2026-11-22T09:00:00Z";
/// The synthetic padding's seed: the same store at every run.
constexpr std::uint64_t padding_seed = 1;

double share(std::size_t part, std::size_t whole) noexcept {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

/// One store of the benchmark: its home, its projects' working directories, and the labelled
/// memories' keys.
class BenchStore {
public:
    BenchStore(const InjectionBenchOptions &options, const InjectionData &data, std::size_t size)
        : root_(options.scratch / ("store-" + std::to_string(size))) {
        fs::remove_all(root_);
        fs::create_directories(home());
        // Each project directory is marked as a project root, so that a scratch directory inside a
        // repository does not make every project that repository.
        for (const auto &project : data.projects) {
            fs::create_directories(directory_of(project));
            const auto marker = directory_of(project) / ".starling-project";
            if (!std::ofstream{marker}) {
                throw std::runtime_error("cannot create " + marker.string());
            }
        }
        environment_.set("STARLING_HOME", home().string());
        environment_.set("STARLING_NOW", fixed_now);
        application_ = std::make_unique<app::Application>(options.config_file);
        const auto &root = application_->config().store.root;
        if (fs::weakly_canonical(root) != fs::weakly_canonical(home())) {
            throw std::runtime_error("the configuration" +
                                     (options.config_file ? " " + options.config_file->string() : std::string{}) +
                                     " sets store.root to " + root.string() +
                                     ": the benchmark stores its memories only in a scratch store of its own");
        }
        if (application_->active_policies().relevance == nullptr) {
            throw std::runtime_error("no relevance policy is active (set policies.relevance)");
        }
    }
    ~BenchStore() {
        // The application reads the environment it was made in: it goes before the environment does.
        application_.reset();
    }
    BenchStore(const BenchStore &) = delete;
    BenchStore &operator=(const BenchStore &) = delete;

    [[nodiscard]] app::Application &application() { return *application_; }
    [[nodiscard]] core::MemoryStore &store() { return application_->store(); }

    /// The working directory of a project; for no project, a directory outside every project.
    [[nodiscard]] fs::path directory_of(const std::string &project) const {
        return project.empty() ? root_ / "work" : root_ / "work" / project;
    }

    /// Each memory as `starling remember --force --type T --scope S --tags … --summary … BODY`
    /// stores it from the project's directory (from outside every project for the user's scope).
    /// Returns how many were folded into an earlier one as restatements.
    std::size_t remember(const InjectionData &data) {
        core::Rememberer rememberer{store(), application_->active_policies(),
                                    application_->lifecycle_settings().remember};
        std::size_t restated = 0;
        for (const auto &memory : data.memories) {
            core::RememberRequest request;
            request.text = memory.body.empty() ? memory.summary : memory.body;
            request.agent = "cli";
            request.pin = true;
            request.project_id = store().resolve_project(directory_of(memory.project),
                                                         memory.project.empty()
                                                             ? core::MemoryStore::ProjectFolder::look_up
                                                             : core::MemoryStore::ProjectFolder::record);
            sdk::Decision forced;
            forced.store = true;
            forced.type = memory.type;
            forced.scope = memory.project.empty() ? "user" : "project";
            forced.summary = memory.body.empty() ? std::string{} : memory.summary; // derived, as for a line typed
            forced.tags = memory.tags;
            forced.reason = "stored with --force";
            request.forced = forced;
            const auto outcome = rememberer.remember(request);
            if (outcome.key.empty()) {
                throw std::runtime_error("memory " + memory.id + " was not stored: " + outcome.reason);
            }
            if (outcome.action == core::RememberOutcome::Action::updated) {
                ++restated;
            }
            ids_of_key_[outcome.key].insert(memory.id);
        }
        return restated;
    }

    /// Synthetic memories up to `size` in all: a third in the projects, in turn, the rest the user's.
    void pad(const InjectionData &data, std::size_t size) {
        const std::size_t stored = memory_count();
        if (size <= stored) {
            return;
        }
        std::vector<core::Scope> project_scopes;
        for (const auto &project : data.projects) {
            project_scopes.push_back(core::Scope::project(
                store().resolve_project(directory_of(project), core::MemoryStore::ProjectFolder::look_up)));
        }
        SyntheticMemoryGenerator generator{padding_seed, *core::parse_timestamp(fixed_now)};
        std::size_t next_project = 0;
        write_synthetic_memories(store(), generator, size - stored,
                                 [&](const SyntheticMemory &generated) {
                                     if (!generated.in_project || project_scopes.empty()) {
                                         return core::Scope::user();
                                     }
                                     return project_scopes[next_project++ % project_scopes.size()];
                                 });
        const auto report = store().rebuild_index();
        if (!report.unreadable.empty()) {
            throw std::runtime_error(report.unreadable.front().key + ": the store cannot read a padding memory: " +
                                     report.unreadable.front().message);
        }
    }

    /// Every collection's relevance index, as the hooks refresh it after their reply; the directory
    /// outside every project included, whose project has no memories.
    void index(const InjectionData &data) {
        std::vector<core::Scope> scopes{core::Scope::user()};
        std::vector<std::string> directories{""};
        directories.insert(directories.end(), data.projects.begin(), data.projects.end());
        for (const auto &project : directories) {
            scopes.push_back(core::Scope::project(
                store().resolve_project(directory_of(project), core::MemoryStore::ProjectFolder::look_up)));
        }
        core::refresh_relevance_indexes(store(), *application_->active_policies().relevance, scopes);
    }

    /// A session start in a project's working directory (or outside every project), as the
    /// session-start hook injects it: which labelled memories it shows in full or names by a line.
    SessionStartOutcome start_session(const InjectionData &data, const std::string &project_name,
                                      const core::InjectionSettings &settings) {
        const auto project =
            store().resolve_project(directory_of(project_name), core::MemoryStore::ProjectFolder::look_up);
        const auto injection = core::session_start_injection(store(), application_->active_policies().relevance,
                                                             project, project_name, {}, settings);
        SessionStartOutcome outcome;
        outcome.project = project_name;
        outcome.tokens = injection.tokens;
        for (const auto &memory : data.memories) {
            outcome.visible += memory.project.empty() || memory.project == project_name ? 1 : 0;
        }
        const auto labelled = [&](const std::string &key) {
            const auto found = ids_of_key_.find(key);
            return found == ids_of_key_.end() ? std::size_t{0} : found->second.size();
        };
        for (const auto &memory : injection.memories) {
            outcome.keys_in_full.push_back(memory.key);
            outcome.in_full += labelled(memory.key);
            if (const auto found = ids_of_key_.find(memory.key); found != ids_of_key_.end()) {
                outcome.ids_in_full.insert(found->second.begin(), found->second.end());
            }
        }
        for (const auto &key : injection.listed) {
            outcome.listed += labelled(key);
            const auto found = ids_of_key_.find(key);
            if (found == ids_of_key_.end()) {
                continue;
            }
            // A line is a memory's summary: all of it when the body says nothing beyond that, as
            // session start itself judges (the index's body excerpt is empty).
            const auto memory = store().read(key);
            if (core::body_excerpt(memory.summary, memory.body).empty()) {
                outcome.ids_whole_in_line.insert(found->second.begin(), found->second.end());
            }
        }
        return outcome;
    }

    [[nodiscard]] std::size_t memory_count() {
        return store().list_indexed(core::ListFilter{}).size();
    }

    /// The prompt as the prompt hook injects it: its working directory's project, nothing injected
    /// before in the session.
    PromptOutcome inject(const LabelledPrompt &prompt, const core::InjectionSettings &settings) {
        const auto injection = prompt_injection(prompt, settings, {});
        PromptOutcome outcome;
        outcome.id = prompt.id;
        outcome.tuning = prompt.tuning;
        outcome.has_relevant = !prompt.relevant.empty();
        outcome.injected = injection.memories.size();
        outcome.tokens = injection.tokens;
        outcome.best_score = injection.memories.empty() ? 0.0 : injection.memories.front().score;
        outcome.best_below_threshold = injection.best_below_threshold ? injection.best_below_threshold->score : 0.0;
        outcome.relevant_injected = relevant_among(prompt, injection);
        return outcome;
    }

    /// The prompt as the prompt hook injects it in a session that began with `start`, into `outcome`.
    void inject_in_session(const LabelledPrompt &prompt, const core::InjectionSettings &settings,
                           const SessionStartOutcome &start, PromptOutcome &outcome) {
        const auto injection = prompt_injection(prompt, settings, start.keys_in_full);
        outcome.injected_in_session = injection.memories.size();
        outcome.relevant_injected_in_session = relevant_among(prompt, injection);
        outcome.relevant_at_start = std::any_of(prompt.relevant.begin(), prompt.relevant.end(),
                                                [&](const std::string &id) { return start.ids_in_full.contains(id); });
        outcome.relevant_whole_in_line_at_start =
            std::any_of(prompt.relevant.begin(), prompt.relevant.end(),
                        [&](const std::string &id) { return start.ids_whole_in_line.contains(id); });
    }

private:
    [[nodiscard]] fs::path home() const { return root_ / "home"; }

    core::Injection prompt_injection(const LabelledPrompt &prompt, const core::InjectionSettings &settings,
                                     const std::vector<std::string> &already_injected) {
        const auto project =
            store().resolve_project(directory_of(prompt.project), core::MemoryStore::ProjectFolder::look_up);
        auto injection = core::prompt_injection(store(), *application_->active_policies().relevance, prompt.text,
                                                project, already_injected, settings);
        if (injection.index_stale) {
            throw std::runtime_error("prompt " + prompt.id +
                                     " was scored without the relevance index, which the benchmark had just built");
        }
        return injection;
    }

    /// How many of the memories `injection` gives are labelled relevant to `prompt`.
    std::size_t relevant_among(const LabelledPrompt &prompt, const core::Injection &injection) const {
        std::size_t relevant = 0;
        for (const auto &memory : injection.memories) {
            const auto found = ids_of_key_.find(memory.key);
            if (found == ids_of_key_.end()) {
                continue; // a padding memory
            }
            relevant += std::any_of(prompt.relevant.begin(), prompt.relevant.end(),
                                    [&](const std::string &id) { return found->second.contains(id); })
                            ? 1
                            : 0;
        }
        return relevant;
    }

    fs::path root_;
    ScopedEnvironment environment_;
    std::unique_ptr<app::Application> application_;
    std::map<std::string, std::set<std::string>> ids_of_key_; ///< memory key → the labelled ids stored as it
};

std::string percent(double rate) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(1) << 100.0 * rate << " %";
    return out.str();
}

std::string decimal(double value, int digits) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << value;
    return out.str();
}

std::string figures_row(const std::string &label, const HalfFigures &half) {
    return "| " + label + " | " + std::to_string(half.quiet) + "/" + std::to_string(half.unrelated) + " " +
           percent(half.quiet_rate()) + " | " + std::to_string(half.answered) + "/" + std::to_string(half.relevant) +
           " " + percent(half.answered_rate()) + " | " + percent(half.precision()) + " | " +
           decimal(share(half.tokens_unrelated, half.unrelated), 1) + " | " +
           decimal(share(half.tokens_relevant, half.relevant), 1) + " |\n";
}

nlohmann::json half_json(const HalfFigures &half) {
    return {{"unrelated", half.unrelated},
            {"quiet", half.quiet},
            {"quiet_rate", half.quiet_rate()},
            {"relevant", half.relevant},
            {"answered", half.answered},
            {"answered_rate", half.answered_rate()},
            {"in_context", half.in_context},
            {"in_context_rate", half.in_context_rate()},
            {"in_context_by_line", half.in_context_by_line},
            {"quiet_in_session", half.quiet_in_session},
            {"quiet_in_session_rate", half.quiet_in_session_rate()},
            {"precision", half.precision()},
            {"tokens_per_unrelated", share(half.tokens_unrelated, half.unrelated)},
            {"tokens_per_relevant", share(half.tokens_relevant, half.relevant)}};
}

} // namespace

void HalfFigures::add(const PromptOutcome &outcome) {
    if (outcome.has_relevant) {
        ++relevant;
        answered += outcome.relevant_injected > 0 ? 1 : 0;
        const bool in_full = outcome.relevant_injected_in_session > 0 || outcome.relevant_at_start;
        in_context += in_full || outcome.relevant_whole_in_line_at_start ? 1 : 0;
        in_context_by_line += !in_full && outcome.relevant_whole_in_line_at_start ? 1 : 0;
        tokens_relevant += outcome.tokens;
        injected_for_relevant += outcome.injected;
        relevant_injected += outcome.relevant_injected;
    } else {
        ++unrelated;
        quiet += outcome.injected == 0 ? 1 : 0;
        quiet_in_session += outcome.injected_in_session == 0 ? 1 : 0;
        tokens_unrelated += outcome.tokens;
    }
}

double HalfFigures::quiet_rate() const noexcept { return share(quiet, unrelated); }
double HalfFigures::answered_rate() const noexcept { return share(answered, relevant); }
double HalfFigures::in_context_rate() const noexcept { return share(in_context, relevant); }
double HalfFigures::quiet_in_session_rate() const noexcept { return share(quiet_in_session, unrelated); }
double HalfFigures::precision() const noexcept { return share(relevant_injected, injected_for_relevant); }

CheckHalfMisses check_half_misses(const StoreSizeReport &sized) {
    CheckHalfMisses misses;
    for (const auto &outcome : sized.outcomes) {
        if (outcome.tuning) {
            continue;
        }
        if (!outcome.has_relevant && outcome.injected > 0) {
            misses.noisy += " " + outcome.id + " (" + decimal(outcome.best_score, 3) + ")";
        }
        if (outcome.has_relevant && outcome.relevant_injected == 0) {
            misses.missed += " " + outcome.id;
        }
    }
    return misses;
}

InjectionReport run_injection_benchmark(const InjectionBenchOptions &options) {
    const auto data = load_injection_data(options.data);
    InjectionReport report;
    report.labelled_memories = data.memories.size();
    for (const auto size : options.sizes) {
        BenchStore bench{options, data, size};
        const auto settings = bench.application().lifecycle_settings().injection;
        report.relevance_policy = bench.application().config().policies.relevance;
        report.min_relevance = settings.min_relevance;
        report.relative_relevance = settings.relative_relevance;
        report.max_memories = settings.max_memories;
        report.budget_tokens = settings.budget_tokens;

        StoreSizeReport sized;
        sized.restated = bench.remember(data);
        bench.pad(data, size);
        bench.index(data);
        sized.memories = bench.memory_count();
        sized.session_starts.push_back(bench.start_session(data, "", settings));
        for (const auto &project : data.projects) {
            sized.session_starts.push_back(bench.start_session(data, project, settings));
        }
        for (const auto &prompt : data.prompts) {
            auto outcome = bench.inject(prompt, settings);
            const auto start = std::find_if(sized.session_starts.begin(), sized.session_starts.end(),
                                            [&](const SessionStartOutcome &started) { return started.project == prompt.project; });
            if (start == sized.session_starts.end()) {
                throw std::runtime_error("prompt " + prompt.id + " is in project " + prompt.project +
                                         ", which has no session start");
            }
            bench.inject_in_session(prompt, settings, *start, outcome);
            (prompt.tuning ? sized.tuning : sized.check).add(outcome);
            sized.outcomes.push_back(outcome);
        }
        for (const double threshold : options.sweep) {
            auto swept = settings;
            swept.min_relevance = threshold;
            ThresholdFigures figures{threshold, {}};
            for (const auto &prompt : data.prompts) {
                if (prompt.tuning) {
                    figures.tuning.add(bench.inject(prompt, swept));
                }
            }
            sized.sweep.push_back(figures);
        }
        report.sizes.push_back(std::move(sized));
    }
    return report;
}

std::string format_injection_report(const InjectionReport &report) {
    std::string out = "Relevance policy " + report.relevance_policy + ", injection.min_relevance " +
                      decimal(report.min_relevance, 3) + " (the best memory; the others at least " +
                      decimal(report.relative_relevance, 2) + " of its score, if lower), at most " + std::to_string(report.max_memories) +
                      " memories and " + std::to_string(report.budget_tokens) + " tokens per prompt; " +
                      std::to_string(report.labelled_memories) + " labelled memories.\n\n";
    out += "| store, half | quiet: unrelated prompts with nothing injected | answered: relevant memory injected "
           "| injected memories that are relevant | tokens per unrelated prompt | tokens per relevant prompt |\n";
    out += "|---|---:|---:|---:|---:|---:|\n";
    for (const auto &sized : report.sizes) {
        const auto label = std::to_string(sized.memories) + " memories, ";
        out += figures_row(label + "check", sized.check);
        out += figures_row(label + "tuning", sized.tuning);
    }
    for (const auto &sized : report.sizes) {
        const auto [noisy, missed] = check_half_misses(sized);
        out += "\nCheck half at " + std::to_string(sized.memories) + " memories (" + std::to_string(sized.restated) +
               " labelled memories folded into another when remembered): unrelated prompts that got memories (best "
               "score):" + (noisy.empty() ? " none" : noisy) + "; relevant prompts that got none of theirs:" +
               (missed.empty() ? " none" : missed) + ".\n";
    }
    bool swept = false;
    for (const auto &sized : report.sizes) {
        swept = swept || !sized.sweep.empty();
    }
    if (swept) {
        out += "\nTuning half at other thresholds:\n\n| store | injection.min_relevance | quiet | answered | "
               "injected memories that are relevant |\n|---|---:|---:|---:|---:|\n";
        for (const auto &sized : report.sizes) {
            for (const auto &row : sized.sweep) {
                out += "| " + std::to_string(sized.memories) + " | " + decimal(row.min_relevance, 3) + " | " +
                       percent(row.tuning.quiet_rate()) + " | " + percent(row.tuning.answered_rate()) + " | " +
                       percent(row.tuning.precision()) + " |\n";
            }
        }
    }
    return out;
}

nlohmann::json injection_report_json(const InjectionReport &report) {
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto &sized : report.sizes) {
        nlohmann::json prompts = nlohmann::json::array();
        for (const auto &outcome : sized.outcomes) {
            prompts.push_back({{"id", outcome.id},
                               {"half", outcome.tuning ? "tuning" : "check"},
                               {"has_relevant", outcome.has_relevant},
                               {"injected", outcome.injected},
                               {"relevant_injected", outcome.relevant_injected},
                               {"tokens", outcome.tokens},
                               {"best_score", outcome.best_score},
                               {"best_below_threshold", outcome.best_below_threshold},
                               {"relevant_at_start", outcome.relevant_at_start},
                               {"relevant_whole_in_line_at_start", outcome.relevant_whole_in_line_at_start},
                               {"injected_in_session", outcome.injected_in_session},
                               {"relevant_injected_in_session", outcome.relevant_injected_in_session}});
        }
        nlohmann::json sweep = nlohmann::json::array();
        for (const auto &row : sized.sweep) {
            sweep.push_back({{"min_relevance", row.min_relevance}, {"tuning", half_json(row.tuning)}});
        }
        sizes.push_back({{"memories", sized.memories},
                         {"restated", sized.restated},
                         {"check", half_json(sized.check)},
                         {"tuning", half_json(sized.tuning)},
                         {"sweep", sweep},
                         {"prompts", prompts}});
    }
    return {{"relevance_policy", report.relevance_policy},
            {"min_relevance", report.min_relevance},
            {"relative_relevance", report.relative_relevance},
            {"max_memories", report.max_memories},
            {"budget_tokens", report.budget_tokens},
            {"labelled_memories", report.labelled_memories},
            {"sizes", sizes}};
}

} // namespace starling::bench
