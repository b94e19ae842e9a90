// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/load_error.hpp>

#include <starling/sdk/abi.h>

namespace starling::plugins {

std::string_view to_string(LoadErrorKind kind) noexcept {
    switch (kind) {
    case LoadErrorKind::not_a_shared_library: return "not a shared library";
    case LoadErrorKind::cannot_open: return "cannot open";
    case LoadErrorKind::missing_entry: return "missing entry point";
    case LoadErrorKind::host_rejected: return "host rejected";
    case LoadErrorKind::abi_major_mismatch: return "ABI major mismatch";
    case LoadErrorKind::needs_newer_host: return "needs a newer host";
    case LoadErrorKind::invalid_descriptor: return "invalid descriptor";
    case LoadErrorKind::duplicate_id: return "duplicate id";
    case LoadErrorKind::unknown_plugin: return "unknown plugin";
    case LoadErrorKind::wrong_kind: return "wrong kind";
    case LoadErrorKind::missing_interface: return "missing interface";
    case LoadErrorKind::create_failed: return "create failed";
    case LoadErrorKind::unsafe_location: return "unsafe location";
    case LoadErrorKind::misbehaved_at_load: return "misbehaved while loading";
    }
    return "load error";
}

namespace {

std::string version_text(AbiVersion version) {
    return std::to_string(version.major) + "." + std::to_string(version.minor);
}

} // namespace

std::string LoadError::message() const {
    std::string text = file.empty() ? std::string{"<static>"} : file.string();
    text += ": ";
    if (!plugin_id.empty()) {
        text += "plugin '" + plugin_id + "': ";
    }
    text += to_string(kind);
    text += " (plugin ABI ";
    text += plugin_abi ? version_text(*plugin_abi) : std::string{"unknown"};
    text += ", host ABI " + version_text(host_abi) + ")";
    if (!detail.empty()) {
        text += ": " + detail;
    }
    return text;
}

namespace {

std::string call_error_message(const std::string &plugin_id, const std::string &operation, std::int32_t status,
                               const std::string &detail) {
    std::string text = "plugin '" + plugin_id + "' failed in " + operation;
    switch (status) {
    case STARLING_STATUS_INVALID_INPUT: text += " (invalid input)"; break;
    case STARLING_STATUS_INTERNAL_ERROR: text += " (internal error)"; break;
    case STARLING_STATUS_UNSUPPORTED: text += " (unsupported)"; break;
    default: text += " (status " + std::to_string(status) + ")"; break;
    }
    if (!detail.empty()) {
        text += ": " + detail;
    }
    return text;
}

} // namespace

PluginCallError::PluginCallError(std::string plugin_id, std::string operation, std::int32_t status,
                                 const std::string &detail)
    : std::runtime_error(call_error_message(plugin_id, operation, status, detail)), plugin_id_(std::move(plugin_id)),
      operation_(std::move(operation)), status_(status) {}

} // namespace starling::plugins
