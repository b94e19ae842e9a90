// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/log.hpp>
#include <starling/sdk/abi.h>

#include <string>

namespace starling::plugins {

/// The starling_host a plugin receives. One per plugin, so that its log lines name it.
/// Shared by the registry and every instance of that plugin, so it outlives them all.
class HostContext {
public:
    HostContext(const core::Logger &logger, std::string component);
    HostContext(const HostContext &) = delete;
    HostContext &operator=(const HostContext &) = delete;

    [[nodiscard]] const starling_host *host() const noexcept { return &host_; }

private:
    static void log(void *context, starling_log_level level, starling_bytes message);
    static const void *get_extension(void *context, const char *extension_id);

    const core::Logger *logger_;
    std::string component_;
    starling_host host_;
};

} // namespace starling::plugins
