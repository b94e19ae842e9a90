// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/call_record.hpp>
#include <starling/plugins/load_error.hpp>
#include <starling/plugins/plugin_instance.hpp>

#include "host_context.hpp"

#include <starling/sdk/abi_layout.h>
#include <starling/sdk/bytes.hpp>

#include <nlohmann/json.hpp>

#include <exception>
#include <utility>

namespace starling::plugins {

namespace {

/// Status reported when a plugin let an exception escape through the C ABI (a plugin not built
/// with the SDK trampolines). It never reaches the agent: the call fails like any other.
constexpr std::int32_t kThrewAcrossAbi = -1;

template <class Call>
void call_plugin(const PluginInfo &info, const char *operation, Call &&call) {
    sdk::StringSink error;
    starling_status status = STARLING_STATUS_OK;
    try {
        const PluginCallScope running{info.id, operation};
        status = call(error.sink());
    } catch (const std::exception &failure) {
        throw PluginCallError(info.id, operation, kThrewAcrossAbi,
                              std::string{"threw across the plugin ABI: "} + failure.what());
    } catch (...) {
        throw PluginCallError(info.id, operation, kThrewAcrossAbi, "threw across the plugin ABI");
    }
    if (status != STARLING_STATUS_OK) {
        throw PluginCallError(info.id, operation, status, error.text());
    }
}

nlohmann::json parse_plugin_output(const PluginInfo &info, const char *operation, const std::string &text) {
    auto parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        throw PluginCallError(info.id, operation, STARLING_STATUS_INTERNAL_ERROR,
                              "the plugin's output is not a JSON object");
    }
    return parsed;
}

/// The kind's call table. A table is refused only when it is smaller than its first published
/// version or lacks a function the host calls; a larger one, from a plugin that a later minor
/// grew, is read as far as this host knows it.
template <class Table, class... Function>
const Table *require_table(const PluginInstance &instance, const char *interface_id, std::size_t first_size,
                           Function Table::*...required) {
    const auto *table = static_cast<const Table *>(instance.interface(interface_id));
    const std::string table_name = std::string{"'"} + interface_id + "' table";
    std::string problem;
    if (table == nullptr) {
        problem = "no usable " + table_name;
    } else if (table->struct_size < first_size) {
        problem = table_name + " is " + std::to_string(table->struct_size) + " bytes, its first version needs " +
                  std::to_string(first_size);
    } else if (!((table->*required != nullptr) && ...)) {
        problem = table_name + " lacks a function the host calls";
    } else {
        return table;
    }
    LoadError error;
    error.kind = LoadErrorKind::missing_interface;
    error.file = instance.info().file;
    error.plugin_id = instance.info().id;
    error.host_abi = {STARLING_ABI_MAJOR, STARLING_ABI_MINOR};
    error.plugin_abi = AbiVersion{instance.info().abi_major, instance.info().abi_minor};
    error.detail = std::move(problem);
    throw PluginLoadError(std::move(error));
}

template <class Convert>
auto convert_output(const PluginInfo &info, const char *operation, Convert &&convert) {
    try {
        return convert();
    } catch (const std::exception &failure) {
        throw PluginCallError(info.id, operation, STARLING_STATUS_INTERNAL_ERROR,
                              std::string{"malformed output: "} + failure.what());
    }
}

} // namespace

PluginInstance::PluginInstance(std::shared_ptr<const void> library, std::shared_ptr<HostContext> host,
                               const starling_plugin_descriptor *descriptor, void *instance, PluginInfo info) noexcept
    : library_(std::move(library)), host_(std::move(host)), descriptor_(descriptor), instance_(instance),
      info_(std::move(info)) {}

PluginInstance::PluginInstance(PluginInstance &&other) noexcept
    : library_(std::move(other.library_)), host_(std::move(other.host_)),
      descriptor_(std::exchange(other.descriptor_, nullptr)), instance_(std::exchange(other.instance_, nullptr)),
      info_(std::move(other.info_)) {}

PluginInstance &PluginInstance::operator=(PluginInstance &&other) noexcept {
    if (this != &other) {
        release();
        library_ = std::move(other.library_);
        host_ = std::move(other.host_);
        descriptor_ = std::exchange(other.descriptor_, nullptr);
        instance_ = std::exchange(other.instance_, nullptr);
        info_ = std::move(other.info_);
    }
    return *this;
}

PluginInstance::~PluginInstance() { release(); }

void PluginInstance::release() noexcept {
    if (descriptor_ != nullptr && instance_ != nullptr) {
        const PluginCallScope running{info_.id, "destroy"};
        descriptor_->destroy(instance_);
    }
    instance_ = nullptr;
    // Members are destroyed in reverse order, so library_ goes after the instance is gone.
}

