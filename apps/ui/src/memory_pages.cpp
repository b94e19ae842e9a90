// SPDX-License-Identifier: Apache-2.0
// The memories: the filtered and searched list, one memory's page with its edit form, and the
// actions its forms post (edit, pin, forget, restore), each a MemoryStore write as the CLI makes it.
#include "viewer_pages.hpp"

#include <starling/app/memory_search.hpp>
#include <starling/app/ui/decay_forecast.hpp>
#include <starling/app/ui/memory_version.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/lifecycle/episode_links.hpp>
#include <starling/core/lifecycle/memory_provenance.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/index/indexed_memory.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_links.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

namespace starling::app::ui {

namespace {

constexpr std::size_t memories_per_page = 50;

/// What a person may type to name a memory in the viewer's URLs: an id or a key, never a path
/// outside the store (MemoryStore::find_memory also takes paths).
std::string memory_named(ViewerContext &context, const FormFields &fields) {
    const auto name = field(fields, "id").value_or("");
    if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos) {
        throw PageError(400, "Name a memory by its id, e.g. /memory?id=k3f9a2q.");
    }
    try {
        return context.application.store().find_memory(name);
    } catch (const core::StoreError &failure) {
        throw PageError(404, failure.what());
    }
}

/// The `agent` of a memory's other fields (the index keeps them as JSON), when one is recorded.
std::string agent_of(const core::IndexEntry &entry) {
    if (entry.fields.find("\"agent\"") == std::string::npos) {
        return {};
    }
    const auto fields = nlohmann::json::parse(entry.fields, nullptr, false);
    if (fields.is_object() && fields.contains("agent") && fields["agent"].is_string()) {
        return fields["agent"].get<std::string>();
    }
    return {};
}

struct MemoryFilter {
    std::string scope;      ///< "", "user" or "project"
    std::string project;    ///< a project id, or ""
    std::string agent;      ///< "", or the agent a memory records
    std::string type;       ///< "", or a type
    std::string tier;       ///< "", "short" or "long"
    std::string pinned;     ///< "", "yes" or "no"
    std::string superseded; ///< "", "yes" or "no"
    std::string query;      ///< full-text search, ranked as `starling search`

    static MemoryFilter from(const FormFields &query) {
        MemoryFilter filter;
        filter.scope = field(query, "scope").value_or("");
        filter.project = field(query, "project").value_or("");
        filter.agent = field(query, "agent").value_or("");
        filter.type = field(query, "type").value_or("");
        filter.tier = field(query, "tier").value_or("");
        filter.pinned = field(query, "pinned").value_or("");
        filter.superseded = field(query, "superseded").value_or("");
        filter.query = field(query, "q").value_or("");
        return filter;
    }

    [[nodiscard]] bool keeps(const core::IndexEntry &entry) const {
        const auto matches_flag = [](const std::string &wanted, bool value) {
            return wanted.empty() || (wanted == "yes") == value;
        };
        return (scope.empty() || core::to_string(entry.scope_kind) == scope) &&
               (project.empty() || entry.project_id == project) && (type.empty() || entry.type == type) &&
               (tier.empty() || core::to_string(entry.tier) == tier) && matches_flag(pinned, entry.pinned) &&
               matches_flag(superseded, !entry.superseded_by.empty()) && (agent.empty() || agent_of(entry) == agent);
    }

