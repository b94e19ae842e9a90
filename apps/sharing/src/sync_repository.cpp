// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/sharing_error.hpp>
#include <starling/app/sharing/sync_repository.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

namespace starling::app::sharing {
namespace {

constexpr std::string_view attributes = "# Memories merge field by field, keeping both texts of a concurrent edit (starling sync).\n"
                                        "memories/**/*.md merge=starling\n";

/// Splits git's NUL-terminated output.
std::vector<std::string> split_nul(const std::string &text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\0', start), text.size());
        parts.emplace_back(text, start, end - start);
        start = end + 1;
    }
    return parts;
}

/// Single quotes for git's shell, which runs the merge driver's command line.
std::string shell_quoted(const std::string &text) {
    std::string quoted = "'";
    for (const char character : text) {
        quoted += character == '\'' ? std::string{"'\\''"} : std::string(1, character);
    }
    return quoted + "'";
}

} // namespace

SyncRepository::SyncRepository(std::filesystem::path work_tree, std::string machine_id)
    : git_(std::move(work_tree), std::move(machine_id)) {}

std::vector<std::string> SyncRepository::prepare(const std::filesystem::path &driver_program) {
    std::vector<std::string> repaired;
    const auto git_dir = work_tree() / ".git";
    if (!std::filesystem::exists(git_dir / "HEAD")) {
        std::filesystem::create_directories(work_tree());
        // No template: git's sample hooks hold words `starling scan` rightly takes for credentials.
        git_.checked({"init", "--quiet", "--template=", "--initial-branch=" + std::string{sync_branch}});
    }
    // Only starling sync works in this repository, under its lock: a lock file found now was left
    // by a git that was killed, and would stop every later command.
    for (const auto &lock : {git_dir / "index.lock", git_dir / "HEAD.lock", git_dir / "config.lock",
                             git_dir / "packed-refs.lock", git_dir / "ORIG_HEAD.lock", git_dir / "MERGE_HEAD.lock"}) {
        if (std::filesystem::remove(lock)) {
            repaired.push_back("removed " + lock.string() + ", left by a git process that was killed");
        }
    }
    if (std::filesystem::exists(git_dir / "refs")) {
        for (const auto &entry : std::filesystem::recursive_directory_iterator(git_dir / "refs")) {
            if (entry.path().extension() == ".lock" && std::filesystem::remove(entry.path())) {
                repaired.push_back("removed " + entry.path().string() + ", left by a git process that was killed");
            }
        }
    }
    if (std::filesystem::exists(git_dir / "MERGE_HEAD")) {
        if (!git_.run({"merge", "--abort"}).succeeded()) {
            git_.checked({"reset", "--merge"});
        }
        repaired.push_back("undid the merge an interrupted sync left unfinished; this sync merges again");
    }
    const auto attributes_file = work_tree() / ".gitattributes";
    if (core::read_file_if_exists(attributes_file) != std::optional<std::string>{std::string{attributes}}) {
        core::write_file_atomically(attributes_file, attributes);
    }
    const std::string driver = shell_quoted(driver_program.string()) + " sync merge-driver %O %A %B %P";
    if (trimmed(git_.run({"config", "--local", "--get", "merge.starling.driver"}).out) != driver) {
        git_.checked({"config", "--local", "merge.starling.name", "Starling memory merge"});
        git_.checked({"config", "--local", "merge.starling.driver", driver});
    }
    return repaired;
}

std::optional<std::string> SyncRepository::origin() const {
    const auto result = git_.run({"remote", "get-url", "origin"});
    return result.succeeded() ? std::optional<std::string>{trimmed(result.out)} : std::nullopt;
}

void SyncRepository::set_origin(const std::string &url) {
    const auto current = origin();
    if (current == url) {
        return;
    }
    git_.checked({"remote", current ? "set-url" : "add", "origin", url});
}

