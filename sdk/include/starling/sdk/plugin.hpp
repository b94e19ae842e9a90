// SPDX-License-Identifier: Apache-2.0
//
// The C++ layer of the Starling SDK. A plugin author derives from one of the base classes below,
// gives it a constructor `(const starling::sdk::HostServices &, const starling::sdk::Settings &)`,
// and declares it once:
//
//     STARLING_DECLARE_PLUGIN(my_policy, MyPolicy, "my-policy", "1.0.0", "What it does", R"({"k": 1})")
//
// For a loadable module, add STARLING_DEFINE_MODULE_ENTRY(my_policy) — or, for a module of several
// plugins, STARLING_DEFINE_MODULE(&starling_plugin_entry_a, &starling_plugin_entry_b) — in exactly
// one source file (the Starling CMake helpers generate it for you). Everything here is header-only and compiled
// into the plugin: no C++ object, exception or allocation ever reaches the host.
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/abi_layout.h>
#include <starling/sdk/agent_integration.hpp>
#include <starling/sdk/bytes.hpp>
#include <starling/sdk/event.hpp>
#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>
#include <starling/sdk/session_history.hpp>
#include <starling/sdk/settings.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace starling::sdk {

/// The host's services as a plugin sees them. Cheap to copy; valid while the instance lives.
class HostServices {
public:
    explicit HostServices(const starling_host *host) noexcept : host_(host) {}

    void log(starling_log_level level, std::string_view message) const noexcept {
        if (host_ != nullptr && host_->log != nullptr) {
            host_->log(host_->context, level, as_bytes(message));
        }
    }
    void debug(std::string_view message) const noexcept { log(STARLING_LOG_DEBUG, message); }
    void info(std::string_view message) const noexcept { log(STARLING_LOG_INFO, message); }
    void warning(std::string_view message) const noexcept { log(STARLING_LOG_WARNING, message); }
    void error(std::string_view message) const noexcept { log(STARLING_LOG_ERROR, message); }

    /// A host extension table ("starling.host.<name>/<rev>"), or nullptr if the host lacks it.
    [[nodiscard]] const void *extension(const char *extension_id) const noexcept {
        if (host_ == nullptr || host_->get_extension == nullptr) {
            return nullptr;
        }
        return host_->get_extension(host_->context, extension_id);
    }

    /// The plugin's own directory for data it derives ("starling.host.cache/1"), or nothing when the
    /// host offers none (a host of ABI 1.0, or one that knows no store). The directory may not exist
    /// yet, and anything in it may vanish or change at any moment: treat it as a cache, and validate
    /// what you read there.
    [[nodiscard]] std::optional<std::filesystem::path> cache_directory() const {
        const auto *cache = static_cast<const starling_host_cache_v1 *>(extension(STARLING_HOST_CACHE_EXTENSION_V1));
        if (cache == nullptr || cache->struct_size < STARLING_HOST_CACHE_V1_SIZE_1_1 || cache->directory == nullptr) {
            return std::nullopt;
        }
        const std::string_view directory = as_string_view(cache->directory(host_->context));
        if (directory.empty()) {
            return std::nullopt;
        }
        return std::filesystem::path{directory};
    }

    /// Whether the host can say how similar memories are ("starling.host.similarity/1", ABI 1.5): it
    /// does when a relevance policy is active. A plugin must work without it.
    [[nodiscard]] bool offers_similarity() const noexcept { return similarity_table() != nullptr; }

    /// How similar each pair of `memories` is, as the active relevance policy judges them
    /// (docs/plugin-abi.md, "Similarity"): count × count values in [0, 1], row-major, symmetric, 1 on
    /// the diagonal. nullopt when the host offers no similarity. Throws std::runtime_error with the
    /// host's reason when it offers one and fails.
    [[nodiscard]] std::optional<std::vector<double>> similarities(const MemoryBatch &memories) const {
        const auto *table = similarity_table();
        if (table == nullptr) {
            return std::nullopt;
        }
        std::vector<double> out(memories.size() * memories.size(), 0.0);
        StringSink reason;
        const starling_status status = table->memories(host_->context, &memories.raw(), out.data(), reason.sink());
        throw_unless_ok(status, reason.text());
        return out;
    }

