// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/log.hpp>
#include <starling/core/lifecycle/policies.hpp>
#include <starling/sdk/abi.h>

#include <filesystem>
#include <optional>
#include <string>

namespace starling::plugins {

/// The starling_host a plugin receives. One per plugin, so that its log lines name it and its
/// cache directory is its own. Shared by the registry and every instance of that plugin, so it
/// outlives them all.
class HostContext {
public:
    /// Offers "starling.host.cache/1" with `cache_directory` when there is one, and
    /// "starling.host.similarity/1" from `similarity_source` when there is one (which must outlive
    /// every instance created with this context).
    HostContext(const core::Logger &logger, std::string component,
                std::optional<std::filesystem::path> cache_directory = std::nullopt,
                const core::RelevanceScorer *similarity_source = nullptr);
    HostContext(const HostContext &) = delete;
    HostContext &operator=(const HostContext &) = delete;

    [[nodiscard]] const starling_host *host() const noexcept { return &host_; }

private:
    static void log(void *context, starling_log_level level, starling_bytes message);
    static const void *get_extension(void *context, const char *extension_id);
    static starling_bytes cache_directory(void *context);
    static starling_status similarity_of_memories(void *context, const starling_memory_batch *batch,
                                                  double *similarities, starling_sink error);
    static starling_status similarity_to_text(void *context, starling_bytes text, const starling_memory_batch *batch,
                                              double *similarities, starling_sink error);

    /// The same table serves every plugin; the context passed back to it tells them apart.
    static const starling_host_cache_v1 cache_extension_;
    static const starling_host_similarity_v1 similarity_extension_;

    const core::Logger *logger_;
    std::string component_;
    std::string cache_directory_; // empty: no cache extension
    const core::RelevanceScorer *similarity_source_; // null: no similarity extension
    starling_host host_;
};

} // namespace starling::plugins
