// SPDX-License-Identifier: Apache-2.0
// The commands that run the lifecycle by hand: consolidate (its report: consolidation_report.hpp),
// index and inject; and wait, for the part of it that hooks leave running in the background.
#include "command_reference.hpp"
#include "commands.hpp"
#include "consolidation_report.hpp"
#include "skipped_memories.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/bus/background_work.hpp>
#include <starling/core/lifecycle/consolidation.hpp>
#include <starling/core/lifecycle/injection.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/core/lifecycle/session_log.hpp>

#include <array>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace starling::app {

int run_consolidate_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("consolidate", words);
    arguments.expect_operands(0, 0, "");
    const auto *decay = application.decay_policy();
    if (!decay) {
        throw std::runtime_error("no decay policy is active (set policies.decay)");
    }
    const bool dry_run = arguments.flag("dry-run");
    auto &store = application.store();
    // What the report says of each memory acted on is what it was before: an archived or merged
    // memory is gone afterwards. The index alone, read in place: consolidate lists the files itself.
    const auto before = store.list_indexed();
    const auto started = std::chrono::steady_clock::now();
    const auto report = core::consolidate(store, *decay, dry_run);
    const ConsolidationRun run{report, dry_run, application.clock().now(), std::chrono::steady_clock::now() - started,
                               before};
    report_skipped_memories(application);
    if (arguments.flag("json")) {
        nlohmann::json actions = nlohmann::json::array();
        for (const auto &applied : report.actions) {
            auto item = sdk::to_json(applied.action);
            item["applied"] = applied.applied;
            item["result"] = applied.result;
            actions.push_back(item);
        }
        nlohmann::json out{{"memories", report.memories},
                           {"dry_run", dry_run},
                           {"actions", actions},
                           {"finished_merges", report.finished_merges}};
        out.update(consolidation_groups_json(run));
        print_json(out);
        return 0;
    }
    std::cout << consolidation_text(run);
    return 0;
}

int run_index_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("index", words);
    arguments.expect_operands(0, 0, "");
    const auto *relevance = application.active_policies().relevance;
    if (relevance == nullptr) {
        throw std::runtime_error("no relevance policy is active (set policies.relevance)");
    }
    auto &store = application.store();
    const std::filesystem::path directory = arguments.value("cwd").value_or(std::filesystem::current_path().string());
    const auto scopes =
        core::prompt_scopes(store.resolve_project(directory, core::MemoryStore::ProjectFolder::look_up));
    static_cast<void>(store.list()); // picks up files edited by hand, which hooks would only see later
    const bool keeps_index = relevance->keeps_index();
    const auto built = core::refresh_relevance_indexes(store, *relevance, scopes, application.index_builds());
    report_skipped_memories(application, scopes);
    std::vector<std::string> collections;
    for (const auto &scope : scopes) {
        collections.push_back(core::collection_id(scope));
    }
    if (arguments.flag("json")) {
        print_json({{"keeps_index", keeps_index}, {"collections", collections}, {"built", built}});
        return 0;
    }
    if (!keeps_index) {
        std::cout << "the relevance policy keeps no index: every prompt scores the memories it lists\n";
        return 0;
    }
    std::cout << "built " << built << " of " << collections.size() << " indexes (" << collections.front() << ", "
              << collections.back() << "); the others were current\n";
    return 0;
}

int run_wait_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("wait", words);
    arguments.expect_operands(0, 0, "");
    core::wait_for_background_work(application.store().root());
    return 0;
}

