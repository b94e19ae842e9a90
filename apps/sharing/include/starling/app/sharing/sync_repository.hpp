// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/sharing/git.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace starling::app::sharing {

/// The branch every sync repository keeps the memories on.
inline constexpr std::string_view sync_branch = "main";

/// One path that `git merge` left unmerged, with the versions it has: the common ancestor's (none
/// when both sides created it), this machine's and the other side's (none where that side deleted it).
struct UnmergedPath {
    std::string path;
    std::optional<std::string> base;
    std::optional<std::string> ours;
    std::optional<std::string> theirs;
};

/// The git working tree that `starling sync` keeps under `<store root>/sync/repo`: created on first
/// use, its merge driver pointed at the running `starling`, and brought back to a usable state when
/// a sync was killed halfway (stale lock files removed, an unfinished merge aborted).
class SyncRepository {
public:
    SyncRepository(std::filesystem::path work_tree, std::string machine_id);

    [[nodiscard]] const Git &git() const noexcept { return git_; }
    [[nodiscard]] const std::filesystem::path &work_tree() const noexcept { return git_.work_tree(); }

    /// Creates the repository if needed, writes its `.gitattributes` and points the `starling` merge
    /// driver at `driver_program`, and undoes what a killed git or sync left: lock files, an
    /// unfinished merge. Returns one sentence per thing repaired.
    std::vector<std::string> prepare(const std::filesystem::path &driver_program);

    /// The URL of `origin`, if set.
    [[nodiscard]] std::optional<std::string> origin() const;
    /// Sets `origin` to `url`.
    void set_origin(const std::string &url);

    /// The commit HEAD names; nothing before the first commit.
    [[nodiscard]] std::optional<std::string> head() const;
    /// The commit `refs/remotes/origin/main` names after a fetch; nothing when the remote has none.
    [[nodiscard]] std::optional<std::string> remote_head() const;
    /// Whether `ancestor` is an ancestor of (or equal to) `descendant`.
    [[nodiscard]] bool is_ancestor(const std::string &ancestor, const std::string &descendant) const;
    /// The parents of `commit`.
    [[nodiscard]] std::vector<std::string> parents(const std::string &commit) const;

    /// Stages everything under the shared folders and commits it with `message`; false when there
    /// was nothing to commit.
    bool commit_all(const std::string &message);

    /// The contents of `<commit>:<path>` for each path, read through one `git cat-file --batch`;
    /// a path the commit does not hold is absent from the answer.
    [[nodiscard]] std::map<std::string, std::string> read_files(const std::string &commit,
                                                                const std::vector<std::string> &paths) const;
    /// The files under `folder` in `commit`, as paths from the repository's root.
    [[nodiscard]] std::vector<std::string> list_files(const std::string &commit, const std::string &folder) const;
    /// The files under `folder` that differ between two commits, each with git's status letter
    /// (A, M or D; renames are seen as a deletion and an addition).
    [[nodiscard]] std::vector<std::pair<char, std::string>> changed_files(const std::string &from, const std::string &to,
                                                                          const std::string &folder) const;
    /// What an unfinished merge left unmerged, every version of each path read from the index.
    [[nodiscard]] std::vector<UnmergedPath> unmerged_paths() const;

private:
    Git git_;
};

} // namespace starling::app::sharing