    /// How similar `text`, as a memory not yet stored, is to each of `memories`: one value in [0, 1]
    /// per memory. nullopt when the host offers no similarity; throws as similarities() does.
    [[nodiscard]] std::optional<std::vector<double>> similarity_to(std::string_view text,
                                                                   const MemoryBatch &memories) const {
        const auto *table = similarity_table();
        if (table == nullptr) {
            return std::nullopt;
        }
        std::vector<double> out(memories.size(), 0.0);
        StringSink reason;
        const starling_status status =
            table->text(host_->context, as_bytes(text), &memories.raw(), out.data(), reason.sink());
        throw_unless_ok(status, reason.text());
        return out;
    }

private:
    [[nodiscard]] const starling_host_similarity_v1 *similarity_table() const noexcept {
        const auto *table =
            static_cast<const starling_host_similarity_v1 *>(extension(STARLING_HOST_SIMILARITY_EXTENSION_V1));
        if (table == nullptr || table->struct_size < STARLING_HOST_SIMILARITY_V1_SIZE_1_5 ||
            table->memories == nullptr || table->text == nullptr) {
            return nullptr;
        }
        return table;
    }

    static void throw_unless_ok(starling_status status, const std::string &reason) {
        if (status != STARLING_STATUS_OK) {
            throw std::runtime_error("the host's similarity failed: " +
                                     (reason.empty() ? "status " + std::to_string(status) : reason));
        }
    }

    const starling_host *host_;
};

/// What an adapter prints for its agent.
struct RenderedReply {
    std::string stdout_text;
    int exit_code = 0;
};

/// Base of agent adapters. Throw std::invalid_argument for malformed payloads.
class Adapter {
public:
    static constexpr starling_plugin_kind kind = STARLING_KIND_ADAPTER;
    virtual ~Adapter() = default;
    /// Turns one hook invocation (arguments after the program name, stdin) into a canonical event.
    virtual Event parse(const std::vector<std::string> &argv, std::string_view payload) = 0;
    /// Renders Starling's reply to `event` exactly as the agent expects it.
    virtual RenderedReply render(const Event &event, const Reply &reply) = 0;
    /// How Starling is installed into this agent; none: the adapter cannot be installed.
    virtual std::optional<AgentIntegration> integration() { return std::nullopt; }
};

/// Base of decision policies: which messages are worth remembering, as what, where.
class DecisionPolicy {
public:
    static constexpr starling_plugin_kind kind = STARLING_KIND_DECISION_POLICY;
    virtual ~DecisionPolicy() = default;
    /// One decision per message, in order.
    virtual std::vector<Decision> decide(const std::vector<Message> &messages) = 0;
    /// The text asking the model to run this decision tree over the recent messages.
    virtual std::string review_request(const ReviewRequest &request) = 0;
    /// Whether decide() weighs how closely each message restates an existing memory (ABI 1.6). A
    /// policy that does sets this to true in its class; the host then searches the store for each
    /// message's closest memory before every decision (Message::closest_similarity), which costs a
    /// duplicate search per message on every stop, so leave it false unless the rules need it.
    static constexpr bool wants_closest_similarity = false;
};

/// Base of decay policies: what to review, promote, merge and forget at a given time.
class DecayPolicy {
public:
    static constexpr starling_plugin_kind kind = STARLING_KIND_DECAY_POLICY;
    /// Whether plan() reads the memories' texts (ABI 1.4). A policy that does sets this to true in
    /// its class; the host then reads every memory's file before it plans, which costs a store of
    /// 10,000 memories 10,000 reads per consolidation, so leave it false unless the rules need texts.
    static constexpr bool plans_with_bodies = false;
    virtual ~DecayPolicy() = default;
    virtual std::vector<LifecycleAction> plan(const MemoryBatch &memories) = 0;
};