    /// The query string of this filter, for the pager's links.
    [[nodiscard]] std::string query_string() const {
        std::string text;
        const auto add = [&](std::string_view name, const std::string &value) {
            if (!value.empty()) {
                text += "&" + std::string(name) + "=" + url_encode(value);
            }
        };
        add("scope", scope);
        add("project", project);
        add("agent", agent);
        add("type", type);
        add("tier", tier);
        add("pinned", pinned);
        add("superseded", superseded);
        add("q", query);
        return text;
    }
};

std::string select_field(std::string_view name, std::string_view label, const std::vector<std::string> &choices,
                         const std::string &chosen) {
    std::string html = "<label>" + std::string(label) + "<select name=\"" + std::string(name) + "\"><option value=\"\">any</option>";
    for (const auto &choice : choices) {
        html += "<option value=\"" + escape_html(choice) + "\"" + (choice == chosen ? " selected" : "") + ">" +
                escape_html(choice) + "</option>";
    }
    return html + "</select></label>";
}

std::string filter_form(const MemoryFilter &filter, const std::vector<core::IndexEntry> &entries) {
    std::set<std::string> projects;
    std::set<std::string> types;
    for (const auto &entry : entries) {
        if (!entry.project_id.empty()) {
            projects.insert(entry.project_id);
        }
        types.insert(entry.type);
    }
    std::string html = "<form class=\"filters\" method=\"get\" action=\"/memories\">";
    html += "<label>Search<input type=\"search\" name=\"q\" value=\"" + escape_html(filter.query) + "\"></label>";
    html += select_field("scope", "Scope", {"user", "project"}, filter.scope);
    html += select_field("project", "Project", {projects.begin(), projects.end()}, filter.project);
    html += "<label>Agent<input name=\"agent\" size=\"10\" value=\"" + escape_html(filter.agent) + "\"></label>";
    html += select_field("type", "Type", {types.begin(), types.end()}, filter.type);
    html += select_field("tier", "Tier", {"short", "long"}, filter.tier);
    html += select_field("pinned", "Pinned", {"yes", "no"}, filter.pinned);
    html += select_field("superseded", "Superseded", {"yes", "no"}, filter.superseded);
    return html + "<button type=\"submit\">Show</button></form>";
}

std::string flags_of(const core::IndexEntry &entry) {
    std::string html;
    if (entry.pinned) {
        html += "<span class=\"tag pinned\">pinned</span>";
    }
    if (!entry.superseded_by.empty()) {
        html += "<span class=\"tag superseded\">superseded</span>";
    }
    if (entry.review) {
        html += "<span class=\"tag\">under review</span>";
    }
    return html;
}

/// The items of a frontmatter list as written: `[a, b]` or one bare value.
std::vector<std::string> list_items(std::string_view raw) {
    if (raw.starts_with('[') && raw.ends_with(']')) {
        raw = raw.substr(1, raw.size() - 2);
    }
    std::vector<std::string> items;
    std::size_t position = 0;
    while (position <= raw.size()) {
        const std::size_t end = std::min(raw.find(',', position), raw.size());
        std::string item(raw.substr(position, end - position));
        item.erase(0, item.find_first_not_of(" \"'"));
        item.erase(item.find_last_not_of(" \"'") + 1);
        if (!item.empty()) {
            items.push_back(item);
        }
        position = end + 1;
    }
    return items;
}

/// What one memory's page shows, read from one read of its file, so that the version the forms
/// carry is that of what the page shows.
struct ShownMemory {
    std::string key;
    std::string version;
    core::Memory memory;
};

ShownMemory shown_memory(ViewerContext &context, const std::string &key) {
    auto &store = context.application.store();
    const std::string bytes = core::read_file(store.path_of(key));
    return {key, memory_version(bytes), core::parse_memory(bytes, store.path_of(key).string())};
}

std::string row(std::string_view name, std::string_view value) {
    return "<tr><th>" + escape_html(name) + "</th><td>" + escape_html(value) + "</td></tr>";
}

/// The summary of the memory with id `id`; nothing when it is gone (archived, deleted by hand).
std::optional<std::string> summary_of_id(ViewerContext &context, const std::string &id) {
    try {
        auto &store = context.application.store();
        return store.read(store.find_memory(id)).summary;
    } catch (const core::StoreError &) {
        return std::nullopt;
    }
}

std::string text_section(ViewerContext &context, const ShownMemory &shown) {
    std::string html = "<h2>Text</h2><p>" + escape_html(shown.memory.summary) +
                       "</p><div class=\"memory-text\" id=\"memory-text\">" + escape_html(shown.memory.body) + "</div>";
    // As the hooks show it to an agent: never without what a newer memory changed in it since.
    for (const auto &id : core::linked_ids(shown.memory, core::amended_by_link_relation)) {
        if (const auto newer = summary_of_id(context, id)) {
            html += "<p class=\"notice changed-in-part\">Changed in part since (" + memory_link(id, id) +
                    ", newer): " + escape_html(*newer) + "</p>";
        }
    }
    return html;
}

std::string fields_section(ViewerContext &context, const ShownMemory &shown) {
    const auto &memory = shown.memory;
    std::string tags;
    for (const auto &tag : memory.tags) {
        tags += (tags.empty() ? "" : ", ") + tag;
    }
    const auto last_injected = core::last_injected(memory);
    std::string html = "<h2>Fields</h2><table class=\"fields\">";
    html += row("id", core::memory_id_of(memory));
    html += row("file", context.application.store().path_of(shown.key).string());
    html += row("type", memory.type);
    html += row("tags", tags);
    html += row("created", readable_time(memory.created));
    html += row("last used", readable_time(memory.last_accessed));
    html += row("uses", std::to_string(memory.access_count));
    html += row("sessions", std::to_string(memory.session_count()));
    const auto injections = core::injection_count(memory);
    html += row("injected", std::to_string(injections) + (injections == 1 ? " time" : " times") +
                                (last_injected ? ", last " + readable_time(*last_injected) : std::string{}));
    html += row("pinned", memory.pinned ? "yes: never archived, reviewed or merged away" : "no");
    html += row("under review", memory.review ? "yes" : "no");
    for (const auto &entry : memory.frontmatter) {
        // links have a section of their own; the injection fields are the "injected" row above.
        const bool shown_elsewhere = entry.key == "links" || entry.key == "injection_count" || entry.key == "last_injected";
        if (entry.is_field() && !core::is_typed_memory_field(entry.key) && !shown_elsewhere) {
            html += row(entry.key, entry.value);
        }
    }
    return html + "</table>";
}

/// What a relation of `links` means, said from the memory whose page it is.
std::string relation_said(std::string_view relation) {
    if (relation == core::amends_link_relation) return "changes in part (older)";
    if (relation == core::amended_by_link_relation) return "changed in part by (newer)";
    if (relation == core::alike_link_relation) return "said alike, kept apart";
    if (relation == core::episode_relation) return "remembered just after";
    if (relation == sdk::default_link_relation) return "related";
    return std::string{relation};
}

std::string links_section(ViewerContext &context, const ShownMemory &shown) {
    std::string html = "<h2>Links</h2>";
    std::vector<std::pair<std::string, std::string>> links; // relation as said, id
    if (!shown.memory.superseded_by.empty()) {
        links.emplace_back("superseded by (newer)", shown.memory.superseded_by);
    }
    if (const auto *written = shown.memory.extra_field("links")) {
        for (const auto &item : list_items(written->value)) {
            const auto link = core::parse_link(item);
            links.emplace_back(relation_said(link.relation), link.id);
        }
    }
    if (links.empty()) {
        return html + "<p class=\"muted\">No links to other memories.</p>";
    }
    html += "<table><tr><th>relation</th><th>memory</th><th>it says</th></tr>";
    for (const auto &[relation, id] : links) {
        const auto summary = summary_of_id(context, id);
        html += "<tr><td>" + escape_html(relation) + "</td><td>" + memory_link(id, id) + "</td><td>" +
                (summary ? escape_html(*summary) : std::string{"<span class=\"muted\">gone (archived or deleted)</span>"}) +
                "</td></tr>";
    }
    return html + "</table>";
}

/// "by AGENT in session S", as far as the event says; the session links to its page.
std::string who_and_where(const core::ProvenanceEvent &event) {
    std::string html;
    if (!event.agent.empty()) {
        html += " by " + escape_html(event.agent);
    }
    if (const auto message = core::parse_message_reference(event.message)) {
        html += " in session <a href=\"/session?id=" + escape_html(url_encode(message->session_stem)) + "\">" +
                escape_html(event.session.empty() ? message->session_stem : event.session) + "</a>, message " +
                std::to_string(message->index + 1);
    } else if (!event.session.empty()) {
        html += " in session " + escape_html(event.session);
    }
    return html;
}

/// Where the memory came from and what happened to it since (`starling why`).
std::string history_section(ViewerContext &context, const ShownMemory &shown) {
    std::string html = "<h2>History</h2><div id=\"history\">";
    core::MemoryProvenance provenance;
    try {
        provenance = core::provenance_of(context.application.store(), shown.memory);
    } catch (const core::StoreError &failure) {
        return html + "<p class=\"notice error\">Its history cannot be read: " + escape_html(failure.what()) + "</p></div>";
    }
    const auto &history = provenance.history;
    if (const auto &origin = history.origin) {
        html += "<p><strong>" + escape_html(std::string{core::to_string(origin->kind)}) + "</strong> " +
                escape_html(readable_time(origin->time)) + who_and_where(*origin) +
                (provenance.origin_from_fields ? " <span class=\"muted\">(from the memory's fields)</span>" : "") + "</p>";
        if (provenance.origin_message) {
            html += "<blockquote class=\"memory-text\">" + escape_html(provenance.origin_message->text) + "</blockquote>";
        } else if (!origin->text.empty()) {
            html += "<blockquote class=\"memory-text\">" + escape_html(origin->text) + "</blockquote>" +
                    (origin->message.empty() ? "" : "<p class=\"muted\">Its session log is gone; this is what was kept of it.</p>");
        }
        if (!origin->decision.empty() || !origin->reason.empty()) {
            html += "<p>Decided: " + escape_html(origin->decision) +
                    (origin->reason.empty() ? "" : " — " + escape_html(origin->reason)) + "</p>";
        }
    } else {
        html += "<p class=\"muted\">Where it came from was not recorded (written by hand, or before Starling kept histories).</p>";
    }
    if (history.events.empty()) {
        return html + "<p class=\"muted\">Nothing happened to it since.</p></div>";
    }
    html += "<table id=\"history-events\"><tr><th>when</th><th>what</th><th>why</th></tr>";
    if (history.dropped > 0) {
        html += "<tr><td colspan=\"3\" class=\"muted\">" + std::to_string(history.dropped) + " older events not kept</td></tr>";
    }
    for (const auto &event : history.events) {
        html += "<tr><td>" + escape_html(readable_time(event.time)) + "</td><td>" + escape_html(core::event_words(event)) +
                who_and_where(event) + "</td><td>" + escape_html(event.reason) + "</td></tr>";
    }
    return html + "</table></div>";
}

std::string decay_section(ViewerContext &context, const ShownMemory &shown) {
    std::string html = "<h2>Decay</h2>";
    const auto *planner = context.application.active_policies().decay;
    const std::string policy = context.application.config().policies.decay;
    if (planner == nullptr) {
        return html + "<p>No decay policy is active (policies.decay is empty): nothing decays.</p>";
    }
    auto &store = context.application.store();
    std::optional<core::IndexEntry> entry;
    for (const auto &indexed : store.list_indexed()) {
        if (indexed.key == shown.key) {
            entry = core::to_index_entry(indexed);
            break;
        }
    }
    html += "<p>Under the active decay policy <code>" + escape_html(policy) + "</code>, ";
    if (!entry) {
        return html + "once the index lists this memory (after the next listing).</p>";
    }
    const auto forecast = forecast_decay(*planner, {*entry}, {shown.memory.body}, store.clock().now()).front();
    if (!forecast) {
        html += "if nobody uses it, nothing happens to it within two years.";
    } else {
        html += "if nobody uses it: <strong>" + escape_html(forecast->action) + "</strong> " +
                (forecast->in_days == 0 ? std::string{"at the next consolidation"}
                                        : "in " + std::to_string(forecast->in_days) + " days") +
                " (" + escape_html(forecast->reason) + ").";
        if (shown.memory.pinned && (forecast->action == "archive" || forecast->action == "merge")) {
            html += " It is pinned, so consolidation skips that.";
        }
    }
    html += " A use postpones it. What the policy decides from: tier " + escape_html(core::to_string(entry->tier)) +
            ", last used " + escape_html(readable_time(entry->last_accessed)) + ", " + std::to_string(entry->access_count) +
            " uses in " + std::to_string(entry->session_count) + " sessions, created " +
            escape_html(readable_time(entry->created)) + (entry->review ? ", under review" : "") + ".</p>";
    return html;
}

std::string hidden(std::string_view name, std::string_view value) {
    return "<input type=\"hidden\" name=\"" + std::string(name) + "\" value=\"" + escape_html(value) + "\">";
}

std::string edit_section(ViewerContext &context, const ShownMemory &shown) {
    const auto &memory = shown.memory;
    std::string tags;
    for (const auto &tag : memory.tags) {
        tags += (tags.empty() ? "" : ", ") + tag;
    }
    const std::string id = core::memory_id_of(memory);
    std::string html = "<h2>Edit</h2><form class=\"edit\" method=\"post\" action=\"/memory/edit\">" +
                       csrf_field(context.settings.secrets.csrf_token) + hidden("id", id) + hidden("version", shown.version);
    html += "<label>Summary<input name=\"summary\" required value=\"" + escape_html(memory.summary) + "\"></label>";
    html += "<label>Type<input name=\"type\" required pattern=\"[a-z][a-z0-9_-]*\" value=\"" + escape_html(memory.type) +
            "\"></label>";
    html += "<label>Tags (comma-separated)<input name=\"tags\" value=\"" + escape_html(tags) + "\"></label>";
    html += "<label>Text<textarea name=\"body\">" + escape_html(memory.body) + "</textarea></label>";
    return html + "<div><button type=\"submit\" id=\"save\">Save</button></div></form>";
}

std::string actions_section(ViewerContext &context, const ShownMemory &shown) {
    const std::string id = core::memory_id_of(shown.memory);
    const std::string common = csrf_field(context.settings.secrets.csrf_token) + hidden("id", id) + hidden("version", shown.version);
    std::string html = "<h2>Actions</h2><p>";
    html += "<form class=\"inline\" method=\"post\" action=\"/memory/pin\">" + common +
            hidden("pinned", shown.memory.pinned ? "no" : "yes") + "<button type=\"submit\" class=\"secondary\" id=\"pin\">" +
            (shown.memory.pinned ? "Unpin" : "Pin") + "</button></form> ";
    if (!shown.memory.superseded_by.empty()) {
        html += "<form class=\"inline\" method=\"post\" action=\"/memory/restore\">" + common +
                "<button type=\"submit\" class=\"secondary\" id=\"lift\">Restore (no longer superseded)</button></form> ";
    }
    html += "<form class=\"inline\" method=\"post\" action=\"/memory/forget\">" + common +
            "<button type=\"submit\" class=\"danger\" id=\"forget\">Forget (archive it)</button></form></p>"
            "<p class=\"muted\">Forgetting archives the file first; the archive page restores it.</p>";
    return html;
}

/// The sections of a memory's page, in order. A new section is one more entry here.
using MemorySection = std::string (*)(ViewerContext &, const ShownMemory &);
constexpr MemorySection memory_sections[] = {&text_section, &fields_section, &links_section, &history_section,
                                             &decay_section, &edit_section,  &actions_section};

/// What a `done` parameter of a memory's page says: the outcome of the form that led there.
std::string done_message(std::string_view done) {
    if (done == "edited") return "Saved.";
    if (done == "pinned") return "Pinned: never archived, reviewed or merged away.";
    if (done == "unpinned") return "Unpinned: the decay policy decides again.";
    if (done == "restored") return "Restored.";
    if (done == "lifted") return "No longer superseded: both memories are injected now.";
    return {};
}

HttpResponse render_memory_page(ViewerContext &context, const ShownMemory &shown, const std::string &banner,
                                unsigned status) {
    Page page;
    page.section = Section::memories;
    page.title = "Memory " + core::memory_id_of(shown.memory);
    page.content = banner;
    for (const MemorySection section : memory_sections) {
        page.content += section(context, shown);
    }
    return page_response(page, status);
}

/// The memory a form names, and the version it was shown at.
std::pair<std::string, std::string> form_target(ViewerContext &context, const FormFields &form) {
    const auto version = field(form, "version").value_or("");
    if (version.empty()) {
        throw PageError(400, "The form does not say which version of the memory it was made from.");
    }
    return {memory_named(context, form), version};
}

/// The page of a memory whose change was refused because its file changed: the memory as it is
/// now, the refusal, and what the person had typed, to copy into the new form.
HttpResponse conflict_page(ViewerContext &context, const std::string &key, const EditConflict &conflict,
                           const FormFields &form) {
    std::string banner = notice("error", std::string(conflict.what()) +
                                             ". The page now shows the memory as it is on disk; make the change again on it.");
    if (const auto typed = field(form, "body")) {
        banner += "<details><summary>What you had typed</summary><pre>" + escape_html(*typed) + "</pre></details>";
    }
    return render_memory_page(context, shown_memory(context, key), banner, 409);
}

std::string memory_location(ViewerContext &context, const std::string &key, std::string_view done) {
    return "/memory?id=" + url_encode(core::memory_id_of(context.application.store().read(key))) + "&done=" +
           std::string(done);
}

} // namespace

