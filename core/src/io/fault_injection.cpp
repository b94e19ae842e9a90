// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/fault_injection.hpp>

#include <starling/core/io/store_error.hpp>

#include <unistd.h>

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

/// The step a process is to die at, read from the environment.
struct Selection {
    /// Nothing for `any`.
    std::optional<FaultStep> step;
    /// Only the renames of atomic writes count (the first spelling).
    bool atomic_writes_only = false;
    unsigned at = 0; ///< 0: no fault
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
                     "or any, for the N-th such step of a process; kill-before-rename[:N] for the N-th "
                     "atomic write)");
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
        return {FaultStep::rename, true, count_of(text.substr(kill_before_rename_name.size()), text)};
    }
    if (!text.starts_with(kill_at_name)) {
        unknown(text);
    }
    const std::string_view rest = text.substr(kill_at_name.size());
    const auto colon = rest.find(':');
    const std::string_view name = rest.substr(0, colon);
    const std::string_view suffix = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon);
    return {step_named(name, text), false, count_of(suffix, text)};
}

bool counts_and_hits(FaultStep step, FaultOrigin origin) {
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
        return false;
    }
    return ++fault.steps == selection.at;
}

} // namespace

void fault_point(FaultStep step, FaultOrigin origin) {
    if (counts_and_hits(step, origin)) {
        die_of_fault();
    }
}

bool fault_tears_write() { return counts_and_hits(FaultStep::write, FaultOrigin::other); }

void die_of_fault() {
    std::raise(SIGKILL);
    std::abort(); // SIGKILL cannot be caught; this only satisfies [[noreturn]]
}

} // namespace starling::core