namespace {

/// What `inject` ranks for a prompt: the words typed after the command, as `search` takes its
/// query, or --prompt TEXT. A session start has none.
std::optional<std::string> prompt_to_inject(const Arguments &arguments, std::string_view event) {
    auto prompt = arguments.value("prompt");
    if (event == "session-start") {
        arguments.expect_operands(0, 0, "");
        if (prompt) {
            throw UsageError("--prompt is for --event prompt: a session start has no prompt");
        }
        return std::nullopt;
    }
    if (event != "prompt") {
        throw UsageError("--event must be session-start or prompt, not '" + std::string{event} + "'");
    }
    if (!arguments.operands().empty()) {
        if (prompt) {
            throw UsageError("inject takes the prompt as --prompt TEXT or as its words, not both (unexpected '" +
                             arguments.operands().front() + "')");
        }
        prompt = arguments.joined_operands();
    }
    if (!prompt) {
        throw UsageError("inject --event prompt needs the prompt: starling inject TEXT, or --prompt TEXT");
    }
    return prompt;
}

} // namespace

int run_inject_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("inject", words);
    const auto event = arguments.value("event").value_or("prompt");
    const auto prompt = prompt_to_inject(arguments, event);
    const std::filesystem::path directory = arguments.value("cwd").value_or(std::filesystem::current_path().string());
    take_configured_team_folder(application, directory);
    auto &store = application.store();
    const auto project = store.resolve_project(directory, core::MemoryStore::ProjectFolder::look_up);
    std::vector<std::string> already;
    if (const auto session = arguments.value("session")) {
        already = core::SessionLog{store.root() / "sessions", *session}.state().injected;
    }
    const auto settings = application.lifecycle_settings().injection;
    const auto *relevance = application.active_policies().relevance;
    core::Injection injection;
    if (!prompt) {
        // A session start gives its standing memories whatever the session was given before, as the hook does.
        injection = core::session_start_injection(store, relevance, project,
                                                  directory.filename().string() + " " + project, {}, settings);
    } else {
        if (relevance == nullptr) {
            throw std::runtime_error("no relevance policy is active (set policies.relevance)");
        }
        injection = core::prompt_injection(store, *relevance, *prompt, project, already, settings);
    }
    report_skipped_memories(application, core::prompt_scopes(project));
    if (arguments.flag("json")) {
        nlohmann::json memories = nlohmann::json::array();
        for (const auto &memory : injection.memories) {
            memories.push_back(
                {{"key", memory.key}, {"score", memory.score}, {"tokens", memory.tokens}, {"reason", memory.reason}});
        }
        nlohmann::json below = nullptr;
        if (const auto &best = injection.best_below_threshold) {
            below = {{"key", best->key},
                     {"score", best->score},
                     {"min_relevance", injection.threshold},
                     {"general_question", injection.held_as_question}};
        }
        print_json({{"event", event},
                    {"budget_tokens", settings.budget_tokens},
                    {"tokens", injection.tokens},
                    {"memories", memories},
                    {"best_below_threshold", below},
                    {"context", injection.context}});
        return 0;
    }
    std::cout << "# " << injection.tokens << " of " << settings.budget_tokens << " tokens, "
              << count_of(injection.memories.size(), "memory", "memories") << '\n';
    for (const auto &memory : injection.memories) {
        std::cout << "# " << format_score(memory.score) << "  " << memory.key << " (" << memory.tokens
                  << " tokens)\n";
    }
    if (const auto &best = injection.best_below_threshold) {
        // Why nothing was injected: a user tuning injection.min_relevance needs the score it missed by.
        // A general question is held to injection.question_relevance by its own words instead.
        std::array<char, 32> threshold{};
        const auto written = std::to_chars(threshold.data(), threshold.data() + threshold.size(), injection.threshold);
        const std::string_view least{threshold.data(), static_cast<std::size_t>(written.ptr - threshold.data())};
        if (injection.held_as_question) {
            std::cout << "# a general question: nothing matches its own words (before feedback) by "
                         "injection.question_relevance ("
                      << least << ") or more; the best memory:\n";
        } else {
            std::cout << "# nothing scores injection.min_relevance (" << least << ") or more; the best memory:\n";
        }
        std::cout << "# " << format_score(best->score) << "  " << best->key << '\n';
    }
    std::cout << injection.context << (injection.context.empty() ? "" : "\n");
    return 0;
}

} // namespace starling::app
