// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>

namespace starling::core {

/// The environment variable that makes a process kill itself (SIGKILL) at one step of its work, so
/// tests can prove with a real process death that every step leaves a store that the next command
/// recovers without losing, duplicating or double-counting anything:
///
///   kill-at=<step>:N      at the N-th step of that kind the process takes (kill-at=<step> is :1)
///       write             a write of file contents, killed halfway: an atomic write's temporary
///                         file is left half written, an appended line is torn
///       rename            just before a rename (an atomic write's, a journal set aside, a move
///                         between tiers)
///       unlink            just before a file is removed (an archived original, an applied batch,
///                         a claim marker, a dead writer's temporary file)
///       lock              right after a lock is taken, so the process dies holding it
///       any               the N-th step of any of the four kinds: what crash tests step N through
///   kill-before-rename:N  at the N-th atomic write, with its temporary file complete and fsynced,
///                         before its rename (kill-before-rename is :1); the first spelling, kept
///   kill-at=write:N@B     the N-th write is cut after its first B bytes (not halfway), then killed
///   no-space-at=write:N@B the N-th write stops after its first B bytes with ENOSPC, as on a full
///                         disk; the process goes on and sees the error
///
/// The variable is read at the first step of each process (a forked child reads it again and counts
/// its own steps), so setting it later in the same process has no effect. Any other non-empty value
/// is an error (StoreError) at that first step, so a typo cannot silently disable a test.
inline constexpr const char *fault_injection_environment_variable = "STARLING_FAULT_INJECTION";

/// A kind of step STARLING_FAULT_INJECTION can kill a process at.
enum class FaultStep { write, rename, unlink, lock };

/// Where a rename happens: the first spelling counts only the renames of atomic writes.
enum class FaultOrigin { atomic_write, other };

/// Counts one step and kills the process if it is the selected one. Throws StoreError for a value of
/// the variable it does not know. For FaultStep::write, use fault_tears_write instead.
void fault_point(FaultStep step, FaultOrigin origin = FaultOrigin::other);

/// What the selected write is to do: write `kept` of its bytes (of `size`), then die or fail with
/// ENOSPC.
struct WriteFault {
    std::size_t kept = 0;
    bool no_space = false; ///< fail with ENOSPC instead of dying
};

/// Counts one write of `size` bytes and says what to do if it is the selected one.
[[nodiscard]] std::optional<WriteFault> fault_tears_write(std::size_t size);

/// Kills the process with SIGKILL.
[[noreturn]] void die_of_fault();

} // namespace starling::core
