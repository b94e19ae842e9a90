// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/plugins/plugin_info.hpp>
#include <starling/sdk/abi.h>
#include <starling/sdk/event.hpp>
#include <starling/sdk/plugin.hpp>
#include <starling/sdk/policy_types.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::plugins {

class HostContext;

/// One live plugin instance. Owns a reference to the library the code lives in, declared before
/// the instance so that it is released after destroy() has run: an instance never outlives its
/// library. Move-only.
class PluginInstance {
public:
    PluginInstance(std::shared_ptr<const void> library, std::shared_ptr<HostContext> host,
                   const starling_plugin_descriptor *descriptor, void *instance, PluginInfo info) noexcept;
    PluginInstance(PluginInstance &&other) noexcept;
    PluginInstance &operator=(PluginInstance &&other) noexcept;
    PluginInstance(const PluginInstance &) = delete;
    PluginInstance &operator=(const PluginInstance &) = delete;
    ~PluginInstance();

    [[nodiscard]] const PluginInfo &info() const noexcept { return info_; }
    [[nodiscard]] void *handle() const noexcept { return instance_; }
    /// The kind's call table, or nullptr if the plugin lacks it.
    [[nodiscard]] const void *interface(const char *interface_id) const noexcept;

private:
    void release() noexcept;

    std::shared_ptr<const void> library_; // first member: destroyed last
    std::shared_ptr<HostContext> host_;
    const starling_plugin_descriptor *descriptor_ = nullptr;
    void *instance_ = nullptr;
    PluginInfo info_;
};

/// Typed access to an adapter instance. Calls throw PluginCallError when the plugin fails.
class AdapterInstance {
public:
    explicit AdapterInstance(PluginInstance instance);
    [[nodiscard]] sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) const;
    [[nodiscard]] sdk::RenderedReply render(const sdk::Event &event, const sdk::Reply &reply) const;
    /// How Starling is installed into the agent; none when the adapter declares nothing (built
    /// before ABI 1.3, or an adapter that cannot be installed). Throws PluginCallError when the
    /// plugin fails or its declaration is malformed.
    [[nodiscard]] std::optional<sdk::AgentIntegration> integration() const;
    /// The user's prompts in one file of the agent's own session records (starling.session-history/1,
    /// ABI 1.8); nullopt when the adapter reads none. Throws PluginCallError when the plugin fails.
    [[nodiscard]] std::optional<std::vector<sdk::RecordedPrompt>> read_history(std::string_view path,
                                                                               std::string_view text) const;
    [[nodiscard]] const PluginInfo &info() const noexcept { return instance_.info(); }

private:
    PluginInstance instance_;
    const starling_adapter_v1 *table_;
};

class DecisionPolicyInstance final : public core::DecisionMaker {
public:
    explicit DecisionPolicyInstance(PluginInstance instance);
    [[nodiscard]] std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const override;
    [[nodiscard]] std::string review_request(const sdk::ReviewRequest &request) const override;
    /// Set by the plugin's STARLING_DECISION_WANTS_CLOSEST_SIMILARITY (ABI 1.6); never for an older one.
    [[nodiscard]] bool wants_closest_similarity() const override;
    [[nodiscard]] const PluginInfo &info() const noexcept { return instance_.info(); }

private:
    PluginInstance instance_;
    const starling_decision_v1 *table_;
};

/// A decay policy; duplicates are judged when the plugin offers starling.duplicates/1 (ABI 1.3).
class DecayPolicyInstance final : public core::DecayPlanner {
public:
    explicit DecayPolicyInstance(PluginInstance instance);
    [[nodiscard]] std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const override;
    [[nodiscard]] bool plans_with_bodies() const override;
    [[nodiscard]] std::optional<std::vector<double>> similarity(std::string_view text,
                                                                const starling_memory_batch &batch) const override;
    [[nodiscard]] const PluginInfo &info() const noexcept { return instance_.info(); }

private:
    PluginInstance instance_;
    const starling_decay_v1 *table_;
    const starling_duplicates_v1 *duplicates_table_ = nullptr;
};

/// A relevance policy; the index calls are served when the plugin offers starling.relevance-index/1
/// (ABI 1.2), and answer "not indexed" otherwise.
class RelevancePolicyInstance final : public core::RelevanceScorer {
public:
    explicit RelevancePolicyInstance(PluginInstance instance);
    /// One score per memory of the batch, in batch order.
    [[nodiscard]] std::vector<double> score(std::string_view query,
                                            const starling_memory_batch &batch) const override;
    [[nodiscard]] bool keeps_index() const override { return index_table_ != nullptr; }
    [[nodiscard]] bool index_current(const core::MemoryCollection &collection) const override;
    void build_index(const core::MemoryCollection &collection, const starling_memory_batch &batch) const override;
    [[nodiscard]] std::optional<std::vector<core::RankedKey>> rank(std::string_view query,
                                                                      std::span<const core::MemoryCollection> collections,
                                                                      std::chrono::sys_seconds now,
                                                                      std::size_t limit) const override;
    /// From starling.relevance-first-pass/1 when the plugin offers it; else score() and rank().
    [[nodiscard]] std::vector<double> score_first_pass(std::string_view query,
                                                       const starling_memory_batch &batch) const override;
    [[nodiscard]] std::optional<std::vector<core::RankedKey>> rank_first_pass(
        std::string_view query, std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now,
        std::size_t limit) const override;
    [[nodiscard]] const PluginInfo &info() const noexcept { return instance_.info(); }

private:
    using ScoreEntry = decltype(starling_relevance_v1::score);
    using RankEntry = decltype(starling_relevance_index_v1::rank);
    [[nodiscard]] std::vector<double> score_with(ScoreEntry entry, const char *operation, std::string_view query,
                                                 const starling_memory_batch &batch) const;
    [[nodiscard]] std::optional<std::vector<core::RankedKey>> rank_with(
        RankEntry entry, const char *operation, std::string_view query,
        std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now, std::size_t limit) const;

    PluginInstance instance_;
    const starling_relevance_v1 *table_;
    const starling_relevance_index_v1 *index_table_ = nullptr;
    const starling_relevance_first_pass_v1 *first_pass_table_ = nullptr; ///< ABI 1.10, optional
};

} // namespace starling::plugins