/// Base of relevance policies: how well each memory of a batch answers a query.
class RelevancePolicy {
public:
    static constexpr starling_plugin_kind kind = STARLING_KIND_RELEVANCE_POLICY;
    virtual ~RelevancePolicy() = default;
    /// Writes one score per memory into `scores` (pre-filled with 0; 0 means unrelated).
    virtual void score(std::string_view query, const MemoryBatch &memories, std::span<double> scores) = 0;
};

/// A set of memories indexed as one (starling_collection): every memory of one scope. Borrowed for
/// the call.
struct Collection {
    std::string_view id;      ///< "user" or "projects/<project id>"; not a file name as it stands
    std::string_view version; ///< changes whenever the collection's content does; compare it whole
};

/// One memory of a ranking; the key is the plugin's own, valid until its next call.
struct RankedMemory {
    std::string_view key;
    double score = 0.0;
};

/// The optional second base of a relevance policy that keeps an index of each collection
/// (starling.relevance-index/1), so that a query reads only what it needs. Derive from both
/// RelevancePolicy and RelevanceIndex; the host falls back to score() whenever rank() says the index
/// is stale.
/// A decay policy that judges whether a new message restates a memory (starling.duplicates/1):
/// derive from DecayPolicy and DuplicateJudge. Without it, every remembered message is a new memory.
class DuplicateJudge {
public:
    virtual ~DuplicateJudge() = default;
    /// Writes into `similarities` (pre-filled with 0) how closely `text` restates each memory, in
    /// [0, 1]. With bodies (memories.has_bodies()) judge what each memory says, else its summary and
    /// tags.
    virtual void similarity(std::string_view text, const MemoryBatch &memories, std::span<double> similarities) = 0;
};

/// An adapter whose agent keeps its own record of past sessions (starling.session-history/1, since
/// ABI 1.8): derive from Adapter and SessionHistoryReader, and say where the records are in the
/// integration's `history`.
class SessionHistoryReader {
public:
    virtual ~SessionHistoryReader() = default;
    /// What the user said in one file of those records, in the order the agent recorded it; nothing
    /// for a file of no format the adapter knows. Never what the agent said in the user's name.
    virtual std::vector<RecordedPrompt> read_history(std::string_view path, std::string_view text) = 0;
};

class RelevanceIndex {
public:
    virtual ~RelevanceIndex() = default;
    /// Whether a sound index of exactly this version of the collection is at hand. May read the whole
    /// index: the host asks off the path an agent waits on.
    virtual bool index_current(const Collection &collection) = 0;
    /// Indexes every memory of the collection (all of them, in the host's listing order), replacing
    /// its previous index atomically.
    virtual void build_index(const Collection &collection, const MemoryBatch &memories) = 0;
    /// The `limit` best memories of `collections` that score above 0, exactly as score() would rank
    /// one batch of all of them (collections in order, each in build order) at time `now`: best
    /// first, equal scores in batch order. nullopt when an index is missing, damaged or of another
    /// version.
    virtual std::optional<std::vector<RankedMemory>> rank(std::string_view query,
                                                          std::span<const Collection> collections,
                                                          std::int64_t now, std::size_t limit) = 0;
};

/// The optional base of a relevance policy that widens a query with terms of its own choosing, as
/// pseudo-relevance feedback does (starling.relevance-first-pass/1, since ABI 1.10): how its first
/// pass scored and ranked, before the widening. Derive from RelevancePolicy and FirstPassRelevance
/// (and from RelevanceIndex, whose rank() rank_first_pass() mirrors, if the policy keeps indexes).
class FirstPassRelevance {
public:
    virtual ~FirstPassRelevance() = default;
    /// As RelevancePolicy::score(), from the first pass.
    virtual void score_first_pass(std::string_view query, const MemoryBatch &memories, std::span<double> scores) = 0;
    /// As RelevanceIndex::rank(), from the first pass; asked only of a policy that is a RelevanceIndex.
    virtual std::optional<std::vector<RankedMemory>> rank_first_pass(std::string_view query,
                                                                     std::span<const Collection> collections,
                                                                     std::int64_t now, std::size_t limit) = 0;
};

