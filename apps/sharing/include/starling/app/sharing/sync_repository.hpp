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

/// A file of a commit, or one that differs between two commits, with the object holding its
/// content there (for a deletion, the object it had).
struct TreeFile {
    char status = 'A'; ///< git's status letter: A, M or D (a listing says A)
    std::string path;
    std::string object;
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

    /// Stages `paths` as they are in the working tree (a path gone from it is removed from the
    /// index) and commits what is staged with `message`; false when there was nothing to commit.
    /// Only the named paths are looked at: the working tree need not hold every file of the index
    /// (see take_remote_head), and a store of 100,000 memories is not scanned for 100 changes.
    bool commit_paths(const std::vector<std::string> &paths, const std::string &message);
    /// Makes `commit` the first HEAD of a repository that has none, in the index only: the working
    /// tree is not written, since a sync reads the repository's files from git and writes only those
    /// it changes (a fresh machine pulling 100,000 memories would otherwise write them twice).
    void take_remote_head(const std::string &commit);

    /// The contents of `<commit>:<path>` for each of a few paths, read through one
    /// `git cat-file --batch`; a path the commit does not hold is absent from the answer. Git finds
    /// each path by scanning its folder's tree: for many files, read_objects of what list_files or
    /// changed_files found.
    [[nodiscard]] std::map<std::string, std::string> read_files(const std::string &commit,
                                                                const std::vector<std::string> &paths) const;
    /// The contents of each object (as list_files and changed_files name them), in order, read
    /// through one `git cat-file --batch`. Throws SharingError naming an object git does not have.
    [[nodiscard]] std::vector<std::string> read_objects(const std::vector<std::string> &objects) const;
    /// The files under `folder` in `commit`, with paths from the repository's root.
    [[nodiscard]] std::vector<TreeFile> list_files(const std::string &commit, const std::string &folder) const;
    /// The folders directly inside `folder` (given with its trailing '/') in `commit`, with paths
    /// from the repository's root.
    [[nodiscard]] std::vector<std::string> list_folders(const std::string &commit, const std::string &folder) const;
    /// The files under `folder` that differ between two commits (renames are seen as a deletion and
    /// an addition).
    [[nodiscard]] std::vector<TreeFile> changed_files(const std::string &from, const std::string &to,
                                                      const std::string &folder) const;
    /// What an unfinished merge left unmerged, every version of each path read from the index.
    [[nodiscard]] std::vector<UnmergedPath> unmerged_paths() const;

private:
    Git git_;
};

} // namespace starling::app::sharing
