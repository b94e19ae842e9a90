// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace starling::app::sharing {

/// The `git` program found on PATH. Throws SharingError naming PATH when there is none, so the
/// user learns what to install rather than seeing a failed exec.
[[nodiscard]] std::filesystem::path find_git();

/// What one git command printed, and how it ended.
struct GitResult {
    int exit_code = -1;
    std::string out;
    std::string err;
    [[nodiscard]] bool succeeded() const noexcept { return exit_code == 0; }
};

/// Runs git in one working tree as a child process, never through a shell. Every command gets an
/// identity derived from the machine (`-c user.name`, `-c user.email`), no signing, no hooks and no
/// terminal prompt, so that a commit works on a machine where the user never configured git and
/// the user's global configuration is read but never changed.
class Git {
public:
    Git(std::filesystem::path work_tree, std::string machine_id);

    [[nodiscard]] const std::filesystem::path &work_tree() const noexcept { return work_tree_; }

    /// Runs `git <arguments>` in the working tree, `input` on its standard input, and returns what
    /// happened.
    [[nodiscard]] GitResult run(const std::vector<std::string> &arguments, std::string input = {}) const;
    /// As run, but throws SharingError naming the command, the folder and git's own message when git
    /// fails; returns its standard output.
    std::string checked(const std::vector<std::string> &arguments, std::string input = {}) const;

private:
    std::filesystem::path program_;
    std::filesystem::path work_tree_;
    std::string machine_id_;
};

/// `text` without trailing line breaks: what one-line git answers (a commit id) are compared as.
[[nodiscard]] std::string trimmed(std::string text);

} // namespace starling::app::sharing
