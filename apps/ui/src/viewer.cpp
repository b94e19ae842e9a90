// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/viewer.hpp>

#include "viewer_pages.hpp"

#include <starling/app/memory_search.hpp>
#include <starling/app/ui/ui_assets.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/store/index/indexed_memory.hpp>

#include <algorithm>
#include <utility>

namespace starling::app::ui {

namespace {

using GetPage = HttpResponse (*)(ViewerContext &, const FormFields &);

/// The routes: each path answers GET or POST, never both, so that no link can change anything.
const std::vector<std::pair<std::string_view, GetPage>> &get_routes() {
    static const std::vector<std::pair<std::string_view, GetPage>> routes{
        {"/", &overview_page},       {"/memories", &memories_page}, {"/memory", &memory_page},
        {"/sessions", &sessions_page}, {"/session", &session_page},   {"/archive", &archive_page},
        {"/sharing", &sharing_page},
    };
    return routes;
}

const std::vector<std::pair<std::string_view, GetPage>> &post_routes() {
    static const std::vector<std::pair<std::string_view, GetPage>> routes{
        {"/memory/edit", &edit_memory},     {"/memory/pin", &pin_memory},
        {"/memory/forget", &forget_memory}, {"/memory/restore", &lift_supersession},
        {"/archive/restore", &restore_archived},
    };
    return routes;
}

GetPage route(const std::vector<std::pair<std::string_view, GetPage>> &routes, std::string_view path) {
    const auto found = std::find_if(routes.begin(), routes.end(), [&](const auto &entry) { return entry.first == path; });
    return found == routes.end() ? nullptr : found->second;
}

HttpResponse error_page(unsigned status, std::string_view message) {
    Page page;
    page.title = status == 404 ? "Not found" : status == 400 ? "Cannot do that" : "Something went wrong";
    page.content = notice("error", message) + "<p><a href=\"/\">Back to the overview</a></p>";
    return page_response(page, status);
}

} // namespace

HttpResponse page_response(const Page &page, unsigned status) {
    HttpResponse response;
    response.status = status;
    response.body = render_page(page);
    return response;
}

HttpResponse redirect_to(const std::string &location) {
    HttpResponse response;
    response.status = 303;
    response.headers.emplace_back("Location", location);
    return response;
}

std::string memory_link(std::string_view id, std::string_view text) {
    return "<a href=\"/memory?id=" + escape_html(url_encode(id)) + "\">" + escape_html(text) + "</a>";
}

std::string readable_time(std::chrono::sys_seconds time) {
    std::string text = core::format_timestamp(time); // 2026-11-29T07:40:00Z
    if (text.size() >= 16) {
        text = text.substr(0, 10) + " " + text.substr(11, 5);
    }
    return text;
}

std::string scope_text(const core::IndexEntry &entry) {
    return entry.scope_kind == core::ScopeKind::user ? "user" : "project " + entry.project_id;
}

std::vector<core::IndexEntry> all_memories(Application &application) {
    std::vector<core::IndexEntry> entries;
    for (const auto &memory : application.store().list_indexed()) {
        entries.push_back(core::to_index_entry(memory));
    }
    return entries;
}

std::vector<std::string> MemoryTexts::of(const core::MemoryStore &store, const std::vector<core::IndexEntry> &entries) {
    std::unordered_map<std::string, std::pair<core::FileStamp, std::string>> current;
    std::vector<std::string> bodies;
    bodies.reserve(entries.size());
    for (const auto &entry : entries) {
        auto kept = texts_.find(entry.key);
        if (kept == texts_.end() || !(kept->second.first == entry.file)) {
            bodies.push_back(store.read(entry.key).body);
        } else {
            bodies.push_back(std::move(kept->second.second));
        }
        current.emplace(entry.key, std::make_pair(entry.file, bodies.back()));
    }
    texts_ = std::move(current); // forgotten memories leave the cache with the next search
    return bodies;
}

void SearchBatch::refresh(Application &application) {
    auto &store = application.store();
    const std::string version = store.index_version().value_or("");
    if (built_ && !version.empty() && version == index_version_) {
        return;
    }
    listing_ = store.list_indexed();
    entries_.clear();
    entries_.reserve(listing_.size());
    for (const auto &memory : listing_) {
        entries_.push_back(core::to_index_entry(memory));
    }
    bodies_ = texts_.of(store, entries_);
    index_version_ = version;
    built_ = true;
}

core::MemoryViewBatch SearchBatch::batch(Application &application) const {
    return core::MemoryViewBatch{listing_, bodies_, application.store().clock().now()};
}

MemoryViewer::MemoryViewer(Application &application, ViewerServices services, ViewerSettings settings)
    : application_(application), services_(std::move(services)), settings_(std::move(settings)),
      caches_(std::make_unique<ViewerCaches>()) {}

MemoryViewer::~MemoryViewer() = default;

void MemoryViewer::prepare_search() noexcept {
    try {
        caches_->search.refresh(application_);
        static_cast<void>(rank_batch(application_, "", caches_->search.batch(application_)));
    } catch (const std::exception &failure) {
        try {
            application_.logger().warning("ui", std::string{"searches were not prepared: "} + failure.what());
        } catch (const std::exception &) {
            // No log to write to: the first search meets the same failure and shows it.
        }
    }
}

HttpResponse MemoryViewer::handle(const HttpRequest &request) {
    const GuardVerdict verdict = guard_request(request, settings_.secrets, settings_.port);
    if (verdict.outcome != GuardVerdict::Outcome::allow) {
        return verdict.response;
    }
    const auto [path, query] = split_target(request.target);
    if (path == "/assets/style.css" && request.method == "GET") {
        HttpResponse response;
        response.content_type = "text/css; charset=utf-8";
        response.body = std::string(stylesheet());
        return response;
    }
    const bool posting = request.method == "POST";
    const GetPage handler = route(posting ? post_routes() : get_routes(), path);
    if (handler == nullptr) {
        if (route(posting ? get_routes() : post_routes(), path) != nullptr) {
            HttpResponse response = error_page(405, posting ? "This page is only read (GET)."
                                                            : "This address only takes a form (POST).");
            response.status = 405;
            response.headers.emplace_back("Allow", posting ? "GET" : "POST");
            return response;
        }
        return error_page(404, "No page at " + path + ".");
    }
    ViewerContext context{application_, services_, settings_, *caches_};
    try {
        return handler(context, posting ? parse_form(request.body) : query);
    } catch (const PageError &failure) {
        return error_page(failure.status, failure.what());
    } catch (const core::StoreError &failure) {
        return error_page(400, failure.what());
    } catch (const std::exception &failure) {
        return error_page(500, failure.what());
    }
}

} // namespace starling::app::ui
