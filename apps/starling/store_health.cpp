// SPDX-License-Identifier: Apache-2.0
#include "store_health.hpp"

#include "store_leftovers.hpp"

#include <starling/app/output.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/index/index_entry.hpp>

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

namespace starling::app {

namespace {

using Severity = HealthFinding::Severity;

HealthFinding finding(Severity severity, std::string area, std::string subject, std::string detail,
                      std::string remedy = {}) {
    return {severity, std::move(area), std::move(subject), std::move(detail), std::move(remedy)};
}

void check_configuration(Application &application, std::vector<HealthFinding> &findings) {
    const auto file = application.config_file().value_or(core::default_config_file(application.environment()));
    if (const auto &problem = application.config_problem()) {
        findings.push_back(finding(Severity::problem, "configuration", file.string(),
                                   "unusable, so hooks run on the embedded defaults: " + *problem,
                                   "run `starling config check " + file.string() + "` and fix every error it lists"));
        return;
    }
    std::error_code error;
    findings.push_back(std::filesystem::exists(file, error)
                           ? finding(Severity::ok, "configuration", file.string(), "read without errors")
                           : finding(Severity::ok, "configuration", file.string(),
                                     "no file: the embedded defaults apply (`starling config show` prints them)"));
}

/// Who besides the user may read or change the store: memories and session logs hold what the user
/// typed, so others reading them is worth a warning, and others writing them — or owning a folder of
/// it, which lets them write it when they like — a problem: what is planted there reaches the
/// user's agents.
void check_permissions(const std::filesystem::path &directory, std::vector<HealthFinding> &findings) {
    struct stat status {};
    if (::lstat(directory.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) {
        return;
    }
    if (status.st_uid != ::geteuid()) {
        findings.push_back(finding(Severity::problem, "store", directory.string(),
                                   "owned by another user (uid " + std::to_string(status.st_uid) +
                                       "), who could plant or change memories",
                                   "chown -R \"$(id -u)\" '" + directory.string() + "'"));
    } else if ((status.st_mode & S_IWOTH) != 0) {
        findings.push_back(finding(Severity::problem, "store", directory.string(),
                                   "every user can write here, so anyone could plant or change memories",
                                   "chmod o-w '" + directory.string() + "'"));
    } else if ((status.st_mode & S_IWGRP) != 0) {
        findings.push_back(finding(Severity::problem, "store", directory.string(),
                                   "your group can write here, so its members could plant or change memories",
                                   "chmod g-w '" + directory.string() + "'"));
    } else if ((status.st_mode & (S_IRGRP | S_IROTH)) != 0) {
        findings.push_back(finding(Severity::warning, "store", directory.string(),
                                   "other users can read here (memories and session logs hold what you typed)",
                                   "chmod -R go-rwx '" + directory.string() + "'"));
    }
}

/// Whether Starling can record here. A read-only mount, an agent's sandbox or a full disk leave
/// every read working, so nothing else would show it: hooks still inject, but capture nothing,
/// and remember, forget and consolidate fail.
void check_writable(const std::filesystem::path &root, std::vector<HealthFinding> &findings) {
    constexpr std::string_view consequence =
        ": hooks still inject what is stored, but record nothing you say, and remember, forget and "
        "consolidate fail";
    for (const auto &folder : {root, root / "memory", root / "sessions", root / "index"}) {
        std::error_code error;
        if (std::filesystem::is_directory(folder, error) && ::access(folder.c_str(), W_OK) != 0) {
            const int cause = errno;
            findings.push_back(finding(Severity::problem, "store", folder.string(),
                                       "cannot be written here (" + std::string{std::strerror(cause)} + ")" +
                                           std::string{consequence},
                                       cause == EROFS ? "run Starling where the store is mounted read-write "
                                                        "(outside the agent's sandbox, see `mount`)"
                                                      : "chmod u+w '" + folder.string() + "'"));
            return;
        }
    }
    // What one hook appends (a prompt, its log lines) is small; less than this left is a disk that
    // the next session fills.
    constexpr unsigned long long enough_bytes = 4ULL << 20;
    struct statvfs disk {};
    if (::statvfs(root.c_str(), &disk) == 0) {
        const auto free_bytes = static_cast<unsigned long long>(disk.f_bavail) * disk.f_frsize;
        if (free_bytes < enough_bytes) {
            findings.push_back(finding(Severity::problem, "store", root.string(),
                                       "the disk holding it has " + std::to_string(free_bytes / 1024) + " KiB free" +
                                           std::string{consequence},
                                       "free space on that disk (`df -h '" + root.string() + "'`)"));
        }
    }
}

void check_store(Application &application, std::vector<HealthFinding> &findings) {
    const auto &root = application.config().store.root;
    std::error_code error;
    if (!std::filesystem::exists(root, error)) {
        findings.push_back(finding(Severity::ok, "store", root.string(),
                                   "no store yet: it is created with the first memory or hook"));
        return;
    }
    check_permissions(root, findings);
    for (const char *part : {"memory", "sessions", "archive", "index", "logs"}) {
        check_permissions(root / part, findings);
    }
    check_writable(root, findings);
    // Every folder of memories too: one a stranger can write (memory/user/long, a project's) is as
    // good as the whole store for planting a memory.
    std::filesystem::recursive_directory_iterator folders{root / "memory", error};
    for (const auto end = std::filesystem::recursive_directory_iterator{}; !error && folders != end;
         folders.increment(error)) {
        if (folders->is_directory(error) && !folders->is_symlink(error)) {
            check_permissions(folders->path(), findings);
        }
    }
    error.clear();
    try {
        core::refuse_if_others_can_change_store(root);
    } catch (const std::exception &) {
        return; // Starling refuses such a store, and the finding above says what to do
    }
    auto &store = application.store();
    const auto memories = store.list();
    findings.push_back(finding(Severity::ok, "store", store.root().string(),
                               count_of(memories.size(), "memory", "memories") + " readable"));
    for (const auto &folder : store.skipped_folders()) {
        findings.push_back(finding(Severity::problem, "store", folder.path,
                                   "skipped by every command and hook: " + folder.reason,
                                   "move what it holds into a real folder at " + folder.path +
                                       " inside the store (`mv`), or remove it"));
    }
    for (const auto &file : store.unreadable()) {
        findings.push_back(finding(Severity::problem, "memory", file.key,
                                   "skipped by every command and hook, since it cannot be read as a memory: " + file.message,
                                   "fix its frontmatter (`starling show " + file.key + "` prints it; docs/memories.md lists the fields), or, if it is no memory file (a link, say), move it out of the store"));
    }
    try {
        for (auto &leftover : check_store_leftovers(application)) {
            findings.push_back(std::move(leftover));
        }
    } catch (const std::exception &failure) {
        findings.push_back(finding(Severity::problem, "store", store.root().string(),
                                   std::string{"cannot look for what killed processes left: "} + failure.what(),
                                   "fix the file it names, then run `starling doctor` again"));
    }
}

void check_plugins(Application &application, std::vector<HealthFinding> &findings) {
    auto &registry = application.registry();
    for (const auto &problem : registry.problems()) {
        findings.push_back(finding(Severity::problem, "plugins", problem.file.string(), problem.message(),
                                   "remove the module from the plugin directory, or rebuild it against this SDK"));
    }
    for (const auto &copy : registry.copies_of_linked_plugins()) {
        findings.push_back(finding(Severity::ok, "plugins", copy.file.string(),
                                   "a copy of " + copy.plugin_id + " " + copy.version +
                                       ", which is linked in; the linked-in one is used"));
    }
    if (registry.problems().empty()) {
        findings.push_back(finding(Severity::ok, "plugins", "",
                                   std::to_string(registry.plugins().size()) + " plugins available"));
    }
}

} // namespace

bool store_is_checkable(Application &application) {
    if (application.environment().starling_home_problem) {
        return false;
    }
    const auto &root = application.config().store.root;
    std::error_code error;
    if (!std::filesystem::exists(root, error)) {
        return false;
    }
    try {
        core::refuse_if_others_can_change_store(root);
    } catch (const std::exception &) {
        return false;
    }
    return true;
}

std::vector<HealthFinding> check_store_health(Application &application) {
    std::vector<HealthFinding> findings;
    const auto &environment = application.environment();
    if (environment.starling_home_problem) {
        findings.push_back(finding(Severity::problem, "store", "STARLING_HOME", *environment.starling_home_problem,
                                   "export STARLING_HOME=/an/absolute/folder, or unset it for ~/.starling"));
        return findings;
    }
    check_configuration(application, findings);
    check_store(application, findings);
    check_plugins(application, findings);
    return findings;
}

} // namespace starling::app