const void *PluginInstance::interface(const char *interface_id) const noexcept {
    return descriptor_ == nullptr ? nullptr : descriptor_->get_interface(interface_id);
}

AdapterInstance::AdapterInstance(PluginInstance instance)
    : instance_(std::move(instance)),
      table_(require_table(instance_, STARLING_ADAPTER_INTERFACE_V1, STARLING_ADAPTER_V1_SIZE_1_0,
                           &starling_adapter_v1::parse, &starling_adapter_v1::render)) {}

sdk::Event AdapterInstance::parse(const std::vector<std::string> &argv, std::string_view payload) const {
    const std::string invocation = sdk::detail::dump_json(nlohmann::json{{"argv", argv}});
    sdk::StringSink event;
    call_plugin(info(), "parse", [&](starling_sink error) {
        return table_->parse(instance_.handle(), sdk::as_bytes(invocation), sdk::as_bytes(payload), event.sink(),
                             error);
    });
    return convert_output(info(), "parse",
                          [&] { return sdk::event_from_json(parse_plugin_output(info(), "parse", event.text())); });
}

sdk::RenderedReply AdapterInstance::render(const sdk::Event &event, const sdk::Reply &reply) const {
    const std::string request =
        sdk::detail::dump_json(nlohmann::json{{"event", sdk::to_json(event)}, {"reply", sdk::to_json(reply)}});
    sdk::StringSink out;
    std::int32_t exit_code = 0;
    call_plugin(info(), "render", [&](starling_sink error) {
        return table_->render(instance_.handle(), sdk::as_bytes(request), out.sink(), &exit_code, error);
    });
    return sdk::RenderedReply{out.take(), exit_code};
}

std::optional<sdk::AgentIntegration> AdapterInstance::integration() const {
    const bool offered =
        STARLING_STRUCT_HAS(starling_adapter_v1, table_->struct_size, integration) && table_->integration != nullptr;
    if (!offered) {
        return std::nullopt;
    }
    sdk::StringSink out;
    sdk::StringSink error;
    starling_status status = STARLING_STATUS_OK;
    {
        const PluginCallScope running{info().id, "integration"};
        status = table_->integration(instance_.handle(), out.sink(), error.sink());
    }
    if (status == STARLING_STATUS_UNSUPPORTED) {
        return std::nullopt;
    }
    if (status != STARLING_STATUS_OK) {
        throw PluginCallError(info().id, "integration", status, error.text());
    }
    return convert_output(info(), "integration", [&] {
        return sdk::agent_integration_from_json(nlohmann::ordered_json::parse(out.text()));
    });
}

std::optional<std::vector<sdk::RecordedPrompt>> AdapterInstance::read_history(std::string_view path,
                                                                            std::string_view text) const {
    // Optional: an adapter built before 1.8, or one whose agent keeps no records it reads.
    const auto *history =
        static_cast<const starling_session_history_v1 *>(instance_.interface(STARLING_SESSION_HISTORY_INTERFACE_V1));
    if (history == nullptr || history->struct_size < STARLING_SESSION_HISTORY_V1_SIZE_1_8 || history->read == nullptr) {
        return std::nullopt;
    }
    sdk::StringSink out;
    call_plugin(info(), "read_history", [&](starling_sink error) {
        return history->read(instance_.handle(), sdk::as_bytes(path), sdk::as_bytes(text), out.sink(), error);
    });
    return convert_output(info(), "read_history", [&] {
        return sdk::recorded_prompts_from_json(parse_plugin_output(info(), "read_history", out.text()).at("prompts"));
    });
}

DecisionPolicyInstance::DecisionPolicyInstance(PluginInstance instance)
    : instance_(std::move(instance)),
      table_(require_table(instance_, STARLING_DECISION_INTERFACE_V1, STARLING_DECISION_V1_SIZE_1_0,
                           &starling_decision_v1::decide, &starling_decision_v1::review_request)) {}

bool DecisionPolicyInstance::wants_closest_similarity() const {
    return STARLING_STRUCT_HAS(starling_decision_v1, table_->struct_size, flags) &&
           (table_->flags & STARLING_DECISION_WANTS_CLOSEST_SIMILARITY) != 0;
}

