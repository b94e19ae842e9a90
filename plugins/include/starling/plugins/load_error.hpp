// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace starling::plugins {

/// Why a plugin could not be registered or instantiated.
enum class LoadErrorKind {
    not_a_shared_library, ///< the file is not an ELF shared object
    cannot_open,          ///< dlopen failed (missing dependency, wrong architecture, unresolved symbol)
    missing_entry,        ///< neither `starling_module_entry` nor `starling_plugin_entry`
    host_rejected,        ///< the entry returned NULL: the plugin cannot serve this host's ABI
    abi_major_mismatch,   ///< built against another ABI major version
    needs_newer_host,     ///< the plugin declares a host minor (host_minor_required) above this host's
    invalid_descriptor,   ///< descriptor, module entry or factory too small, missing functions, or a malformed id
    duplicate_id,         ///< another plugin already registered this id
    unknown_plugin,       ///< no plugin with the requested id
    wrong_kind,           ///< the plugin is not of the kind requested
    missing_interface,    ///< the plugin does not provide its kind's call table
    create_failed,        ///< create() returned NULL or threw
    unsafe_location,      ///< the module or its directory can be changed by other users: never loaded
    misbehaved_at_load,   ///< loading it in a probe process crashed, ended or hung that process
};

[[nodiscard]] std::string_view to_string(LoadErrorKind kind) noexcept;

struct AbiVersion {
    std::uint32_t major = 0;
    std::uint32_t minor = 0;
};

/// A typed loader failure. Its message names the file and both ABI versions, LLVM style:
/// `/p/starling-x.so: plugin 'x' was built for ABI 2.0, host ABI is 1.0 (major versions differ)`.
struct LoadError {
    LoadErrorKind kind = LoadErrorKind::cannot_open;
    std::filesystem::path file;        ///< the module, or empty for a static plugin
    std::string plugin_id;             ///< empty when the descriptor could not be read
    AbiVersion host_abi;               ///< this host's ABI
    std::optional<AbiVersion> plugin_abi; ///< the plugin's, when its descriptor was read
    std::string detail;                ///< what went wrong, in words (dlerror text, create() message…)

    [[nodiscard]] std::string message() const;
};

/// Thrown where a single load or instantiation is requested and fails.
class PluginLoadError : public std::runtime_error {
public:
    explicit PluginLoadError(LoadError error) : std::runtime_error(error.message()), error_(std::move(error)) {}
    [[nodiscard]] const LoadError &error() const noexcept { return error_; }

private:
    LoadError error_;
};

/// Thrown when a call into a plugin instance fails (the plugin returned an error status or threw).
class PluginCallError : public std::runtime_error {
public:
    PluginCallError(std::string plugin_id, std::string operation, std::int32_t status, const std::string &detail);
    [[nodiscard]] const std::string &plugin_id() const noexcept { return plugin_id_; }
    [[nodiscard]] const std::string &operation() const noexcept { return operation_; }
    [[nodiscard]] std::int32_t status() const noexcept { return status_; }

private:
    std::string plugin_id_;
    std::string operation_;
    std::int32_t status_;
};

} // namespace starling::plugins
