// SPDX-License-Identifier: Apache-2.0
#include "hook_run.hpp"

#include <starling/app/configured_plugin.hpp>
#include <starling/app/sharing/configured_team_folders.hpp>
#include <starling/core/bus/background_work.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/lifecycle/session_log.hpp>

#include <exception>

namespace starling::app {

namespace {

/// The event used when the payload cannot be parsed: enough for the adapter to render the safe
/// reply of the event named on the command line (the installed hooks always name it).
sdk::Event fallback_event(std::string_view adapter_id, const std::vector<std::string> &arguments) {
    sdk::Event event;
    event.kind = sdk::EventKind::other;
    event.agent = std::string{adapter_id};
    if (!arguments.empty()) {
        event.agent_event = arguments.front();
    }
    return event;
}

/// Whether the adapter declares a notify program and the last argument carries a JSON payload.
bool payload_in_arguments(const plugins::AdapterInstance &adapter, const std::vector<std::string> &arguments) {
    if (arguments.empty()) {
        return false;
    }
    const auto &last = arguments.back();
    const auto first = last.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || last[first] != '{') {
        return false;
    }
    try {
        const auto integration = adapter.integration();
        return integration && integration->notify && integration->notify->payload == "last_argument";
    } catch (const std::exception &) {
        return false;
    }
}

/// Says, in the log and on stderr, why the configuration file was not used — once per session.
void report_unusable_config(Application &application, const std::string &session_id, const core::Logger &logger,
                            const std::string &component) {
    std::optional<std::string> problem;
    try {
        problem = application.config_problem();
    } catch (const std::exception &) {
        return; // not even the defaults: already reported
    }
    if (problem && first_report_in_session(application, session_id, "configuration unusable")) {
        logger.warning(component, "configuration unusable, running on the embedded defaults until it is fixed "
                                  "(`starling config check` shows every error): " + *problem);
    }
}

/// Says, in the log and on stderr, that a plugin runs on its defaults because it refused the
/// settings of its table — once per session and table.
void report_refused_settings(Application &application, const std::string &session_id, const core::Logger &logger,
                             const std::string &component, const core::ConfigError &refused) {
    if (first_report_in_session(application, session_id, "plugin settings refused: " + refused.key())) {
        logger.warning(component, refused_settings_warning(refused));
    }
}

} // namespace

bool first_report_in_session(Application &application, const std::string &session_id, std::string_view problem) {
    try {
        core::SessionLog session{application.store().root() / "sessions",
                                 session_id.empty() ? "no-session" : session_id};
        return session.first_report_of(problem);
    } catch (const std::exception &) {
        return true;
    }
}

void report_configuration_problems(HookRun &run) {
    run.session_known = true;
    report_unusable_config(*run.application, run.event.session_id, *run.logger, run.component);
    for (const auto &refused : run.refused_settings) {
        report_refused_settings(*run.application, run.event.session_id, *run.logger, run.component, refused);
    }
    run.refused_settings.clear();
}

void note_refused_settings(HookRun &run, core::ConfigError refused) {
    if (run.session_known) {
        report_refused_settings(*run.application, run.event.session_id, *run.logger, run.component, refused);
    } else {
        run.refused_settings.push_back(std::move(refused));
    }
}

void parse_and_render_safe(HookRun &run) {
    run.event = fallback_event(run.adapter_id, run.arguments);
    // An agent's notify program gets its payload as the last argument with nothing on stdin; for
    // anything else an empty stdin means the agent (or its configuration) is broken.
    if (run.payload.total_bytes == 0 && !payload_in_arguments(*run.adapter, run.arguments)) {
        run.logger->warning(run.component, "empty payload on stdin; replying with the safe reply");
    }
    if (run.payload.truncated()) {
        run.logger->error(run.component, "payload of " + std::to_string(run.payload.total_bytes) +
                                             " bytes exceeds the " + std::to_string(kMaxPayloadBytes) +
                                             "-byte limit; ignored");
    } else {
        try {
            run.event = run.adapter->parse(run.arguments, run.payload.text);
            run.parsed = true;
        } catch (const std::exception &failure) {
            run.logger->error(run.component, std::string{"unreadable payload: "} + failure.what());
        }
    }
    try {
        run.safe = run.adapter->render(run.event, sdk::Reply{});
    } catch (const std::exception &failure) {
        run.logger->error(run.component, std::string{"cannot render the safe reply: "} + failure.what());
    }
    run.safe.exit_code = 0;
}

