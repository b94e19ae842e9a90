// SPDX-License-Identifier: Apache-2.0
#include "mcp_tools.hpp"

#include "agent_integration.hpp"

#include <starling/app/memory_search.hpp>
#include <starling/app/output.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/lifecycle/injection.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/store/index/access_kind.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/store/record/memory_links.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace starling::app {
namespace {

using Json = nlohmann::json;

constexpr std::size_t default_search_limit = 10;
constexpr std::size_t max_search_limit = 50;
constexpr std::size_t max_get_ids = 20;

/// Read-only, closed-world tools say so, so that clients may run them without asking.
Json annotations(const char *title, bool read_only, bool destructive, bool idempotent) {
    return Json{{"title", title},
                {"readOnlyHint", read_only},
                {"destructiveHint", destructive},
                {"idempotentHint", idempotent},
                {"openWorldHint", false}};
}

Json tool(const char *name, const char *description, Json properties, std::vector<std::string> required, Json hints) {
    Json schema{{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
    if (!required.empty()) {
        schema["required"] = std::move(required);
    }
    return Json{{"name", name}, {"description", description}, {"inputSchema", std::move(schema)}, {"annotations", std::move(hints)}};
}

/// What a memory's text adds when newer memories changed it in part (`amended_by`): that they are
/// newer, to be read with it.
std::string changed_since(const std::vector<std::string> &amended_by) {
    if (amended_by.empty()) {
        return {};
    }
    std::string text = "; changed in part since by ";
    for (std::size_t at = 0; at < amended_by.size(); ++at) {
        text += (at == 0 ? "" : at + 1 == amended_by.size() ? " and " : ", ") + amended_by[at];
    }
    return text + (amended_by.size() == 1 ? ", which is newer" : ", which are newer");
}

std::string required_text(const Json &arguments, const char *name) {
    const auto found = arguments.find(name);
    if (found == arguments.end() || !found->is_string() || found->get<std::string>().empty()) {
        throw std::invalid_argument(std::string{"'"} + name + "' is required: a non-empty string");
    }
    return found->get<std::string>();
}

std::optional<std::string> optional_text(const Json &arguments, const char *name) {
    const auto found = arguments.find(name);
    if (found == arguments.end() || found->is_null()) {
        return std::nullopt;
    }
    if (!found->is_string()) {
        throw std::invalid_argument(std::string{"'"} + name + "' must be a string");
    }
    return found->get<std::string>();
}

std::optional<std::size_t> optional_count(const Json &arguments, const char *name, std::size_t least, std::size_t most) {
    const auto found = arguments.find(name);
    if (found == arguments.end() || found->is_null()) {
        return std::nullopt;
    }
    if (!found->is_number_integer() || found->get<std::int64_t>() < static_cast<std::int64_t>(least) ||
        found->get<std::int64_t>() > static_cast<std::int64_t>(most)) {
        throw std::invalid_argument(std::string{"'"} + name + "' must be a whole number from " + std::to_string(least) +
                                    " to " + std::to_string(most));
    }
    return static_cast<std::size_t>(found->get<std::int64_t>());
}

bool optional_flag(const Json &arguments, const char *name, bool otherwise) {
    const auto found = arguments.find(name);
    if (found == arguments.end() || found->is_null()) {
        return otherwise;
    }
    if (!found->is_boolean()) {
        throw std::invalid_argument(std::string{"'"} + name + "' must be true or false");
    }
    return found->get<bool>();
}

/// What reading a memory in full costs the model, estimated from its file as injection estimates
/// text (about four bytes a token), without opening it.
std::size_t token_cost(const core::IndexEntry &entry) { return static_cast<std::size_t>(entry.file.size / 4 + 1); }

std::string scope_name(const core::IndexEntry &entry) { return entry.scope_kind == core::ScopeKind::user ? "user" : "project"; }

} // namespace

std::string mcp_instructions() {
    return "Starling is the user's long-term memory, shared by their coding agents: their preferences, "
           "corrections, role, and each project's rules and references. Search it (memory_search, then "
           "memory_get for the ids that matter) before answering about the user's setup, conventions or past "
           "decisions; keep what the user asks you to remember (memory_remember).";
}

StoreTools::StoreTools(Application &application, std::filesystem::path directory, std::string agent)
    : application_(&application), directory_(std::move(directory)), agent_(std::move(agent)) {}

Json StoreTools::list() const {
    const Json scope{{"type", "string"},
                     {"enum", {"project", "user", "all"}},
                     {"description", "user: about the user everywhere; project: this project; all (default): both"}};
    return Json::array({
        tool("memory_search",
             "Search the user's memories. Returns a compact index (id, summary, type, scope, score, tokens to read "
             "it in full), best first; read the ones that matter with memory_get.",
             {{"query", {{"type", "string"}, {"description", "what to look for, in any words"}}},
              {"scope", scope},
              {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", max_search_limit}, {"description", "at most this many (default 10)"}}},
              {"budget_tokens", {{"type", "integer"}, {"minimum", 1}, {"description", "stop before the listed memories together cost more to read"}}}},
             {"query"}, annotations("Search memories", true, false, true)),
        tool("memory_get", "Read memories in full (text, fields, links) by the ids memory_search gave.",
             {{"ids", {{"type", "array"}, {"items", {{"type", "string"}}}, {"minItems", 1}, {"maxItems", max_get_ids}}}},
             {"ids"}, annotations("Read memories", true, false, true)),
        tool("memory_remember",
             "Keep something for future sessions: a preference, correction, fact about the user or the project. "
             "The decision policy may discard it (the reason says why); force keeps it anyway.",
             {{"text", {{"type", "string"}, {"description", "what to remember, as the user said it"}}},
              {"force", {{"type", "boolean"}, {"description", "store even if the policy would discard it"}}},
              {"type", {{"type", "string"}, {"enum", {"feedback", "user", "project", "reference"}}, {"description", "with force only"}}},
              {"scope", {{"type", "string"}, {"enum", {"user", "project"}}, {"description", "with force only"}}}},
             {"text"}, annotations("Remember", false, false, false)),
        tool("memory_forget", "Archive a memory that is wrong or obsolete (the user can restore it).",
             {{"id", {{"type", "string"}}}, {"reason", {{"type", "string"}, {"description", "why, for the user"}}}},
             {"id", "reason"}, annotations("Forget a memory", false, true, true)),
        tool("memory_pin", "Pin a memory so that it is never forgotten, or unpin it.",
             {{"id", {{"type", "string"}}}, {"pinned", {{"type", "boolean"}, {"description", "false unpins (default true)"}}}},
             {"id"}, annotations("Pin a memory", false, false, true)),
        tool("memory_context", "What the next session start would give you: the user's standing memories and this project's.",
             Json::object(), {}, annotations("Session context", true, false, true)),
    });
}

std::optional<ToolResult> StoreTools::call(std::string_view name, const Json &arguments) {
    using Handler = ToolResult (StoreTools::*)(const Json &);
    static const std::vector<std::pair<std::string_view, Handler>> handlers{
        {"memory_search", &StoreTools::search}, {"memory_get", &StoreTools::get},
        {"memory_remember", &StoreTools::remember}, {"memory_forget", &StoreTools::forget},
        {"memory_pin", &StoreTools::pin}, {"memory_context", &StoreTools::context}};
    const auto handler = std::find_if(handlers.begin(), handlers.end(), [&](const auto &entry) { return entry.first == name; });
    if (handler == handlers.end()) {
        return std::nullopt;
    }
    try {
        return (this->*handler->second)(arguments);
    } catch (const core::StoreError &error) {
        // The store said no (a memory that is not there, a store it cannot write): the model reads why.
        application_->logger().warning("mcp", std::string{name} + ": " + error.what());
        return ToolResult{error.what(), Json::object(), true};
    }
}

std::string StoreTools::project() {
    return application_->store().resolve_project(directory_, core::MemoryStore::ProjectFolder::look_up);
}

std::string StoreTools::session() const {
    return agent_session_from_environment(*application_).value_or("mcp-" + agent_);
}

ToolResult StoreTools::search(const Json &arguments) {
    const std::string query = required_text(arguments, "query");
    const std::string scope = optional_text(arguments, "scope").value_or("all");
    if (scope != "all" && scope != "user" && scope != "project") {
        throw std::invalid_argument("'scope' must be project, user or all, not '" + scope + "'");
    }
    const std::size_t limit = optional_count(arguments, "limit", 1, max_search_limit).value_or(default_search_limit);
    const auto budget = optional_count(arguments, "budget_tokens", 1, SIZE_MAX);
    auto &store = application_->store();
    std::vector<core::IndexEntry> entries;
    for (const core::Scope &listed : {core::Scope::user(), core::Scope::project(project())}) {
        if (scope == "all" || (scope == "user") == listed.is_user()) {
            core::ListFilter filter;
            filter.scope = listed;
            auto part = store.list(filter);
            entries.insert(entries.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
        }
    }
    const auto hits = search_memories(*application_, query, std::move(entries));
    Json results = Json::array();
    std::string text;
    std::size_t spent = 0;
    for (const SearchHit &hit : hits) {
        const std::size_t cost = token_cost(hit.entry);
        if (results.size() == limit || (budget && spent + cost > *budget)) {
            break;
        }
        spent += cost;
        Json result{{"id", hit.entry.id},       {"summary", hit.entry.summary}, {"type", hit.entry.type},
                    {"scope", scope_name(hit.entry)}, {"score", hit.score},     {"tokens", cost}};
        if (!hit.entry.superseded_by.empty()) {
            result["superseded_by"] = hit.entry.superseded_by;
        }
        const auto amended_by = core::linked_ids(hit.entry.fields, core::amended_by_link_relation);
        if (!amended_by.empty()) {
            result["amended_by"] = amended_by;
        }
        text += hit.entry.id + "  " + score_in_text(hit.score) + "  [" + hit.entry.type + ", " + scope_name(hit.entry) +
                "]  " + hit.entry.summary + "  (~" + std::to_string(cost) + " tokens" +
                (hit.entry.superseded_by.empty() ? "" : ", superseded by " + hit.entry.superseded_by) +
                changed_since(amended_by) + ")\n";
        results.push_back(std::move(result));
    }
    if (results.empty()) {
        text = "no memory matches '" + query + "'";
    }
    return ToolResult{text, Json{{"query", query}, {"results", std::move(results)}}};
}

ToolResult StoreTools::get(const Json &arguments) {
    const auto ids = arguments.find("ids");
    if (ids == arguments.end() || !ids->is_array() || ids->empty() || ids->size() > max_get_ids ||
        !std::all_of(ids->begin(), ids->end(), [](const Json &id) { return id.is_string(); })) {
        throw std::invalid_argument("'ids' is required: 1 to " + std::to_string(max_get_ids) + " memory ids (strings)");
    }
    auto &store = application_->store();
    Json memories = Json::array();
    Json missing = Json::array();
    std::vector<std::string> keys;
    std::string text;
    for (const Json &id : *ids) {
        std::string key;
        core::Memory memory;
        try {
            key = store.find_memory(id.get<std::string>());
            memory = store.read(key);
        } catch (const core::StoreError &error) {
            missing.push_back({{"id", id}, {"reason", error.what()}});
            text += "no memory " + id.get<std::string>() + ": " + error.what() + "\n\n";
            continue;
        }
        keys.push_back(key);
        const auto parts = core::split_memory_key(key);
        const std::string scope = parts && parts->scope_kind == core::ScopeKind::project ? "project" : "user";
        Json links = Json::array();
        std::vector<std::string> amended_by;
        for (const auto &item : core::link_items(memory)) {
            links.push_back(item);
            if (auto link = core::parse_link(item); link.relation == core::amended_by_link_relation) {
                amended_by.push_back(std::move(link.id));
            }
        }
        const std::string memory_id = core::memory_id_of(memory);
        Json item{{"id", memory_id},
                  {"summary", memory.summary},
                  {"type", memory.type},
                  {"scope", scope},
                  {"tags", memory.tags},
                  {"created", core::format_timestamp(memory.created)},
                  {"last_accessed", core::format_timestamp(memory.last_accessed)},
                  {"access_count", memory.access_count},
                  {"pinned", memory.pinned},
                  {"links", links},
                  {"path", store.path_of(key).string()},
                  {"body", memory.body}};
        if (!memory.superseded_by.empty()) {
            item["superseded_by"] = memory.superseded_by;
        }
        if (!amended_by.empty()) {
            item["amended_by"] = amended_by;
        }
        memories.push_back(std::move(item));
        text += "## " + memory.summary + "\n(" + memory_id + ", " + memory.type + ", " + scope + " memory" +
                (memory.superseded_by.empty() ? "" : "; superseded by " + memory.superseded_by + ", do not follow it") +
                changed_since(amended_by) + ")\n" + memory.body + "\n";
    }
    if (!keys.empty()) {
        // Reading a memory the agent asked for is a use of it, as a read of its file is.
        try {
            store.note_accesses(keys, session(), core::AccessKind::use);
        } catch (const core::StoreError &error) {
            application_->logger().warning("mcp", std::string{"memory_get: the use was not noted: "} + error.what());
        }
    }
    const bool none_found = memories.empty();
    return ToolResult{text, Json{{"memories", std::move(memories)}, {"missing", std::move(missing)}}, none_found};
}

ToolResult StoreTools::remember(const Json &arguments) {
    core::RememberRequest request;
    request.text = required_text(arguments, "text");
    request.agent = agent_;
    request.session_id = session();
    // The agent calls memory_remember for what the user asks it to keep.
    request.asked_to_keep = true;
    const bool force = optional_flag(arguments, "force", false);
    const auto type = optional_text(arguments, "type");
    const auto scope = optional_text(arguments, "scope");
    if (!force && (type || scope)) {
        throw std::invalid_argument("'type' and 'scope' choose where a memory goes only with force: true; without it "
                                    "the decision policy decides");
    }
    const bool user_scope_only = force && scope.value_or("user") == "user";
    request.project_id = application_->store().resolve_project(
        directory_, user_scope_only ? core::MemoryStore::ProjectFolder::look_up : core::MemoryStore::ProjectFolder::record);
    if (force) {
        sdk::Decision forced;
        forced.store = true;
        forced.type = type.value_or("feedback");
        if (forced.type != "feedback" && forced.type != "user" && forced.type != "project" && forced.type != "reference") {
            throw std::invalid_argument("'type' must be feedback, user, project or reference, not '" + forced.type + "'");
        }
        forced.scope = scope.value_or("user");
        if (forced.scope != "user" && forced.scope != "project") {
            throw std::invalid_argument("'scope' must be user or project, not '" + forced.scope + "'");
        }
        forced.reason = "stored with force";
        request.forced = forced;
    }
    core::Rememberer rememberer{application_->store(), application_->active_policies(),
                                application_->lifecycle_settings().remember};
    const auto outcome = rememberer.remember(request);
    Json structured{{"action", core::to_string(outcome.action)}, {"reason", outcome.reason}};
    if (outcome.action == core::RememberOutcome::Action::discarded) {
        structured["id"] = nullptr;
        return ToolResult{"not stored: " + outcome.reason + ". Call memory_remember again with force: true to keep it anyway.",
                          std::move(structured)};
    }
    const std::string id = core::memory_id_of(application_->store().read(outcome.key));
    structured["id"] = id;
    std::string text = std::string{core::to_string(outcome.action)} + " memory " + id + ": " + outcome.reason;
    if (outcome.corrected) {
        structured["corrected"] = Json{{"older", outcome.corrected->older}, {"newer", outcome.corrected->newer}};
    }
    if (!outcome.superseded.empty()) {
        const std::string old_id = core::memory_id_of(application_->store().read(outcome.superseded));
        structured["supersedes"] = old_id;
        text += "; it corrects memory " + old_id + ", which is no longer given to agents";
    }
    return ToolResult{text, std::move(structured)};
}

ToolResult StoreTools::forget(const Json &arguments) {
    const std::string id = required_text(arguments, "id");
    const std::string reason = required_text(arguments, "reason");
    auto &store = application_->store();
    const auto archived = store.archive(store.find_memory(id), reason);
    return ToolResult{"archived " + id + " (" + archived.original_key + "); the user can bring it back with `starling restore " +
                          archived.id + "`",
                      Json{{"id", id}, {"archive_id", archived.id}, {"key", archived.original_key}}};
}

ToolResult StoreTools::pin(const Json &arguments) {
    const std::string id = required_text(arguments, "id");
    const bool pinned = optional_flag(arguments, "pinned", true);
    auto &store = application_->store();
    const auto key = store.find_memory(id);
    const auto memory = store.update(key, [&](core::Memory &updated) {
        updated.pinned = pinned;
        updated.erase_extra_field("pinned_by"); // pinned on request, as `starling pin`: not the decay policy's to lift
    });
    return ToolResult{std::string{pinned ? "pinned " : "unpinned "} + core::memory_id_of(memory),
                      Json{{"id", core::memory_id_of(memory)}, {"pinned", pinned}}};
}

ToolResult StoreTools::context(const Json &) {
    auto &store = application_->store();
    const std::string project_id = project();
    const auto settings = application_->lifecycle_settings().injection;
    const auto injection = core::session_start_injection(store, application_->active_policies().relevance, project_id,
                                                         directory_.filename().string() + " " + project_id, {}, settings);
    Json memories = Json::array();
    for (const auto &memory : injection.memories) {
        memories.push_back(memory.key);
    }
    return ToolResult{injection.context.empty() ? std::string{"no standing memories yet"} : injection.context,
                      Json{{"context", injection.context}, {"tokens", injection.tokens}, {"memories", std::move(memories)}}};
}

} // namespace starling::app