HttpResponse memories_page(ViewerContext &context, const FormFields &query) {
    const MemoryFilter filter = MemoryFilter::from(query);
    std::vector<core::IndexEntry> listed;
    const std::vector<core::IndexEntry> *entries = &listed;
    std::vector<const core::IndexEntry *> kept;
    std::vector<double> scores;
    if (!filter.query.empty()) {
        // Every memory is ranked, whatever the filters show: a memory's score does not depend on
        // which others are shown, and one batch (prepared when the viewer started) serves all.
        auto &search = context.caches.search;
        search.refresh(context.application);
        entries = &search.entries();
        auto &last = context.caches.last_search;
        if (last.asked != filter.query || last.index_version != search.index_version() ||
            search.index_version().empty()) {
            last = LastSearch{filter.query, search.index_version(),
                              rank_batch(context.application, filter.query, search.batch(context.application))};
        }
        for (const auto &hit : last.hits) {
            const auto &entry = (*entries)[hit.index];
            if (filter.keeps(entry)) {
                kept.push_back(&entry);
                scores.push_back(hit.score);
            }
        }
    } else {
        listed = all_memories(context.application);
        for (const auto &entry : listed) {
            if (filter.keeps(entry)) {
                kept.push_back(&entry);
            }
        }
        std::sort(kept.begin(), kept.end(), [](const auto *left, const auto *right) {
            return left->last_accessed != right->last_accessed ? left->last_accessed > right->last_accessed
                                                               : left->key < right->key;
        });
    }
    const std::size_t pages = std::max<std::size_t>(1, (kept.size() + memories_per_page - 1) / memories_per_page);
    std::size_t page_number = 1;
    if (const auto asked = field(query, "page")) {
        try {
            page_number = std::clamp<std::size_t>(std::stoul(*asked), 1, pages);
        } catch (const std::exception &) {
            throw PageError(400, "page must be a number, not '" + *asked + "'");
        }
    }
    Page page;
    page.section = Section::memories;
    page.title = "Memories";
    page.content = filter_form(filter, *entries);
    page.content += "<p class=\"muted\" id=\"memory-count\">" + std::to_string(kept.size()) + " of " +
                    std::to_string(entries->size()) + " memories" +
                    (filter.query.empty() ? ", most recently used first" : ", best match first (as starling search ranks)") +
                    ".</p>";
    page.content += "<table id=\"memories\"><tr><th>id</th><th>summary</th><th>type</th><th>tier</th><th>scope</th>"
                    "<th>last used</th>" +
                    std::string(scores.empty() ? "" : "<th class=\"number\">score</th>") + "</tr>";
    const std::size_t first = (page_number - 1) * memories_per_page;
    for (std::size_t index = first; index < std::min(kept.size(), first + memories_per_page); ++index) {
        const auto &entry = *kept[index];
        page.content += "<tr><td>" + memory_link(entry.id, entry.id) + "</td><td>" + escape_html(entry.summary) + " " +
                        flags_of(entry) + "</td><td>" + escape_html(entry.type) + "</td><td>" +
                        escape_html(core::to_string(entry.tier)) + "</td><td>" + escape_html(scope_text(entry)) +
                        "</td><td>" + escape_html(readable_time(entry.last_accessed)) + "</td>" +
                        (scores.empty() ? "" : "<td class=\"number\">" + std::to_string(scores[index]).substr(0, 6) + "</td>") +
                        "</tr>";
    }
    page.content += "</table><div class=\"pager\">";
    if (page_number > 1) {
        page.content += "<a href=\"/memories?page=" + std::to_string(page_number - 1) + escape_html(filter.query_string()) +
                        "\">← newer</a>";
    }
    page.content += "<span>page " + std::to_string(page_number) + " of " + std::to_string(pages) + "</span>";
    if (page_number < pages) {
        page.content += "<a href=\"/memories?page=" + std::to_string(page_number + 1) + escape_html(filter.query_string()) +
                        "\" id=\"next-page\">next →</a>";
    }
    page.content += "</div>";
    return page_response(page);
}

