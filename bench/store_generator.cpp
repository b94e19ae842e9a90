// SPDX-License-Identifier: Apache-2.0
// starling-bench-store: writes a realistic store of N memories for the benchmarks.
//
// The files are written directly (synthetic_store.hpp says why), then the index is rebuilt once,
// exactly as `starling` would rebuild a garbled one.

#include "tool_cli.hpp"
#include "synthetic_memory.hpp"
#include "synthetic_store.hpp"

#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/io/time_format.hpp>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unistd.h>

namespace {

using starling::bench::parse_whole_number;
using starling::bench::UsageError;

namespace core = starling::core;
namespace fs = std::filesystem;

constexpr std::string_view usage =
    "usage: starling-bench-store --root DIR --memories N [--project-dir PATH] [--seed S] [--now ISO8601]\n"
    "  Writes N synthetic memories into a new store at DIR (missing or empty), rebuilds its index\n"
    "  and its INDEX.md files. About a third are in the project of --project-dir (default /work/app);\n"
    "  the rest are user memories. The same seed (default 1) and --now (default\n"
    "  2026-11-22T09:00:00Z) give the same store.\n";

/// A bad command line: reported with the usage text, exit 2.
struct Options {
    fs::path root;
    std::uint64_t memories = 0;
    fs::path project_directory = "/work/app";
    std::uint64_t seed = 1;
    std::chrono::sys_seconds now{};
};

Options parse_options(int argc, char **argv) {
    Options options;
    options.now = *core::parse_timestamp("2026-11-22T09:00:00Z");
    bool memories_given = false;
    for (int index = 1; index < argc; ++index) {
        const std::string_view option = argv[index];
        if (option == "--help" || option == "-h") {
            std::cout << usage;
            std::exit(0);
        }
        if (index + 1 >= argc) {
            throw UsageError(std::string{option} + " needs a value");
        }
        const std::string_view value = argv[++index];
        if (option == "--root") {
            options.root = value;
        } else if (option == "--memories") {
            options.memories = parse_whole_number<std::uint64_t>(value, option);
            memories_given = true;
        } else if (option == "--project-dir") {
            options.project_directory = value;
        } else if (option == "--seed") {
            options.seed = parse_whole_number<std::uint64_t>(value, option);
        } else if (option == "--now") {
            const auto now = core::parse_timestamp(value);
            if (!now) {
                throw UsageError("--now: expected an ISO-8601 time such as 2026-11-22T09:00:00Z, got '" +
                                 std::string{value} + "'");
            }
            options.now = *now;
        } else {
            throw UsageError("unknown option '" + std::string{option} + "'");
        }
    }
    if (options.root.empty() || !memories_given) {
        throw UsageError("--root and --memories are required");
    }
    return options;
}

/// The generator must never mix its memories into a real store, so it only writes into a fresh one.
void prepare_empty_root(const fs::path &root) {
    std::error_code error;
    const auto status = fs::status(root, error);
    if (fs::exists(status)) {
        if (!fs::is_directory(status)) {
            throw std::runtime_error(root.string() + ": exists and is not a directory");
        }
        if (!fs::is_empty(root)) {
            throw std::runtime_error(root.string() +
                                     ": exists and is not empty; give a new or empty directory to --root");
        }
        return;
    }
    fs::create_directories(root);
}

/// Progress on a terminal only: in a log file, a carriage-return counter is noise.
class Progress {
public:
    Progress(std::uint64_t total, bool enabled) : total_(total), enabled_(enabled) {}
    void update(std::uint64_t done) {
        if (enabled_ && (done % 1000 == 0 || done == total_)) {
            std::cerr << "\rstarling-bench-store: " << done << " / " << total_ << " memories" << std::flush;
        }
    }
    void finish(std::string_view next_step) {
        if (enabled_) {
            std::cerr << "\nstarling-bench-store: " << next_step << "\n" << std::flush;
        }
    }

private:
    std::uint64_t total_;
    bool enabled_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int generate(const Options &options) {
    const auto started = std::chrono::steady_clock::now();
    prepare_empty_root(options.root);
    const core::FixedClock clock{options.now};
    core::MemoryStore store{options.root, clock};
    const core::Scope user_scope = core::Scope::user();
    const core::Scope project_scope = core::Scope::project(store.resolve_project(options.project_directory));

    starling::bench::SyntheticMemoryGenerator generator{options.seed, options.now};
    Progress progress{options.memories, options.memories >= 10'000 && ::isatty(STDERR_FILENO) == 1};
    std::uint64_t in_project = 0;
    starling::bench::write_synthetic_memories(
        store, generator, options.memories,
        [&](const starling::bench::SyntheticMemory &generated) {
            in_project += generated.in_project ? 1 : 0;
            return generated.in_project ? project_scope : user_scope;
        },
        [&](std::uint64_t done) { progress.update(done); });
    const double writing_seconds = seconds_since(started);

    progress.finish("rebuilding the index");
    const auto indexing_started = std::chrono::steady_clock::now();
    const auto report = store.rebuild_index();
    if (!report.unreadable.empty()) {
        throw std::runtime_error(report.unreadable.front().key + ": the store cannot read a generated memory (" +
                                 std::to_string(report.unreadable.size()) + " in all): " +
                                 report.unreadable.front().message);
    }
    store.write_index_markdown(user_scope);
    store.write_index_markdown(project_scope);

    std::cout << "starling-bench-store: " << report.memories << " memories (" << in_project << " in project "
              << project_scope.project_id() << ") in " << store.root().string() << "; written in "
              << writing_seconds << " s, indexed in " << seconds_since(indexing_started) << " s\n";
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    return starling::bench::run_tool("starling-bench-store", usage, [&] { return generate(parse_options(argc, argv)); });
}
