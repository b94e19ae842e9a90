// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>

namespace starling::core {

/// The file that makes a directory a project of its own when it is not the root of a repository (or
/// is a part of one that should remember apart from the rest). Its content is not read.
inline constexpr const char *kProjectMarker = ".starling-project";

/// The directory that stands for the project `directory` is in, so that an agent started in
/// `repo/src` shares the memories of one started in `repo`: the nearest directory, `directory`
/// itself or an ancestor, that holds a `.starling-project` marker or a `.git` (a repository, or the
/// file of a worktree or submodule); `directory` itself when there is none. `home` and the file
/// system root are never taken as a project's root, however many dotfiles repositories hold them.
/// `directory` must be absolute and lexically normal; a directory that does not exist is its own root.
[[nodiscard]] std::filesystem::path project_root_of(const std::filesystem::path &directory,
                                                    const std::filesystem::path &home);

} // namespace starling::core
