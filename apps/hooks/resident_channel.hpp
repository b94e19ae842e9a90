// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>

#include <filesystem>
#include <string>
#include <string_view>

/// Where a hook finds the resident process that serves it, and how both ends know they belong
/// together.
namespace starling::app::resident {

/// Which resident process serves a hook, and what it must have been started with.
struct Identity {
    /// Names the socket: the executable, the adapter and the store, so that one resident process
    /// serves one agent's hooks on one store.
    std::string key;
    /// What the resident's cached state was made from: the executable's file (a reinstall replaces
    /// it), the configuration file's bytes, and the home directories it was read with. A hook and a
    /// resident process with different fingerprints never share a reply.
    std::string fingerprint;
};

/// This process's identity as a hook of `adapter_id`, from the application's configuration. Throws
/// std::runtime_error when the executable cannot be found.
[[nodiscard]] Identity identity_of(Application &application, std::string_view adapter_id);

/// The folder that holds resident sockets, created if needed: `$XDG_RUNTIME_DIR/starling` when that
/// variable names an absolute directory, else `/tmp/starling-<uid>`. Throws std::runtime_error
/// naming the folder when it is not a directory of this user's that only this user can enter: a
/// socket others could replace would let them answer the agent.
[[nodiscard]] std::filesystem::path socket_directory();

/// The socket of the resident process with `key`, in `directory`.
[[nodiscard]] std::filesystem::path socket_path(const std::filesystem::path &directory, std::string_view key);

/// This executable, as /proc/self/exe names it: what a resident process is started from.
[[nodiscard]] std::filesystem::path own_executable();

/// The file's identity and version (device, inode, size, modification time), or "absent".
[[nodiscard]] std::string file_stamp(const std::filesystem::path &file);

} // namespace starling::app::resident
