// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/fault_injection.hpp>

#include <starling/core/io/store_error.hpp>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace starling::core {
namespace {

constexpr std::string_view kill_before_rename_name = "kill-before-rename";
constexpr std::string_view kill_at_name = "kill-at=";
constexpr std::string_view no_space_at_name = "no-space-at=";

/// The step a process is to die at, read from the environment.
struct Selection {
    /// Nothing for `any`.
    std::optional<FaultStep> step;
    /// Only the renames of atomic writes count (the first spelling).
    bool atomic_writes_only = false;
    unsigned at = 0; ///< 0: no fault
    std::optional<std::size_t> write_bytes; ///< `@B`: how much of the selected write is written
    bool no_space = false;                  ///< `no-space-at=`: fail with ENOSPC, do not die
};

/// The selection and the steps counted so far. The pid is part of the cache key because a forked
/// child inherits the parent's counts but must read its own environment and count its own steps.
struct Fault {
    pid_t pid = 0;
    Selection selection;
    unsigned steps = 0;
};

[[noreturn]] void unknown(std::string_view text) {
    throw StoreError(std::string(fault_injection_environment_variable) + "='" + std::string{text} +
                     "' is not a known fault (known: kill-at=<step>[:N] with step write, rename, unlink, lock "
                     "or any, for the N-th such step of a process; kill-at=write:N@B and no-space-at=write:N@B "
                     "for a write cut after B bytes; kill-before-rename[:N] for the N-th atomic write)");
}

/// N of an optional ":N" suffix: 1 when absent.
unsigned count_of(std::string_view suffix, std::string_view text) {
    if (suffix.empty()) {
        return 1;
    }
    unsigned count = 0;
    const auto [end, error] = std::from_chars(suffix.data() + 1, suffix.data() + suffix.size(), count);
    if (suffix.front() != ':' || error != std::errc{} || end != suffix.data() + suffix.size() || count == 0) {
        unknown(text);
    }
    return count;
}

std::optional<FaultStep> step_named(std::string_view name, std::string_view text) {
    if (name == "write") {
        return FaultStep::write;
    }
    if (name == "rename") {
        return FaultStep::rename;
    }
    if (name == "unlink") {
        return FaultStep::unlink;
    }
    if (name == "lock") {
        return FaultStep::lock;
    }
    if (name != "any") {
        unknown(text);
    }
    return std::nullopt;
}

Selection parse(const char *value) {
    const std::string_view text = value == nullptr ? std::string_view{} : std::string_view{value};
    if (text.empty()) {
        return {};
    }
    if (text.starts_with(kill_before_rename_name)) {
        return {FaultStep::rename, true, count_of(text.substr(kill_before_rename_name.size()), text), std::nullopt, false};
    }
    const bool no_space = text.starts_with(no_space_at_name);
    if (!no_space && !text.starts_with(kill_at_name)) {
        unknown(text);
    }
    std::string_view rest = text.substr(no_space ? no_space_at_name.size() : kill_at_name.size());
    std::optional<std::size_t> write_bytes;
    if (const auto at = rest.find('@'); at != std::string_view::npos) {
        std::size_t bytes = 0;
        const auto [end, error] = std::from_chars(rest.data() + at + 1, rest.data() + rest.size(), bytes);
        if (error != std::errc{} || end != rest.data() + rest.size()) {
            unknown(text);
        }
        write_bytes = bytes;
        rest = rest.substr(0, at);
    }
    const auto colon = rest.find(':');
    const std::string_view name = rest.substr(0, colon);
    const std::string_view suffix = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon);
    const auto step = step_named(name, text);
    if ((write_bytes || no_space) && step != FaultStep::write) {
        unknown(text); // only a write can be cut at a byte or run out of space
    }
    return {step, false, count_of(suffix, text), write_bytes, no_space};
}

/// The selection when this step is the selected one.
std::optional<Selection> counts_and_hits(FaultStep step, FaultOrigin origin) {
    static std::mutex guard;
    static Fault fault;
    const std::lock_guard<std::mutex> lock{guard};
    const pid_t pid = ::getpid();
    if (fault.pid != pid) {
        fault = Fault{pid, parse(std::getenv(fault_injection_environment_variable)), 0};
    }
    const Selection &selection = fault.selection;
    if (selection.at == 0 || (selection.step && *selection.step != step) ||
        (selection.atomic_writes_only && origin != FaultOrigin::atomic_write)) {
        return std::nullopt;
    }
    return ++fault.steps == selection.at ? std::optional<Selection>{selection} : std::nullopt;
}

} // namespace

void fault_point(FaultStep step, FaultOrigin origin) {
    if (counts_and_hits(step, origin)) {
        die_of_fault();
    }
}

std::optional<WriteFault> fault_tears_write(std::size_t size) {
    const auto selection = counts_and_hits(FaultStep::write, FaultOrigin::other);
    if (!selection) {
        return std::nullopt;
    }
    return WriteFault{std::min(size, selection->write_bytes.value_or(size / 2)), selection->no_space};
}

void die_of_fault() {
    std::raise(SIGKILL);
    std::abort(); // SIGKILL cannot be caught; this only satisfies [[noreturn]]
}

} // namespace starling::core