namespace detail {

/// Output JSON must survive invalid UTF-8 in agent payloads: replace, never throw.
[[nodiscard]] inline std::string dump_json(const nlohmann::json &json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

[[nodiscard]] inline nlohmann::json parse_json_argument(starling_bytes bytes, const char *what) {
    auto parsed = nlohmann::json::parse(as_string_view(bytes), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
        throw std::invalid_argument(std::string{what} + " is not valid JSON");
    }
    return parsed;
}

/// Runs `body`, turning every exception into a status and a message: nothing unwinds into C.
template <class Body>
starling_status guarded(starling_sink error, Body &&body) noexcept {
    try {
        body();
        return STARLING_STATUS_OK;
    } catch (const std::invalid_argument &failure) {
        write_to(error, failure.what());
        return STARLING_STATUS_INVALID_INPUT;
    } catch (const std::exception &failure) {
        write_to(error, failure.what());
        return STARLING_STATUS_INTERNAL_ERROR;
    } catch (...) {
        write_to(error, "unknown exception");
        return STARLING_STATUS_INTERNAL_ERROR;
    }
}

template <class PluginClass>
struct Instance {
    Instance(const starling_host *host, const Settings &settings) : services(host), plugin(services, settings) {}
    HostServices services;
    PluginClass plugin;
};

template <class PluginClass>
PluginClass &plugin_of(void *instance) noexcept {
    return static_cast<Instance<PluginClass> *>(instance)->plugin;
}

template <class PluginClass>
void *create(const starling_host *host, starling_bytes settings_json, starling_sink error) noexcept {
    void *created = nullptr;
    const auto status = guarded(error, [&] {
        const Settings settings = settings_from_json(as_string_view(settings_json));
        created = new Instance<PluginClass>(host, settings);
    });
    return status == STARLING_STATUS_OK ? created : nullptr;
}

template <class PluginClass>
void destroy(void *instance) noexcept {
    delete static_cast<Instance<PluginClass> *>(instance);
}

template <class PluginClass>
starling_status adapter_parse(void *instance, starling_bytes invocation_json, starling_bytes payload,
                              starling_sink event_out, starling_sink error) noexcept {
    return guarded(error, [&] {
        const auto invocation = parse_json_argument(invocation_json, "invocation");
        std::vector<std::string> argv;
        if (const auto args = invocation.find("argv"); args != invocation.end() && args->is_array()) {
            for (const auto &arg : *args) {
                argv.push_back(arg.is_string() ? arg.get<std::string>() : arg.dump());
            }
        }
        const Event event = plugin_of<PluginClass>(instance).parse(argv, as_string_view(payload));
        write_to(event_out, dump_json(to_json(event)));
    });
}

template <class PluginClass>
starling_status adapter_render(void *instance, starling_bytes reply_json, starling_sink stdout_out,
                               int32_t *exit_code, starling_sink error) noexcept {
    return guarded(error, [&] {
        const auto request = parse_json_argument(reply_json, "render request");
        if (!request.is_object() || !request.contains("event") || !request.contains("reply")) {
            throw std::invalid_argument("render request needs 'event' and 'reply'");
        }
        const Event event = event_from_json(request.at("event"));
        const Reply reply = reply_from_json(request.at("reply"));
        const RenderedReply rendered = plugin_of<PluginClass>(instance).render(event, reply);
        write_to(stdout_out, rendered.stdout_text);
        if (exit_code != nullptr) {
            *exit_code = rendered.exit_code;
        }
    });
}

template <class PluginClass>
starling_status adapter_integration(void *instance, starling_sink integration_out, starling_sink error) noexcept {
    bool declared = true;
    const starling_status status = guarded(error, [&] {
        const auto integration = plugin_of<PluginClass>(instance).integration();
        declared = integration.has_value();
        if (declared) {
            write_to(integration_out, to_json(*integration).dump());
        }
    });
    return status == STARLING_STATUS_OK && !declared ? STARLING_STATUS_UNSUPPORTED : status;
}

template <class PluginClass>
starling_status session_history_read(void *instance, starling_bytes path, starling_bytes text,
                                     starling_sink prompts_out, starling_sink error) noexcept {
    return guarded(error, [&] {
        const auto prompts = plugin_of<PluginClass>(instance).read_history(as_string_view(path), as_string_view(text));
        write_to(prompts_out, nlohmann::json{{"prompts", to_json(prompts)}}.dump());
    });
}

template <class PluginClass>
starling_status decision_decide(void *instance, starling_bytes request_json, starling_sink decisions_out,
                                starling_sink error) noexcept {
    return guarded(error, [&] {
        const auto request = parse_json_argument(request_json, "decision request");
        std::vector<Message> messages;
        if (const auto list = request.find("messages"); list != request.end() && list->is_array()) {
            for (const auto &item : *list) {
                messages.push_back(message_from_json(item));
            }
        }
        const auto decisions = plugin_of<PluginClass>(instance).decide(messages);
        if (decisions.size() != messages.size()) {
            throw std::logic_error("decision policy returned " + std::to_string(decisions.size()) +
                                   " decisions for " + std::to_string(messages.size()) + " messages");
        }
        nlohmann::json out{{"decisions", nlohmann::json::array()}};
        for (const auto &decision : decisions) {
            out["decisions"].push_back(to_json(decision));
        }
        write_to(decisions_out, dump_json(out));
    });
}

template <class PluginClass>
starling_status decision_review_request(void *instance, starling_bytes request_json, starling_sink text_out,
                                        starling_sink error) noexcept {
    return guarded(error, [&] {
        const auto request = review_request_from_json(parse_json_argument(request_json, "review request"));
        write_to(text_out, plugin_of<PluginClass>(instance).review_request(request));
    });
}

template <class PluginClass>
starling_status decay_plan(void *instance, const starling_memory_batch *batch, starling_sink actions_out,
                           starling_sink error) noexcept {
    return guarded(error, [&] {
        if (batch == nullptr) {
            throw std::invalid_argument("decay plan called without a batch");
        }
        const auto actions = plugin_of<PluginClass>(instance).plan(MemoryBatch{*batch});
        nlohmann::json out{{"actions", nlohmann::json::array()}};
        for (const auto &action : actions) {
            out["actions"].push_back(to_json(action));
        }
        write_to(actions_out, dump_json(out));
    });
}

/// A score() call of either pass over the ABI: `score` is the plugin's RelevancePolicy::score or
/// FirstPassRelevance::score_first_pass.
template <class PluginClass, auto score>
starling_status relevance_score(void *instance, starling_bytes query, const starling_memory_batch *batch,
                                double *scores, starling_sink error) noexcept {
    return guarded(error, [&] {
        if (batch == nullptr || (batch->count > 0 && scores == nullptr)) {
            throw std::invalid_argument("relevance score called without a batch or score buffer");
        }
        std::span<double> out{scores, batch->count};
        std::fill(out.begin(), out.end(), 0.0);
        (plugin_of<PluginClass>(instance).*score)(as_string_view(query), MemoryBatch{*batch}, out);
    });
}

template <class PluginClass>
starling_status duplicates_similarity(void *instance, starling_bytes text, const starling_memory_batch *batch,
                                      double *similarities, starling_sink error) noexcept {
    return guarded(error, [&] {
        if (batch == nullptr || (batch->count > 0 && similarities == nullptr)) {
            throw std::invalid_argument("duplicate similarity called without a batch or result buffer");
        }
        std::span<double> out{similarities, batch->count};
        std::fill(out.begin(), out.end(), 0.0);
        plugin_of<PluginClass>(instance).similarity(as_string_view(text), MemoryBatch{*batch}, out);
    });
}

[[nodiscard]] inline Collection collection_of(const starling_collection *collection) {
    if (collection == nullptr || collection->struct_size < STARLING_COLLECTION_SIZE_1_2) {
        throw std::invalid_argument("relevance index called without a collection, or with one too small");
    }
    return {as_string_view(collection->id), as_string_view(collection->version)};
}

template <class PluginClass>
starling_status relevance_index_check(void *instance, const starling_collection *collection,
                                      starling_sink error) noexcept {
    bool current = false;
    const auto status = guarded(error, [&] {
        current = plugin_of<PluginClass>(instance).index_current(collection_of(collection));
    });
    return status != STARLING_STATUS_OK ? status : current ? STARLING_STATUS_OK : STARLING_STATUS_STALE;
}

template <class PluginClass>
starling_status relevance_index_build(void *instance, const starling_collection *collection,
                                      const starling_memory_batch *batch, starling_sink error) noexcept {
    return guarded(error, [&] {
        if (batch == nullptr) {
            throw std::invalid_argument("relevance index build called without a batch");
        }
        plugin_of<PluginClass>(instance).build_index(collection_of(collection), MemoryBatch{*batch});
    });
}

/// A rank() call of either pass over the ABI: `rank` is the plugin's RelevanceIndex::rank or
/// FirstPassRelevance::rank_first_pass.
template <class PluginClass, auto rank>
starling_status relevance_index_rank(void *instance, starling_bytes query,
                                     const starling_collection *const *collections, std::size_t count,
                                     std::int64_t now, std::size_t limit, starling_ranking_sink ranking,
                                     starling_sink error) noexcept {
    bool stale = false;
    const auto status = guarded(error, [&] {
        if ((count > 0 && collections == nullptr) || ranking.add == nullptr) {
            throw std::invalid_argument("relevance index rank called without collections or a ranking sink");
        }
        std::vector<Collection> wanted;
        wanted.reserve(count);
        for (std::size_t index = 0; index < count; ++index) {
            wanted.push_back(collection_of(collections[index]));
        }
        const auto ranked = (plugin_of<PluginClass>(instance).*rank)(as_string_view(query), wanted, now, limit);
        if (!ranked) {
            stale = true;
            return;
        }
        for (std::size_t index = 0; index < ranked->size() && index < limit; ++index) {
            ranking.add(ranking.context, as_bytes((*ranked)[index].key), (*ranked)[index].score);
        }
    });
    return status == STARLING_STATUS_OK && stale ? STARLING_STATUS_STALE : status;
}

/// The first pass's rank() entry, or NULL for a policy that keeps no index.
template <class PluginClass>
constexpr auto rank_first_pass_entry() noexcept -> decltype(starling_relevance_first_pass_v1::rank) {
    if constexpr (std::is_base_of_v<RelevanceIndex, PluginClass>) {
        return &relevance_index_rank<PluginClass, &FirstPassRelevance::rank_first_pass>;
    } else {
        return nullptr;
    }
}

template <class PluginClass>
const void *get_interface(const char *interface_id) noexcept {
    if (interface_id == nullptr) {
        return nullptr;
    }
    const std::string_view id{interface_id};
    if constexpr (PluginClass::kind == STARLING_KIND_ADAPTER) {
        static const starling_adapter_v1 table{sizeof(starling_adapter_v1), &adapter_parse<PluginClass>,
                                               &adapter_render<PluginClass>, &adapter_integration<PluginClass>};
        if (id == STARLING_ADAPTER_INTERFACE_V1) {
            return &table;
        }
        if constexpr (std::is_base_of_v<SessionHistoryReader, PluginClass>) {
            static const starling_session_history_v1 history_table{sizeof(starling_session_history_v1),
                                                                   &session_history_read<PluginClass>};
            if (id == STARLING_SESSION_HISTORY_INTERFACE_V1) {
                return &history_table;
            }
        }
        return nullptr;
    } else if constexpr (PluginClass::kind == STARLING_KIND_DECISION_POLICY) {
        static const starling_decision_v1 table{
            sizeof(starling_decision_v1), &decision_decide<PluginClass>, &decision_review_request<PluginClass>,
            PluginClass::wants_closest_similarity ? STARLING_DECISION_WANTS_CLOSEST_SIMILARITY : 0u};
        return id == STARLING_DECISION_INTERFACE_V1 ? &table : nullptr;
    } else if constexpr (PluginClass::kind == STARLING_KIND_DECAY_POLICY) {
        static const starling_decay_v1 table{sizeof(starling_decay_v1), &decay_plan<PluginClass>,
                                             PluginClass::plans_with_bodies ? STARLING_DECAY_PLANS_WITH_BODIES : 0u};
        if (id == STARLING_DECAY_INTERFACE_V1) {
            return &table;
        }
        if constexpr (std::is_base_of_v<DuplicateJudge, PluginClass>) {
            static const starling_duplicates_v1 duplicates_table{sizeof(starling_duplicates_v1),
                                                                 &duplicates_similarity<PluginClass>};
            if (id == STARLING_DUPLICATES_INTERFACE_V1) {
                return &duplicates_table;
            }
        }
        return nullptr;
    } else {
        static_assert(PluginClass::kind == STARLING_KIND_RELEVANCE_POLICY, "unknown plugin kind");
        static const starling_relevance_v1 table{sizeof(starling_relevance_v1),
                                                 &relevance_score<PluginClass, &RelevancePolicy::score>};
        if (id == STARLING_RELEVANCE_INTERFACE_V1) {
            return &table;
        }
        if constexpr (std::is_base_of_v<RelevanceIndex, PluginClass>) {
            static const starling_relevance_index_v1 index_table{
                sizeof(starling_relevance_index_v1), &relevance_index_check<PluginClass>,
                &relevance_index_build<PluginClass>, &relevance_index_rank<PluginClass, &RelevanceIndex::rank>};
            if (id == STARLING_RELEVANCE_INDEX_INTERFACE_V1) {
                return &index_table;
            }
        }
        if constexpr (std::is_base_of_v<FirstPassRelevance, PluginClass>) {
            static const starling_relevance_first_pass_v1 first_pass_table{
                sizeof(starling_relevance_first_pass_v1),
                &relevance_score<PluginClass, &FirstPassRelevance::score_first_pass>,
                rank_first_pass_entry<PluginClass>()};
            if (id == STARLING_RELEVANCE_FIRST_PASS_INTERFACE_V1) {
                return &first_pass_table;
            }
        }
        return nullptr;
    }
}

/// The oldest host minor a plugin class says it needs (`static constexpr std::uint32_t
/// host_minor_required`), or 0: a plugin that only reads what the host's struct sizes and
/// extensions say is there works with any 1.x host.
template <class PluginClass> constexpr std::uint32_t host_minor_required_of() noexcept {
    if constexpr (requires { PluginClass::host_minor_required; }) {
        return PluginClass::host_minor_required;
    } else {
        return 0;
    }
}

/// Where the module holding this code lives, once the host has initialised it (hidden visibility
/// makes this one per module).
inline std::optional<std::filesystem::path> &module_path_storage() noexcept {
    static std::optional<std::filesystem::path> path;
    return path;
}

/// The module entry's functions over `Plugins::entries`, the entry functions of the plugins the
/// module offers, in order.
template <class Plugins> struct Module {
    static std::int32_t init(const starling_host *host, const char *module_path) noexcept {
        if (host == nullptr || host->abi_major != STARLING_ABI_MAJOR || module_path == nullptr) {
            return 0;
        }
        try {
            module_path_storage() = std::filesystem::path{module_path};
        } catch (...) {
            return 0;
        }
        return 1;
    }
    static void deinit() noexcept { module_path_storage().reset(); }
    static std::uint32_t count() noexcept { return static_cast<std::uint32_t>(std::size(Plugins::entries)); }
    static const starling_plugin_descriptor *descriptor(const starling_host *host, std::uint32_t index) noexcept {
        return index < count() ? Plugins::entries[index](host) : nullptr;
    }
    static const void *get_factory(const char *factory_id) noexcept {
        static const starling_plugin_factory_v1 factory{sizeof(starling_plugin_factory_v1), &count, &descriptor};
        return factory_id != nullptr && std::string_view{factory_id} == STARLING_PLUGIN_FACTORY_V1 ? &factory : nullptr;
    }
    static constexpr starling_module_entry entry{STARLING_ABI_MAJOR, STARLING_ABI_MINOR, sizeof(starling_module_entry),
                                                 &init, &deinit, &get_factory};
};

/// Builds the descriptor once; refuses a host of another ABI major version.
template <class PluginClass>
const starling_plugin_descriptor *describe(const starling_host *host, const char *id, const char *version,
                                           const char *description, const char *default_settings_json) noexcept {
    if (host == nullptr || host->abi_major != STARLING_ABI_MAJOR) {
        return nullptr;
    }
    static const starling_plugin_descriptor descriptor{
        STARLING_ABI_MAJOR,        STARLING_ABI_MINOR,      sizeof(starling_plugin_descriptor),
        PluginClass::kind,         id,                      version,
        description,               default_settings_json,   &create<PluginClass>,
        &destroy<PluginClass>,     &get_interface<PluginClass>, host_minor_required_of<PluginClass>(),
    };
    return &descriptor;
}

} // namespace detail

/// The file of the loadable module this plugin was loaded from, so that it can find data shipped
/// beside it (`module_path()->parent_path() / "my-data.tsv"`); nothing for a plugin linked into the
/// Starling binaries, and before the host has initialised the module (ABI 1.7 on). Not thread-safe
/// against the host's init and deinit of the module, which happen before create and after destroy.
[[nodiscard]] inline std::optional<std::filesystem::path> module_path() { return detail::module_path_storage(); }

} // namespace starling::sdk

