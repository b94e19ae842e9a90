// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/relevance_index.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/store/memory_view_batch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>

namespace starling::core {

namespace {

/// A store that changes faster than it can be listed is indexed later, by the next hook.
constexpr int max_listing_attempts = 4;

/// A collection whose index is not current, with a listing of exactly the version it is labelled with.
struct PendingBuild {
    MemoryCollection collection;
    MemoryViewBatch memories;
};

/// The build `scope` needs, if any.
std::optional<PendingBuild> pending_build(MemoryStore &store, const RelevanceScorer &scorer, const Scope &scope) {
    ListFilter filter;
    filter.scope = scope;
    for (int attempt = 0; attempt < max_listing_attempts; ++attempt) {
        auto version = store.index_version();
        if (!version) {
            static_cast<void>(store.list_indexed(filter)); // creates the index
            continue;
        }
        MemoryCollection collection{collection_id(scope), std::move(*version)};
        if (scorer.index_current(collection)) {
            return std::nullopt;
        }
        IndexedMemories listing = store.list_indexed(filter);
        if (store.index_version() != collection.version) {
            continue;
        }
        return PendingBuild{std::move(collection),
                            MemoryViewBatch::with_body_excerpts(std::move(listing), store.clock().now())};
    }
    return std::nullopt;
}

std::string not_built(const std::string &collection_id) {
    return "the relevance index of '" + collection_id + "' was not built: ";
}

std::string read_text(int descriptor) {
    std::string text;
    char chunk[512];
    for (;;) {
        const ssize_t got = ::read(descriptor, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return text;
        }
        text.append(chunk, static_cast<std::size_t>(got));
    }
}

/// A build running in a child process, and the pipe its failure comes back through.
class ChildBuild {
public:
    /// Forks the child that builds `build`; nothing when the process cannot fork (the caller builds it).
    static std::optional<ChildBuild> start(const RelevanceScorer &scorer, const PendingBuild &build,
                                           std::chrono::milliseconds budget) {
        int failure_pipe[2];
        if (::pipe2(failure_pipe, O_CLOEXEC) != 0) {
            return std::nullopt;
        }
        const pid_t process = ::fork();
        if (process < 0) {
            ::close(failure_pipe[0]);
            ::close(failure_pipe[1]);
            return std::nullopt;
        }
        if (process == 0) {
            ::close(failure_pipe[0]);
            // SIGALRM's default action ends the child: a hung policy cannot hold the refresh.
            ::signal(SIGALRM, SIG_DFL);
            ::alarm(static_cast<unsigned>(std::max<std::chrono::milliseconds::rep>(1, (budget.count() + 999) / 1000)));
            int status = 0;
            try {
                scorer.build_index(build.collection, build.memories.batch());
            } catch (const std::exception &failure) {
                static_cast<void>(write_fully(failure_pipe[1], failure.what()));
                status = 1;
            } catch (...) {
                static_cast<void>(write_fully(failure_pipe[1], "an exception that is no std::exception"));
                status = 1;
            }
            // What the parent holds (its locks, buffers and temporary files) is not the child's to
            // tear down: no destructors, no exit handlers.
            ::_exit(status);
        }
        ::close(failure_pipe[1]);
        return ChildBuild{build.collection.id, process, failure_pipe[0], budget};
    }

    /// Waits for the child; why it failed, if it did.
    std::optional<std::string> finish() {
        const std::string reported = read_text(failure_pipe_); // ends when the child does
        ::close(failure_pipe_);
        int status = 0;
        pid_t waited = 0;
        do {
            waited = ::waitpid(process_, &status, 0);
        } while (waited < 0 && errno == EINTR);
        std::string why = not_built(collection_id_);
        if (waited < 0) {
            // Never taken for a success: with SIGCHLD ignored, say, its outcome is unknown.
            return why + "cannot learn how the process building it ended: " + std::generic_category().message(errno);
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            return std::nullopt;
        }
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
            why += "its build overran the budget of " + std::to_string(budget_.count()) +
                   " ms (plugins.call_budget_ms) and was ended";
        } else if (WIFSIGNALED(status)) {
            why += "the process building it was ended by signal " + std::to_string(WTERMSIG(status));
        } else {
            why += reported.empty() ? "the process building it exited with status " + std::to_string(WEXITSTATUS(status))
                                    : reported;
        }
        return why;
    }

private:
    ChildBuild(std::string collection_id, pid_t process, int failure_pipe, std::chrono::milliseconds budget)
        : collection_id_(std::move(collection_id)), process_(process), failure_pipe_(failure_pipe), budget_(budget) {}

    std::string collection_id_;
    pid_t process_;
    int failure_pipe_;
    std::chrono::milliseconds budget_;
};

/// Builds `group`: all but the last in child processes, the last here, then waits for every child.
/// Adds why a build failed to `failures`.
void build_together(const RelevanceScorer &scorer, std::span<const PendingBuild> group, const IndexBuilds &builds,
                    std::vector<std::string> &failures) {
    std::vector<ChildBuild> children;
    for (std::size_t index = 0; index < group.size(); ++index) {
        if (index + 1 < group.size()) {
            if (auto child = ChildBuild::start(scorer, group[index], builds.child_budget)) {
                children.push_back(std::move(*child));
                continue;
            }
        }
        try {
            scorer.build_index(group[index].collection, group[index].memories.batch());
        } catch (const std::exception &failure) {
            failures.push_back(not_built(group[index].collection.id) + failure.what());
        }
    }
    for (auto &child : children) {
        if (auto failure = child.finish()) {
            failures.push_back(std::move(*failure));
        }
    }
}

} // namespace

std::vector<Scope> prompt_scopes(const std::string &project_id) {
    std::vector<Scope> scopes{Scope::user()};
    if (!project_id.empty()) {
        scopes.push_back(Scope::project(project_id));
    }
    return scopes;
}

std::string collection_id(const Scope &scope) {
    return scope.is_user() ? std::string{"user"} : "projects/" + scope.project_id();
}

std::size_t refresh_relevance_indexes(MemoryStore &store, const RelevanceScorer &scorer,
                                      std::span<const Scope> scopes, const IndexBuilds &builds) {
    if (!scorer.keeps_index() || scopes.empty()) {
        return 0;
    }
    ensure_directories_beneath(store.root(), store.root() / "index");
    const FileLock builders{store.root() / "index" / "relevance.lock"};
    std::vector<PendingBuild> pending;
    for (const Scope &scope : scopes) {
        if (auto build = pending_build(store, scorer, scope)) {
            pending.push_back(std::move(*build));
        }
    }
    const std::size_t at_once =
        builds.at_once > 0 ? builds.at_once
                           : (pending.size() > 1 ? std::max<std::size_t>(1, std::thread::hardware_concurrency()) : 1);
    std::vector<std::string> failures;
    for (std::size_t first = 0; first < pending.size(); first += at_once) {
        const auto group = std::span<const PendingBuild>{pending}.subspan(first, std::min(at_once, pending.size() - first));
        build_together(scorer, group, builds, failures);
    }
    if (!failures.empty()) {
        std::string message = failures.front();
        for (std::size_t index = 1; index < failures.size(); ++index) {
            message += "; " + failures[index];
        }
        throw std::runtime_error(message);
    }
    return pending.size();
}

} // namespace starling::core
