// SPDX-License-Identifier: Apache-2.0
// What leaves this machine and what came to it (docs/sharing.md): `starling sync`'s private
// repository, the team folders of `[sharing] projects`, and the memories kept home.
#include "viewer_pages.hpp"

#include <starling/app/sharing/team_folder.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

namespace starling::app::ui {

namespace {

constexpr std::size_t listed_items = 50;

/// A field the index keeps among a memory's other fields (as JSON), as text; empty when absent.
std::string other_field(const core::IndexEntry &entry, std::string_view name) {
    if (entry.fields.find("\"" + std::string(name) + "\"") == std::string::npos) {
        return {};
    }
    const auto fields = nlohmann::json::parse(entry.fields, nullptr, false);
    if (!fields.is_object() || !fields.contains(std::string(name))) {
        return {};
    }
    const auto &value = fields[std::string(name)];
    return value.is_string() ? value.get<std::string>() : value.dump();
}

/// Whether a memory may leave the machine: not when it is marked `private: true`
/// (sharing::may_leave_machine, read from the index rather than from every file).
bool is_private(const core::IndexEntry &entry) {
    return other_field(entry, "private") == "true";
}

std::string memory_list(const std::vector<const core::IndexEntry *> &entries) {
    if (entries.empty()) {
        return "<p class=\"muted\">None.</p>";
    }
    std::string html = "<ul>";
    for (std::size_t index = 0; index < std::min(entries.size(), listed_items); ++index) {
        html += "<li>" + memory_link(entries[index]->id, entries[index]->id) + " " + escape_html(entries[index]->summary) + "</li>";
    }
    if (entries.size() > listed_items) {
        html += "<li class=\"muted\">and " + std::to_string(entries.size() - listed_items) + " more</li>";
    }
    return html + "</ul>";
}

std::string project_of(Application &application, const std::filesystem::path &directory) {
    try {
        return application.store().resolve_project(directory, core::MemoryStore::ProjectFolder::look_up);
    } catch (const std::exception &) {
        return {};
    }
}

} // namespace

HttpResponse sharing_page(ViewerContext &context, const FormFields &) {
    auto &application = context.application;
    const auto entries = all_memories(application);
    const auto &config = application.config();
    Page page;
    page.section = Section::sharing;
    page.title = "Sharing";

    std::set<std::string> synced_projects;
    for (const auto &directory : config.sync.projects) {
        synced_projects.insert(project_of(application, directory));
    }
    std::vector<const core::IndexEntry *> kept_home;
    std::vector<const core::IndexEntry *> received;
    std::size_t would_sync = 0;
    for (const auto &entry : entries) {
        if (is_private(entry)) {
            kept_home.push_back(&entry);
            continue;
        }
        if (entry.scope_kind == core::ScopeKind::user || synced_projects.contains(entry.project_id)) {
            ++would_sync;
        }
        const auto elsewhere = other_field(entry, "uses_elsewhere");
        if (!elsewhere.empty() && elsewhere != "0") {
            received.push_back(&entry);
        }
    }
    page.content += "<h2>starling sync: your memories on all your machines</h2><p id=\"sync\">" +
                    (config.sync.remote.empty() ? std::string{"No repository is set (sync.remote): nothing is synced yet."}
                                                : "Repository: <code>" + escape_html(config.sync.remote) + "</code>.") +
                    " A sync would carry " + std::to_string(would_sync) + " memories: the user's" +
                    (synced_projects.empty() ? std::string{}
                                             : " and those of " + std::to_string(synced_projects.size()) +
                                                   " project(s) of sync.projects") +
                    ". Session logs, the index and private memories never travel.</p>";

    page.content += "<h2>Team folders</h2>";
    if (config.sharing.projects.empty()) {
        page.content += "<p class=\"muted\">No project's team folder is active ([sharing] projects); "
                        "<code>starling share</code> shares one by hand.</p>";
    }
    for (const auto &directory : config.sharing.projects) {
        const auto project = project_of(application, directory);
        const auto folder = directory / std::string(sharing::team_folder_path);
        std::size_t proposed = 0;
        for (const auto &entry : entries) {
            proposed += entry.project_id == project && !is_private(entry) ? 1 : 0;
        }
        std::vector<std::string> files;
        std::error_code error;
        for (const auto &file : std::filesystem::directory_iterator(folder, error)) {
            if (file.path().extension() == ".md") {
                files.push_back(file.path().filename().string());
            }
        }
        std::sort(files.begin(), files.end());
        page.content += "<h3>" + escape_html(directory.string()) + "</h3><p>Project " + escape_html(project) + ": " +
                        std::to_string(proposed) + " memories would be " +
                        (config.sharing.propose ? "proposed into" : "kept out of (sharing.propose is off)") + " <code>" +
                        escape_html(folder.string()) + "</code>, which holds " + std::to_string(files.size()) +
                        " shared memories now.</p>";
        if (!files.empty()) {
            page.content += "<ul>";
            for (std::size_t index = 0; index < std::min(files.size(), listed_items); ++index) {
                page.content += "<li>" + escape_html(files[index]) + "</li>";
            }
            page.content += "</ul>";
        }
    }
    page.content += "<h2>Received from other machines</h2><p class=\"muted\">Memories that other machines have used "
                    "too (uses_elsewhere, written by starling sync).</p>" +
                    memory_list(received);
    page.content += "<h2>Kept on this machine</h2><p class=\"muted\">Marked private (<code>starling private</code>): "
                    "never synced nor shared.</p>" +
                    memory_list(kept_home);
    return page_response(page);
}

} // namespace starling::app::ui