std::vector<sdk::Decision> DecisionPolicyInstance::decide(const std::vector<sdk::Message> &messages) const {
    const bool wants_similarity = wants_closest_similarity();
    nlohmann::json request{{"messages", nlohmann::json::array()}};
    for (const auto &message : messages) {
        auto item = sdk::to_json(message);
        if (!wants_similarity) {
            // A policy that did not ask (one built before 1.6 among them) never sees the field.
            item.erase("closest_similarity");
        }
        request["messages"].push_back(std::move(item));
    }
    const std::string request_text = sdk::detail::dump_json(request);
    sdk::StringSink out;
    call_plugin(info(), "decide", [&](starling_sink error) {
        return table_->decide(instance_.handle(), sdk::as_bytes(request_text), out.sink(), error);
    });
    return convert_output(info(), "decide", [&] {
        const auto parsed = parse_plugin_output(info(), "decide", out.text());
        std::vector<sdk::Decision> decisions;
        for (const auto &item : parsed.at("decisions")) {
            decisions.push_back(sdk::decision_from_json(item));
        }
        if (decisions.size() != messages.size()) {
            throw std::invalid_argument(std::to_string(decisions.size()) + " decisions for " +
                                        std::to_string(messages.size()) + " messages");
        }
        return decisions;
    });
}

std::string DecisionPolicyInstance::review_request(const sdk::ReviewRequest &request) const {
    const std::string request_text = sdk::detail::dump_json(sdk::to_json(request));
    sdk::StringSink out;
    call_plugin(info(), "review_request", [&](starling_sink error) {
        return table_->review_request(instance_.handle(), sdk::as_bytes(request_text), out.sink(), error);
    });
    return out.take();
}

DecayPolicyInstance::DecayPolicyInstance(PluginInstance instance)
    : instance_(std::move(instance)),
      table_(require_table(instance_, STARLING_DECAY_INTERFACE_V1, STARLING_DECAY_V1_SIZE_1_0,
                           &starling_decay_v1::plan)) {
    // Optional: a policy built before 1.3, or one that does not judge duplicates, is only asked to plan.
    const auto *duplicates =
        static_cast<const starling_duplicates_v1 *>(instance_.interface(STARLING_DUPLICATES_INTERFACE_V1));
    if (duplicates != nullptr && duplicates->struct_size >= STARLING_DUPLICATES_V1_SIZE_1_3 &&
        duplicates->similarity != nullptr) {
        duplicates_table_ = duplicates;
    }
}

std::optional<std::vector<double>> DecayPolicyInstance::similarity(std::string_view text,
                                                                   const starling_memory_batch &batch) const {
    if (duplicates_table_ == nullptr) {
        return std::nullopt;
    }
    std::vector<double> similarities(batch.count, 0.0);
    call_plugin(info(), "similarity", [&](starling_sink error) {
        return duplicates_table_->similarity(instance_.handle(), sdk::as_bytes(text), &batch, similarities.data(),
                                             error);
    });
    return similarities;
}

bool DecayPolicyInstance::plans_with_bodies() const {
    return STARLING_STRUCT_HAS(starling_decay_v1, table_->struct_size, flags) &&
           (table_->flags & STARLING_DECAY_PLANS_WITH_BODIES) != 0;
}

std::vector<sdk::LifecycleAction> DecayPolicyInstance::plan(const starling_memory_batch &batch) const {
    sdk::StringSink out;
    call_plugin(info(), "plan",
                [&](starling_sink error) { return table_->plan(instance_.handle(), &batch, out.sink(), error); });
    return convert_output(info(), "plan", [&] {
        const auto parsed = parse_plugin_output(info(), "plan", out.text());
        std::vector<sdk::LifecycleAction> actions;
        for (const auto &item : parsed.at("actions")) {
            actions.push_back(sdk::lifecycle_action_from_json(item));
        }
        return actions;
    });
}

RelevancePolicyInstance::RelevancePolicyInstance(PluginInstance instance)
    : instance_(std::move(instance)),
      table_(require_table(instance_, STARLING_RELEVANCE_INTERFACE_V1, STARLING_RELEVANCE_V1_SIZE_1_0,
                           &starling_relevance_v1::score)) {
    // Optional: a plugin of ABI 1.0 or 1.1, or one that keeps no index, is only asked to score.
    const auto *index = static_cast<const starling_relevance_index_v1 *>(
        instance_.interface(STARLING_RELEVANCE_INDEX_INTERFACE_V1));
    if (index != nullptr && index->struct_size >= STARLING_RELEVANCE_INDEX_V1_SIZE_1_2 && index->check != nullptr &&
        index->build != nullptr && index->rank != nullptr) {
        index_table_ = index;
    }
    // Optional (ABI 1.10): a policy without it does not widen queries, and its scores are its first pass.
    const auto *first_pass = static_cast<const starling_relevance_first_pass_v1 *>(
        instance_.interface(STARLING_RELEVANCE_FIRST_PASS_INTERFACE_V1));
    if (first_pass != nullptr && first_pass->struct_size >= STARLING_RELEVANCE_FIRST_PASS_V1_SIZE_1_10 &&
        first_pass->score != nullptr) {
        first_pass_table_ = first_pass;
    }
}

std::vector<double> RelevancePolicyInstance::score(std::string_view query, const starling_memory_batch &batch) const {
    return score_with(table_->score, "score", query, batch);
}

