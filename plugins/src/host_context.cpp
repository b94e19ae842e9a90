// SPDX-License-Identifier: Apache-2.0
#include "host_context.hpp"

#include <starling/sdk/bytes.hpp>

#include <string_view>

namespace starling::plugins {

const starling_host_cache_v1 HostContext::cache_extension_{sizeof(starling_host_cache_v1),
                                                           &HostContext::cache_directory};

HostContext::HostContext(const core::Logger &logger, std::string component,
                         std::optional<std::filesystem::path> cache_directory)
    : logger_(&logger), component_(std::move(component)),
      cache_directory_(cache_directory ? cache_directory->string() : std::string{}),
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

const void *HostContext::get_extension(void *context, const char *extension_id) {
    const auto *self = static_cast<const HostContext *>(context);
    if (self == nullptr || extension_id == nullptr) {
        return nullptr;
    }
    if (std::string_view{extension_id} == STARLING_HOST_CACHE_EXTENSION_V1 && !self->cache_directory_.empty()) {
        return &cache_extension_;
    }
    return nullptr;
}

starling_bytes HostContext::cache_directory(void *context) {
    const auto *self = static_cast<const HostContext *>(context);
    return self == nullptr ? starling_bytes{} : sdk::as_bytes(self->cache_directory_);
}

} // namespace starling::plugins