std::optional<std::string> SyncRepository::head() const {
    const auto result = git_.run({"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
    return result.succeeded() ? std::optional<std::string>{trimmed(result.out)} : std::nullopt;
}

std::optional<std::string> SyncRepository::remote_head() const {
    const auto result =
        git_.run({"rev-parse", "--verify", "--quiet", "refs/remotes/origin/" + std::string{sync_branch} + "^{commit}"});
    return result.succeeded() ? std::optional<std::string>{trimmed(result.out)} : std::nullopt;
}

bool SyncRepository::is_ancestor(const std::string &ancestor, const std::string &descendant) const {
    return git_.run({"merge-base", "--is-ancestor", ancestor, descendant}).succeeded();
}

std::vector<std::string> SyncRepository::parents(const std::string &commit) const {
    const auto line = trimmed(git_.checked({"rev-list", "--parents", "-n", "1", commit}));
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start < line.size()) {
        const auto end = std::min(line.find(' ', start), line.size());
        words.emplace_back(line, start, end - start);
        start = end + 1;
    }
    if (!words.empty()) {
        words.erase(words.begin());
    }
    return words;
}

bool SyncRepository::commit_paths(const std::vector<std::string> &paths, const std::string &message) {
    std::string input;
    for (const auto &path : paths) {
        input += path;
        input += '\0';
    }
    git_.checked({"update-index", "--add", "--remove", "-z", "--stdin"}, std::move(input));
    if (git_.run({"diff", "--cached", "--quiet"}).succeeded() && head()) {
        return false;
    }
    git_.checked({"commit", "--quiet", "--no-verify", "-m", message});
    return true;
}

void SyncRepository::take_remote_head(const std::string &commit) {
    // Without refreshing the index: its files are not in the working tree anyway (a refresh looked
    // for each of 100,000 and found none). Git before 2.38 has no --no-refresh: then with one.
    if (!git_.run({"reset", "--quiet", "--mixed", "--no-refresh", commit}).succeeded()) {
        git_.checked({"reset", "--quiet", "--mixed", commit});
    }
}

namespace {

/// Splits what `git cat-file --batch` printed for `requests` (one line each): the content of each,
/// nothing for one git reports missing.
std::vector<std::optional<std::string>> split_batch(const std::string &out, const std::vector<std::string> &requests,
                                                    const std::filesystem::path &work_tree) {
    std::vector<std::optional<std::string>> contents;
    contents.reserve(requests.size());
    std::size_t position = 0;
    for (const auto &request : requests) {
        const auto header_end = out.find('\n', position);
        if (header_end == std::string::npos) {
            throw SharingError("'git cat-file --batch' in " + work_tree.string() + " ended early at " + request);
        }
        const std::string_view header{out.data() + position, header_end - position};
        position = header_end + 1;
        if (header.ends_with(" missing")) {
            contents.emplace_back();
            continue;
        }
        const auto size = std::stoull(std::string{header.substr(header.rfind(' ') + 1)});
        contents.emplace_back(out.substr(position, size));
        position += size + 1;
    }
    return contents;
}

} // namespace

std::map<std::string, std::string> SyncRepository::read_files(const std::string &commit,
                                                              const std::vector<std::string> &paths) const {
    std::map<std::string, std::string> contents;
    if (paths.empty()) {
        return contents;
    }
    std::vector<std::string> requests;
    std::string input;
    for (const auto &path : paths) {
        requests.push_back(commit + ":" + path);
        input += requests.back() + "\n";
    }
    auto read = split_batch(git_.checked({"cat-file", "--batch", "--buffer"}, std::move(input)), requests, work_tree());
    for (std::size_t index = 0; index < paths.size(); ++index) {
        if (read[index]) {
            contents.emplace(paths[index], std::move(*read[index]));
        }
    }
    return contents;
}

std::vector<std::string> SyncRepository::read_objects(const std::vector<std::string> &objects) const {
    if (objects.empty()) {
        return {};
    }
    std::string input;
    input.reserve(objects.size() * 41);
    for (const auto &object : objects) {
        input += object + "\n";
    }
    auto read = split_batch(git_.checked({"cat-file", "--batch", "--buffer"}, std::move(input)), objects, work_tree());
    std::vector<std::string> contents;
    contents.reserve(objects.size());
    for (std::size_t index = 0; index < objects.size(); ++index) {
        if (!read[index]) {
            throw SharingError("git has no object " + objects[index] + " in " + work_tree().string());
        }
        contents.push_back(std::move(*read[index]));
    }
    return contents;
}

std::vector<TreeFile> SyncRepository::list_files(const std::string &commit, const std::string &folder) const {
    // "<mode> <type> <object>\t<path>" per file.
    std::vector<TreeFile> files;
    for (const auto &line : split_nul(git_.checked({"ls-tree", "-r", "-z", commit, "--", folder}))) {
        const auto tab = line.find('\t');
        const auto space = line.rfind(' ', tab);
        if (tab == std::string::npos || space == std::string::npos) {
            throw SharingError("'git ls-tree' in " + work_tree().string() + " printed an unexpected line: " + line);
        }
        files.push_back({'A', line.substr(tab + 1), line.substr(space + 1, tab - space - 1)});
    }
    return files;
}

std::vector<std::string> SyncRepository::list_folders(const std::string &commit, const std::string &folder) const {
    return split_nul(git_.checked({"ls-tree", "-d", "-z", "--name-only", commit, "--", folder}));
}

std::vector<TreeFile> SyncRepository::changed_files(const std::string &from, const std::string &to,
                                                    const std::string &folder) const {
    // ":<old mode> <new mode> <old object> <new object> <status>\0<path>\0" per file.
    const auto parts = split_nul(git_.checked({"diff", "--raw", "-z", "--no-abbrev", "--no-renames", from, to, "--", folder}));
    std::vector<TreeFile> changes;
    for (std::size_t index = 0; index + 1 < parts.size(); index += 2) {
        const auto &fields = parts[index];
        const auto status_space = fields.rfind(' ');
        const auto new_space = fields.rfind(' ', status_space - 1);
        const auto old_space = fields.rfind(' ', new_space - 1);
        if (status_space == std::string::npos || new_space == std::string::npos || old_space == std::string::npos ||
            status_space + 1 >= fields.size()) {
            throw SharingError("'git diff --raw' in " + work_tree().string() + " printed an unexpected line: " + fields);
        }
        const char status = fields[status_space + 1];
        const auto object = status == 'D' ? fields.substr(old_space + 1, new_space - old_space - 1)
                                          : fields.substr(new_space + 1, status_space - new_space - 1);
        changes.push_back({status, parts[index + 1], object});
    }
    return changes;
}

std::vector<UnmergedPath> SyncRepository::unmerged_paths() const {
    // `git ls-files -u -z`: "<mode> <object> <stage>\t<path>" per version of each unmerged path.
    std::vector<UnmergedPath> paths;
    for (const auto &line : split_nul(git_.checked({"ls-files", "--unmerged", "-z"}))) {
        const auto tab = line.find('\t');
        if (tab == std::string::npos || tab < 2) {
            continue;
        }
        const std::string path = line.substr(tab + 1);
        const char stage = line[tab - 1];
        if (paths.empty() || paths.back().path != path) {
            paths.push_back({path, {}, {}, {}});
        }
        auto text = git_.checked({"cat-file", "blob", ":" + std::string(1, stage) + ":" + path});
        (stage == '1' ? paths.back().base : stage == '2' ? paths.back().ours : paths.back().theirs) = std::move(text);
    }
    return paths;
}

} // namespace starling::app::sharing