/// Declares a plugin: exports `starling_plugin_entry_<symbol>`. `symbol` is the id with '-' → '_'.
#define STARLING_DECLARE_PLUGIN(symbol, PluginClass, id, version, description, default_settings_json)           \
    extern "C" STARLING_EXPORT const starling_plugin_descriptor *starling_plugin_entry_##symbol(                  \
        const starling_host *host) {                                                                           \
        return ::starling::sdk::detail::describe<PluginClass>(host, id, version, description,                  \
                                                              default_settings_json);                          \
    }

/// Defines the module entry `starling_module` (ABI 1.7) of a loadable module offering the plugins
/// whose entry functions are listed, in order: `STARLING_DEFINE_MODULE(starling_plugin_entry_a,
/// starling_plugin_entry_b)` for plugins declared with STARLING_DECLARE_PLUGIN(a, …) and (b, …).
/// Exactly one per loadable module; never in a static build. The Starling CMake helpers generate it.
#define STARLING_DEFINE_MODULE(...)                                                                            \
    namespace {                                                                                                \
    struct starling_module_plugins {                                                                           \
        static constexpr starling_plugin_entry_fn entries[] = {__VA_ARGS__};                                   \
    };                                                                                                         \
    }                                                                                                          \
    extern "C" STARLING_EXPORT const starling_module_entry starling_module =                                   \
        ::starling::sdk::detail::Module<starling_module_plugins>::entry;

/// The module entry of a module that offers the one plugin declared with `symbol`.
#define STARLING_DEFINE_MODULE_ENTRY(symbol)                                                                   \
    extern "C" const starling_plugin_descriptor *starling_plugin_entry_##symbol(const starling_host *host);   \
    STARLING_DEFINE_MODULE(&starling_plugin_entry_##symbol)
