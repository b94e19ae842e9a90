// SPDX-License-Identifier: Apache-2.0
//
// The memory viewer of `starling ui` (docs/ui.md): every request passes the guard
// (request_guard.hpp), then is routed to its page. Pages read the store through the Application,
// and change it only through MemoryStore, as the CLI's commands do.
#pragma once

#include <starling/app/application.hpp>
#include <starling/app/ui/http_exchange.hpp>
#include <starling/app/ui/request_guard.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace starling::app::ui {

/// One section of `starling health`, as the overview shows it.
struct HealthNote {
    std::string title;
    bool needs_attention = false;
    std::string verdict;
    std::string advice;
    std::vector<std::string> details;
};

/// The latest report of `starling health`, which takes about a second on 10,000 memories: longer
/// than a page may, so it is made beside the pages and shown when ready.
struct HealthSnapshot {
    bool ready = false;             ///< a report was made; `notes` is it
    bool refreshing = false;        ///< a newer one is being made, for a store that changed since
    std::vector<HealthNote> notes;  ///< section by section
    std::string failure;            ///< why the last report could not be made; empty when it was
};

/// What the `starling` command lends the viewer from its own code.
struct ViewerServices {
    /// The health report as of now (never waits for one).
    std::function<HealthSnapshot()> health;
};

struct ViewerSettings {
    unsigned short port = 0;
    RunSecrets secrets;
    /// The directory `starling ui` was started in: its project is the one session start is shown for.
    std::filesystem::path project_directory;
};

struct ViewerCaches;

class MemoryViewer {
public:
    MemoryViewer(Application &application, ViewerServices services, ViewerSettings settings);
    MemoryViewer(const MemoryViewer &) = delete;
    MemoryViewer &operator=(const MemoryViewer &) = delete;
    ~MemoryViewer();

    /// The answer to one request; never throws (a failure is a 500 page that names it).
    [[nodiscard]] HttpResponse handle(const HttpRequest &request);
    /// Reads every memory's text and has the relevance policy tokenise them, so that the first
    /// search costs no more than the next (at 10,000 memories about 0.3 s, spent once, when the
    /// server is quiet). A failure is logged, and left to the first search to meet again.
    void prepare_search() noexcept;

private:
    Application &application_;
    ViewerServices services_;
    ViewerSettings settings_;
    std::unique_ptr<ViewerCaches> caches_;
};

} // namespace starling::app::ui