/// Records in the memory's history what a form of the viewer did to it (agent `ui`).
void record_ui_event(ViewerContext &context, const std::string &key, core::ProvenanceKind kind, std::string reason,
                     std::string other = {}) {
    auto &store = context.application.store();
    core::ProvenanceEvent event;
    event.time = store.clock().now();
    event.kind = kind;
    event.agent = "ui";
    event.reason = std::move(reason);
    event.other = std::move(other);
    core::record_provenance(store.root(), store.redactor(), core::memory_id_of(store.read(key)), std::move(event));
}

HttpResponse memory_page(ViewerContext &context, const FormFields &query) {
    const std::string key = memory_named(context, query);
    const std::string message = done_message(field(query, "done").value_or(""));
    return render_memory_page(context, shown_memory(context, key), message.empty() ? "" : notice("done", message), 200);
}

HttpResponse edit_memory(ViewerContext &context, const FormFields &form) {
    const auto [key, version] = form_target(context, form);
    const auto summary = field(form, "summary").value_or("");
    const auto type = field(form, "type").value_or("");
    if (summary.find_first_not_of(" \t\r\n") == std::string::npos || type.empty()) {
        throw PageError(400, "A memory needs a summary and a type; nothing was saved.");
    }
    std::vector<std::string> tags;
    for (const auto &tag : list_items(field(form, "tags").value_or(""))) {
        tags.push_back(tag);
    }
    std::vector<std::string> changed;
    try {
        update_if_unchanged(context.application.store(), key, version, [&](core::Memory &memory) {
            // Browsers send a textarea's line ends as CRLF; the file keeps its own.
            std::string body = field(form, "body").value_or("");
            std::erase(body, '\r');
            const auto note = [&](bool differs, const char *name) {
                if (differs) {
                    changed.emplace_back(name);
                }
            };
            note(memory.summary != summary, "summary");
            note(memory.type != type, "type");
            note(memory.tags != tags, "tags");
            note(memory.body != body, "text");
            memory.summary = summary;
            memory.type = type;
            memory.tags = tags;
            memory.body = body;
        });
    } catch (const EditConflict &conflict) {
        return conflict_page(context, key, conflict, form);
    }
    if (!changed.empty()) {
        std::string what = "changed its " + changed.front();
        for (std::size_t index = 1; index < changed.size(); ++index) {
            what += (index + 1 == changed.size() ? " and " : ", ") + changed[index];
        }
        record_ui_event(context, key, core::ProvenanceKind::edited, what);
    }
    return redirect_to(memory_location(context, key, "edited"));
}

