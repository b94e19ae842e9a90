// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/git.hpp>
#include <starling/app/sharing/sharing_error.hpp>

#include <starling/app/child_process.hpp>

#include <unistd.h>

#include <cstdlib>
#include <string_view>
#include <utility>

namespace starling::app::sharing {

std::filesystem::path find_git() {
    const char *path_variable = std::getenv("PATH");
    const std::string_view path = path_variable == nullptr ? std::string_view{} : std::string_view{path_variable};
    std::size_t start = 0;
    while (start <= path.size()) {
        const auto end = std::min(path.find(':', start), path.size());
        const std::string_view folder = path.substr(start, end - start);
        if (!folder.empty()) {
            const auto candidate = std::filesystem::path{folder} / "git";
            if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) {
                return candidate;
            }
        }
        start = end + 1;
    }
    throw SharingError("the git program was not found in PATH (" + std::string{path} +
                       "): install git, or add the folder holding it to PATH");
}

Git::Git(std::filesystem::path work_tree, std::string machine_id)
    : program_(find_git()), work_tree_(std::move(work_tree)), machine_id_(std::move(machine_id)) {}

GitResult Git::run(const std::vector<std::string> &arguments, std::string input) const {
    std::vector<std::string> words{"-c", "user.name=Starling on " + machine_id_,
                                   "-c", "user.email=" + machine_id_ + "@starling.invalid",
                                   "-c", "commit.gpgsign=false",
                                   "-c", "core.hooksPath=/dev/null",
                                   "-c", "core.quotePath=false"};
    words.insert(words.end(), arguments.begin(), arguments.end());
    app::ProcessOptions options;
    options.stdin_text = std::move(input);
    options.working_directory = work_tree_;
    options.environment = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}, {"GIT_MERGE_AUTOEDIT", "no"}};
    // A repository found above the working tree must never be the one written to.
    options.environment.emplace("GIT_CEILING_DIRECTORIES", work_tree_.parent_path().string());
    const auto result = app::run_process(program_, words, options);
    return {result.exit_code, result.stdout_text, result.stderr_text};
}

std::string Git::checked(const std::vector<std::string> &arguments, std::string input) const {
    auto result = run(arguments, std::move(input));
    if (!result.succeeded()) {
        std::string command = "git";
        for (const auto &argument : arguments) {
            command += " " + argument;
        }
        throw SharingError("'" + command + "' failed in " + work_tree_.string() + ": " + trimmed(result.err));
    }
    return std::move(result.out);
}

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
        text.pop_back();
    }
    return text;
}

} // namespace starling::app::sharing
