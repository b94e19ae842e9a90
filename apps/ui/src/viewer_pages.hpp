// SPDX-License-Identifier: Apache-2.0
//
// The pages of the viewer, one group per file, and what they share. Private to apps/ui.
#pragma once

#include <starling/app/application.hpp>
#include <starling/app/memory_search.hpp>
#include <starling/app/ui/html.hpp>
#include <starling/app/ui/http_exchange.hpp>
#include <starling/app/ui/viewer.hpp>
#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/index/indexed_memory.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/memory_view_batch.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starling::app::ui {

/// The memories' texts, kept between searches: a text is read again only when the index says its
/// file changed, so that a search of 10,000 memories reads no file after the first.
class MemoryTexts {
public:
    /// The body of each memory of `entries`, in their order.
    [[nodiscard]] std::vector<std::string> of(const core::MemoryStore &store, const std::vector<core::IndexEntry> &entries);

private:
    std::unordered_map<std::string, std::pair<core::FileStamp, std::string>> texts_;
};

/// Every memory of the store with its text, as searches rank them, kept while the store's index
/// stays at one version: a search then reads no file and converts no memory, and the relevance
/// policy meets the batch it kept (bm25 tokenises it once).
class SearchBatch {
public:
    /// Brings the batch up to the store's index: built again when its version changed (reading
    /// only the texts whose files changed), or at every call when the store has no index.
    void refresh(Application &application);
    /// The memories, in the batch's order, as of the last refresh().
    [[nodiscard]] const std::vector<core::IndexEntry> &entries() const noexcept { return entries_; }
    /// The batch to score, its recency reckoned from now.
    [[nodiscard]] core::MemoryViewBatch batch(Application &application) const;
    /// The index version of the last refresh(); empty when the store has no index.
    [[nodiscard]] const std::string &index_version() const noexcept { return index_version_; }

private:
    bool built_ = false;
    std::string index_version_;
    core::IndexedMemories listing_;
    std::vector<core::IndexEntry> entries_;
    std::vector<std::string> bodies_;
    MemoryTexts texts_;
};

/// The ranked answer to the last search, every memory ranked (places in SearchBatch::entries()),
/// for the same search asked again (its next page, a reload, other filters) while the store's index
/// is at the same version.
struct LastSearch {
    std::string asked;         ///< the search's words
    std::string index_version; ///< MemoryStore::index_version() when it was ranked
    std::vector<BatchHit> hits;
};

/// What the viewer keeps between requests.
struct ViewerCaches {
    SearchBatch search;
    LastSearch last_search;
};

struct ViewerContext {
    Application &application;
    const ViewerServices &services;
    const ViewerSettings &settings;
    ViewerCaches &caches;
};

/// A request that names what does not exist or asks what cannot be done: its page says why.
class PageError : public std::runtime_error {
public:
    PageError(unsigned http_status, const std::string &message) : std::runtime_error(message), status(http_status) {}
    unsigned status;
};

[[nodiscard]] HttpResponse page_response(const Page &page, unsigned status = 200);
[[nodiscard]] HttpResponse redirect_to(const std::string &location);

/// A link to the page of the memory `id`, reading `text`.
[[nodiscard]] std::string memory_link(std::string_view id, std::string_view text);
/// "2026-11-29 07:40" for people (UTC).
[[nodiscard]] std::string readable_time(std::chrono::sys_seconds time);
/// "user" or "project <id>".
[[nodiscard]] std::string scope_text(const core::IndexEntry &entry);
/// The memories of every scope, as the machine index lists them (read in place, no file opened), so
/// that a page of a 10,000-memory store answers at once. A file edited by hand outside Starling is
/// seen after the next full listing, which every hook's consolidation and CLI listing makes.
[[nodiscard]] std::vector<core::IndexEntry> all_memories(Application &application);

// GET pages; `query` is the decoded query string.
[[nodiscard]] HttpResponse overview_page(ViewerContext &context, const FormFields &query);
[[nodiscard]] HttpResponse memories_page(ViewerContext &context, const FormFields &query);
[[nodiscard]] HttpResponse memory_page(ViewerContext &context, const FormFields &query);
[[nodiscard]] HttpResponse sessions_page(ViewerContext &context, const FormFields &query);
[[nodiscard]] HttpResponse session_page(ViewerContext &context, const FormFields &query);
[[nodiscard]] HttpResponse archive_page(ViewerContext &context, const FormFields &query);
[[nodiscard]] HttpResponse sharing_page(ViewerContext &context, const FormFields &query);

// POST actions; `form` is the decoded form, its CSRF token already checked.
[[nodiscard]] HttpResponse edit_memory(ViewerContext &context, const FormFields &form);
[[nodiscard]] HttpResponse pin_memory(ViewerContext &context, const FormFields &form);
[[nodiscard]] HttpResponse forget_memory(ViewerContext &context, const FormFields &form);
[[nodiscard]] HttpResponse lift_supersession(ViewerContext &context, const FormFields &form);
[[nodiscard]] HttpResponse restore_archived(ViewerContext &context, const FormFields &form);

/// The injections per session: the sessions' logs, newest first (sessions_page and the overview).
struct SessionSummary {
    std::string id;      ///< the log's file stem, which names the session in URLs
    std::string agent;   ///< of its first prompt; empty when none says
    std::string project; ///< the project of its first prompt's directory; empty for none
    std::size_t prompts = 0;
    std::size_t judged = 0;   ///< prompts whose outcome the decision policy wrote
    std::size_t injected = 0; ///< memories put into its context
    std::chrono::sys_seconds first{};
    std::chrono::sys_seconds last{};
};
/// The `limit` most recently written sessions of the store, newest first, and how many there are.
[[nodiscard]] std::pair<std::vector<SessionSummary>, std::size_t> recent_sessions(Application &application,
                                                                                  std::size_t limit);

} // namespace starling::app::ui