HttpResponse pin_memory(ViewerContext &context, const FormFields &form) {
    const auto [key, version] = form_target(context, form);
    const bool pinned = field(form, "pinned").value_or("yes") == "yes";
    try {
        update_if_unchanged(context.application.store(), key, version, [&](core::Memory &memory) {
            memory.pinned = pinned;
            // As `starling pin`: the user's pin is the user's, never lifted by a decay plan.
            memory.erase_extra_field("pinned_by");
        });
    } catch (const EditConflict &conflict) {
        return conflict_page(context, key, conflict, form);
    }
    record_ui_event(context, key, pinned ? core::ProvenanceKind::pinned : core::ProvenanceKind::unpinned, {});
    return redirect_to(memory_location(context, key, pinned ? "pinned" : "unpinned"));
}

HttpResponse forget_memory(ViewerContext &context, const FormFields &form) {
    const auto [key, version] = form_target(context, form);
    auto &store = context.application.store();
    if (current_version(store, key) != version) {
        return conflict_page(context, key,
                             EditConflict("the memory " + key + " changed on disk since this page showed it; it was not forgotten"),
                             form);
    }
    // As `starling forget`: archived first, restorable from the archive.
    const auto archived = store.archive(key, "forgotten in starling ui");
    return redirect_to("/archive?done=" + url_encode(archived.id));
}