void log_prompt_before_plugins(HookRun &run) {
    if (run.event.kind != sdk::EventKind::prompt_submitted || run.event.prompt.empty()) {
        return;
    }
    try {
        run.logged_prompt_count = core::log_prompt(run.application->store(), run.event);
    } catch (const core::StoreError &failure) {
        run.store_unwritable = true;
        run.logger->warning(run.component, std::string{"cannot write the store ("} + failure.what() +
                                               "): this prompt is not captured; memories are still injected");
    } catch (const std::exception &failure) {
        run.logger->error(run.component, std::string{"cannot log the prompt: "} + failure.what());
    }
}

namespace {

/// The event's project resolved, and the lifecycle built and subscribed on the bus, in `stage`.
void build_stage(HookRun &run, ReplyStage &stage) {
    Application &application = *run.application;
    auto &store = application.store();
    if (!run.event.working_directory.empty()) {
        run.event.project = store.resolve_project(run.event.working_directory);
    }
    stage.bus.emplace(*run.logger);
    stage.lifecycle.emplace(store, application.active_policies(), application.lifecycle_settings(), *run.logger);
    if (run.logged_prompt_count) {
        stage.lifecycle->prompt_logged(*run.logged_prompt_count);
    }
    if (run.store_unwritable) {
        stage.lifecycle->store_unwritable();
    }
    stage.lifecycle->subscribe(*stage.bus);
    sharing::subscribe_team_folder_upkeep(*stage.bus, store, application.config().sharing, *run.logger);
}

} // namespace

void run_reply_stage(HookRun &run, ReplyStage &stage) {
    stage.rendered = run.safe;
    try {
        build_stage(run, stage);
        const auto dispatch = stage.bus->publish(run.event, core::Stage::reply);
        stage.rendered = run.adapter->render(run.event, dispatch.reply);
        if (!dispatch.reply.block_reason) {
            stage.rendered.exit_code = 0; // only a deliberate block may stop the agent
        }
    } catch (const std::exception &failure) {
        run.logger->error(run.component, std::string{"event failed, replied with the safe reply: "} + failure.what());
        stage.rendered = run.safe;
        stage.bus.reset();
    }
    // On a store that cannot be written, the work after the reply (folding uses, consolidating,
    // indexing) could only fail again.
    stage.after_reply = stage.bus && stage.lifecycle && !stage.lifecycle->store_unwritable_seen() &&
                        stage.bus->has_subscribers(run.event, core::Stage::after_reply);
}

std::optional<core::FileLock> ReplyStage::mark_after_reply_work(HookRun &run) const {
    if (!after_reply && !(lifecycle && lifecycle->has_reply_records())) {
        return std::nullopt;
    }
    try {
        return core::mark_background_work(run.application->store().root());
    } catch (const std::exception &failure) {
        run.logger->warning(run.component, std::string{"background work runs unmarked: "} + failure.what());
        return std::nullopt;
    }
}

void ReplyStage::write_reply_records() {
    if (lifecycle) {
        lifecycle->write_reply_records();
    }
}

void run_after_reply_stage_alone(HookRun &run, bool relevance_index_stale) {
    ReplyStage stage;
    try {
        build_stage(run, stage);
        if (relevance_index_stale) {
            stage.lifecycle->relevance_index_found_stale();
        }
        run.application->watch_plugin_calls();
        stage.publish_after_reply(run);
    } catch (const std::exception &failure) {
        run.logger->error(run.component, std::string{"the work after the reply failed: "} + failure.what());
    }
}

void ReplyStage::publish_after_reply(const HookRun &run) const {
    static_cast<void>(bus->publish(run.event, core::Stage::after_reply));
}

} // namespace starling::app
