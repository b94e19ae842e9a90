// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>

#include <filesystem>
#include <span>
#include <string>

namespace starling::app {

/// Each command takes the words after its name and returns the process exit code.
int run_plugins_command(Application &application, std::span<const std::string> words);
int run_config_command(Application &application, std::span<const std::string> words);
int run_remember_command(Application &application, std::span<const std::string> words);
int run_classify_command(Application &application, std::span<const std::string> words);
int run_search_command(Application &application, std::span<const std::string> words);
int run_mcp_command(Application &application, std::span<const std::string> words);
int run_list_command(Application &application, std::span<const std::string> words);
int run_show_command(Application &application, std::span<const std::string> words);
int run_why_command(Application &application, std::span<const std::string> words);
int run_log_command(Application &application, std::span<const std::string> words);
int run_forget_command(Application &application, std::span<const std::string> words);
int run_pin_command(Application &application, std::span<const std::string> words);
int run_feedback_command(Application &application, std::span<const std::string> words);
int run_unpin_command(Application &application, std::span<const std::string> words);
int run_restore_command(Application &application, std::span<const std::string> words);
int run_archive_command(Application &application, std::span<const std::string> words);
int run_consolidate_command(Application &application, std::span<const std::string> words);
int run_index_command(Application &application, std::span<const std::string> words);
int run_inject_command(Application &application, std::span<const std::string> words);
int run_wait_command(Application &application, std::span<const std::string> words);
int run_install_command(Application &application, std::span<const std::string> words);
int run_uninstall_command(Application &application, std::span<const std::string> words);
int run_doctor_command(Application &application, std::span<const std::string> words);
int run_health_command(Application &application, std::span<const std::string> words);
int run_scan_command(Application &application, std::span<const std::string> words);
int run_profile_command(Application &application, std::span<const std::string> words);
int run_import_command(Application &application, std::span<const std::string> words);
/// `import history`: the words after "history".
int run_import_history_command(Application &application, std::span<const std::string> words);
int run_export_command(Application &application, std::span<const std::string> words);
int run_sync_command(Application &application, std::span<const std::string> words);
int run_share_command(Application &application, std::span<const std::string> words);
/// Before a command reads the project of `directory`, when `[sharing] projects` names it: takes
/// what its team folder holds into the project's memories, as the hooks do, so that `search` and
/// `inject` see what teammates shared. Only reads the folder; notes go to stderr.
void take_configured_team_folder(Application &application, const std::filesystem::path &directory);
int run_private_command(Application &application, std::span<const std::string> words);
int run_unprivate_command(Application &application, std::span<const std::string> words);
/// `starling ui`: serves the memory viewer until Ctrl-C or the idle time.
int run_ui_command(Application &application, std::span<const std::string> words);

} // namespace starling::app