HttpResponse lift_supersession(ViewerContext &context, const FormFields &form) {
    const auto [key, version] = form_target(context, form);
    std::string replaced_by;
    try {
        update_if_unchanged(context.application.store(), key, version,
                            [&](core::Memory &memory) { replaced_by = core::lift_supersession(memory); });
    } catch (const EditConflict &conflict) {
        return conflict_page(context, key, conflict, form);
    }
    record_ui_event(context, key, core::ProvenanceKind::restored, "no longer superseded", replaced_by);
    return redirect_to(memory_location(context, key, "lifted"));
}

HttpResponse archive_page(ViewerContext &context, const FormFields &query) {
    constexpr std::size_t listed = 200;
    const auto entries = context.application.store().archived();
    Page page;
    page.section = Section::archive;
    page.title = "Archive";
    if (const auto done = field(query, "done")) {
        page.content += notice("done", "Archived as " + *done + ": restore it below to bring it back.");
    }
    if (const auto restored = field(query, "restored")) {
        page.content += notice("done", "Restored to " + *restored + ".");
    }
    page.content += "<p class=\"muted\">Every memory removed from the store (forgotten, archived by decay, merged "
                    "into another) is copied here first. " +
                    std::to_string(entries.size()) + " archived" +
                    (entries.size() > listed ? ", the " + std::to_string(listed) + " most recent shown" : std::string{}) +
                    ".</p><table id=\"archive\"><tr><th>archive id</th><th>memory</th><th>reason</th><th>archived</th><th></th></tr>";
    std::size_t shown = 0;
    for (auto entry = entries.rbegin(); entry != entries.rend() && shown < listed; ++entry, ++shown) {
        page.content += "<tr><td>" + escape_html(entry->id) + "</td><td>" + escape_html(entry->original_key) + "</td><td>" +
                        escape_html(entry->reason) + "</td><td>" + escape_html(readable_time(entry->archived_at)) + "</td><td>";
        if (entry->restored_key) {
            page.content += "restored to " + escape_html(*entry->restored_key);
        } else {
            page.content += "<form class=\"inline\" method=\"post\" action=\"/archive/restore\">" +
                            csrf_field(context.settings.secrets.csrf_token) + hidden("archive", entry->id) +
                            "<button type=\"submit\" class=\"secondary\">Restore</button></form>";
        }
        page.content += "</td></tr>";
    }
    page.content += "</table>";
    return page_response(page);
}

HttpResponse restore_archived(ViewerContext &context, const FormFields &form) {
    const auto archive_id = field(form, "archive").value_or("");
    if (archive_id.empty()) {
        throw PageError(400, "Name the archive entry to restore.");
    }
    const auto key = context.application.store().restore(archive_id);
    return redirect_to("/archive?restored=" + url_encode(core::memory_id_of(context.application.store().read(key))));
}

} // namespace starling::app::ui