std::vector<double> RelevancePolicyInstance::score_first_pass(std::string_view query,
                                                              const starling_memory_batch &batch) const {
    if (first_pass_table_ == nullptr) {
        return score(query, batch);
    }
    return score_with(first_pass_table_->score, "score (first pass)", query, batch);
}

std::vector<double> RelevancePolicyInstance::score_with(ScoreEntry entry, const char *operation,
                                                        std::string_view query,
                                                        const starling_memory_batch &batch) const {
    std::vector<double> scores(batch.count, 0.0);
    call_plugin(info(), operation, [&](starling_sink error) {
        return entry(instance_.handle(), sdk::as_bytes(query), &batch, scores.data(), error);
    });
    return scores;
}

namespace {

/// The ABI form of a collection; borrows its strings.
starling_collection to_abi(const core::MemoryCollection &collection) noexcept {
    return {sizeof(starling_collection), sdk::as_bytes(collection.id), sdk::as_bytes(collection.version)};
}

/// Runs an index call whose STARLING_STATUS_STALE is an answer, not a failure: true for OK, false
/// for STALE, PluginCallError for anything else.
template <class Call>
bool call_answering_stale(const PluginInfo &info, const char *operation, Call &&call) {
    bool current = true;
    call_plugin(info, operation, [&](starling_sink error) {
        const starling_status status = call(error);
        current = status != STARLING_STATUS_STALE;
        return current ? status : STARLING_STATUS_OK;
    });
    return current;
}

} // namespace

bool RelevancePolicyInstance::index_current(const core::MemoryCollection &collection) const {
    if (index_table_ == nullptr) {
        return false;
    }
    const starling_collection abi = to_abi(collection);
    return call_answering_stale(info(), "check",
                                [&](starling_sink error) { return index_table_->check(instance_.handle(), &abi, error); });
}

void RelevancePolicyInstance::build_index(const core::MemoryCollection &collection,
                                          const starling_memory_batch &batch) const {
    if (index_table_ == nullptr) {
        return;
    }
    const starling_collection abi = to_abi(collection);
    call_plugin(info(), "build",
                [&](starling_sink error) { return index_table_->build(instance_.handle(), &abi, &batch, error); });
}

std::optional<std::vector<core::RankedKey>> RelevancePolicyInstance::rank(
    std::string_view query, std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now,
    std::size_t limit) const {
    if (index_table_ == nullptr) {
        return std::nullopt;
    }
    return rank_with(index_table_->rank, "rank", query, collections, now, limit);
}

std::optional<std::vector<core::RankedKey>> RelevancePolicyInstance::rank_first_pass(
    std::string_view query, std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now,
    std::size_t limit) const {
    if (first_pass_table_ == nullptr) {
        return rank(query, collections, now, limit);
    }
    if (index_table_ == nullptr || first_pass_table_->rank == nullptr) {
        return std::nullopt; // scored instead, by score_first_pass()
    }
    return rank_with(first_pass_table_->rank, "rank (first pass)", query, collections, now, limit);
}

std::optional<std::vector<core::RankedKey>> RelevancePolicyInstance::rank_with(
    RankEntry entry, const char *operation, std::string_view query,
    std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now, std::size_t limit) const {
    std::vector<starling_collection> abi;
    abi.reserve(collections.size());
    for (const auto &collection : collections) {
        abi.push_back(to_abi(collection));
    }
    std::vector<const starling_collection *> pointers;
    for (const auto &collection : abi) {
        pointers.push_back(&collection);
    }
    struct Ranking {
        std::vector<core::RankedKey> memories;
        std::size_t limit;
    } ranking{{}, limit};
    const starling_ranking_sink sink{&ranking, [](void *context, starling_bytes key, double score) {
                                         auto &into = *static_cast<Ranking *>(context);
                                         if (into.memories.size() < into.limit) {
                                             into.memories.push_back({std::string{sdk::as_string_view(key)}, score});
                                         }
                                     }};
    const bool current = call_answering_stale(info(), operation, [&](starling_sink error) {
        return entry(instance_.handle(), sdk::as_bytes(query), pointers.data(), pointers.size(),
                     now.time_since_epoch().count(), limit, sink, error);
    });
    if (!current) {
        return std::nullopt;
    }
    return convert_output(info(), operation, [&] {
        for (std::size_t index = 1; index < ranking.memories.size(); ++index) {
            if (ranking.memories[index].score > ranking.memories[index - 1].score) {
                throw std::invalid_argument("the ranking is not best first");
            }
        }
        for (const auto &memory : ranking.memories) {
            if (!(memory.score > 0.0)) {
                throw std::invalid_argument("a ranked memory scores " + std::to_string(memory.score));
            }
        }
        return std::move(ranking.memories);
    });
}

} // namespace starling::plugins
