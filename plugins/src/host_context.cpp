// SPDX-License-Identifier: Apache-2.0
#include "host_context.hpp"

#include <starling/plugins/relevance_similarity.hpp>
#include <starling/sdk/abi_layout.h>
#include <starling/sdk/bytes.hpp>

#include <algorithm>
#include <exception>
#include <string_view>

namespace starling::plugins {

const starling_host_cache_v1 HostContext::cache_extension_{sizeof(starling_host_cache_v1),
                                                           &HostContext::cache_directory};

const starling_host_similarity_v1 HostContext::similarity_extension_{
    sizeof(starling_host_similarity_v1), &HostContext::similarity_of_memories, &HostContext::similarity_to_text};

namespace {

/// Whether this thread is inside a similarity call: a relevance policy that asked for a similarity
/// while scoring for one would recurse without end.
thread_local bool computing_similarity = false;

/// Runs `compute` for a plugin's similarity call: checks the arguments, refuses a nested call, and
/// turns every exception into a status and a message, as nothing may unwind into the plugin.
template <class Compute>
starling_status serve_similarity(const starling_memory_batch *batch, double *similarities, starling_sink error,
                                 Compute &&compute) noexcept {
    if (batch == nullptr || batch->struct_size < STARLING_MEMORY_BATCH_SIZE_1_0 ||
        (batch->count > 0 && (batch->items == nullptr || similarities == nullptr))) {
        sdk::write_to(error, "similarity asked without a batch, with one too small, or without a result buffer");
        return STARLING_STATUS_INVALID_INPUT;
    }
    if (std::any_of(batch->items, batch->items + batch->count,
                    [](const starling_memory_view *item) { return item == nullptr; })) {
        sdk::write_to(error, "similarity asked for a batch with a missing memory");
        return STARLING_STATUS_INVALID_INPUT;
    }
    if (computing_similarity) {
        sdk::write_to(error, "similarity asked from within a similarity: the relevance policy may not ask the host");
        return STARLING_STATUS_UNSUPPORTED;
    }
    computing_similarity = true;
    starling_status status = STARLING_STATUS_OK;
    try {
        const std::vector<double> values = compute();
        std::copy(values.begin(), values.end(), similarities);
    } catch (const std::exception &failure) {
        sdk::write_to(error, failure.what());
        status = STARLING_STATUS_INTERNAL_ERROR;
    } catch (...) {
        sdk::write_to(error, "the relevance policy failed");
        status = STARLING_STATUS_INTERNAL_ERROR;
    }
    computing_similarity = false;
    return status;
}

} // namespace

HostContext::HostContext(const core::Logger &logger, std::string component,
                         std::optional<std::filesystem::path> cache_directory,
                         const core::RelevanceScorer *similarity_source)
    : logger_(&logger), component_(std::move(component)),
      cache_directory_(cache_directory ? cache_directory->string() : std::string{}),
      similarity_source_(similarity_source),
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
    if (std::string_view{extension_id} == STARLING_HOST_SIMILARITY_EXTENSION_V1 && self->similarity_source_ != nullptr) {
        return &similarity_extension_;
    }
    return nullptr;
}

starling_bytes HostContext::cache_directory(void *context) {
    const auto *self = static_cast<const HostContext *>(context);
    return self == nullptr ? starling_bytes{} : sdk::as_bytes(self->cache_directory_);
}

starling_status HostContext::similarity_of_memories(void *context, const starling_memory_batch *batch,
                                                    double *similarities, starling_sink error) {
    const auto *self = static_cast<const HostContext *>(context);
    if (self == nullptr || self->similarity_source_ == nullptr) {
        sdk::write_to(error, "this host offers no similarity");
        return STARLING_STATUS_UNSUPPORTED;
    }
    return serve_similarity(batch, similarities, error,
                            [&] { return relevance_similarities(*self->similarity_source_, *batch); });
}

starling_status HostContext::similarity_to_text(void *context, starling_bytes text, const starling_memory_batch *batch,
                                                double *similarities, starling_sink error) {
    const auto *self = static_cast<const HostContext *>(context);
    if (self == nullptr || self->similarity_source_ == nullptr) {
        sdk::write_to(error, "this host offers no similarity");
        return STARLING_STATUS_UNSUPPORTED;
    }
    return serve_similarity(batch, similarities, error, [&] {
        return relevance_similarity_to_text(*self->similarity_source_, sdk::as_string_view(text), *batch);
    });
}

} // namespace starling::plugins
