// SPDX-License-Identifier: Apache-2.0
#include "host_context.hpp"

#include <starling/sdk/bytes.hpp>

namespace starling::plugins {

HostContext::HostContext(const core::Logger &logger, std::string component)
    : logger_(&logger), component_(std::move(component)),
      host_{STARLING_ABI_MAJOR, STARLING_ABI_MINOR, sizeof(starling_host), this, &HostContext::log,
            &HostContext::get_extension} {}

void HostContext::log(void *context, starling_log_level level, starling_bytes message) {
    const auto *self = static_cast<const HostContext *>(context);
    if (self == nullptr) {
        return;
    }
    core::LogLevel mapped = core::LogLevel::error;
    switch (level) {
    case STARLING_LOG_DEBUG: mapped = core::LogLevel::debug; break;
    case STARLING_LOG_INFO: mapped = core::LogLevel::info; break;
    case STARLING_LOG_WARNING: mapped = core::LogLevel::warning; break;
    default: break;
    }
    self->logger_->log(mapped, self->component_, sdk::as_string_view(message));
}

const void *HostContext::get_extension(void * /*context*/, const char * /*extension_id*/) {
    // ABI 1.0 hosts offer no extensions; plugins must treat NULL as "not available".
    return nullptr;
}

} // namespace starling::plugins
