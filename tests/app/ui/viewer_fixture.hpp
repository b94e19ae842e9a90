// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>
#include <starling/app/ui/viewer.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory.hpp>

#include "support/temp_dir.hpp"

#include <cstdlib>
#include <optional>
#include <string>

namespace starling::test {

/// A scratch STARLING_HOME with an Application over it and a viewer on a made-up port, and requests
/// that pass the guard unless a test changes them.
class ViewerFixture {
public:
    static constexpr unsigned short port = 48123;

    ViewerFixture() {
        remember_variable("STARLING_HOME");
        remember_variable("HOME");
        ::setenv("STARLING_HOME", (home_.path() / "store").string().c_str(), 1);
        ::setenv("HOME", home_.path().string().c_str(), 1);
        application_.emplace(std::nullopt);
        app::ui::ViewerSettings settings;
        settings.port = port;
        settings.secrets = {"access-token-for-tests", "csrf-token-for-tests"};
        settings.project_directory = home_.path();
        viewer_.emplace(*application_,
                        app::ui::ViewerServices{[] {
                            app::ui::HealthSnapshot snapshot;
                            snapshot.ready = true;
                            snapshot.notes = {{"Stale memories", true, "3 memories unused for 90 days", "review them", {}}};
                            return snapshot;
                        }},
                        settings);
    }
    ~ViewerFixture() {
        viewer_.reset();
        application_.reset();
        for (const auto &[name, value] : saved_) {
            if (value) {
                ::setenv(name.c_str(), value->c_str(), 1);
            } else {
                ::unsetenv(name.c_str());
            }
        }
    }
    ViewerFixture(const ViewerFixture &) = delete;
    ViewerFixture &operator=(const ViewerFixture &) = delete;

    app::Application &application() { return *application_; }
    app::ui::MemoryViewer &viewer() { return *viewer_; }

    /// Stores a long-term user memory and returns its key.
    std::string add_memory(const std::string &summary, const std::string &body) {
        core::Memory memory;
        memory.type = "reference";
        memory.summary = summary;
        memory.body = body;
        return application_->store().create(core::Scope::user(), core::Tier::long_term, memory);
    }

    std::string id_of(const std::string &key) { return core::memory_id_of(application_->store().read(key)); }

    /// A GET of `target` from the viewer's own browser tab.
    static app::ui::HttpRequest get(const std::string &target) {
        app::ui::HttpRequest request;
        request.method = "GET";
        request.target = target;
        request.host = "127.0.0.1:" + std::to_string(port);
        request.cookie = "starling_ui_" + std::to_string(port) + "=access-token-for-tests";
        return request;
    }

    /// A POST of `form` (urlencoded, without the CSRF token, which this adds) from the viewer's page.
    static app::ui::HttpRequest post(const std::string &target, const std::string &form) {
        auto request = get(target);
        request.method = "POST";
        request.origin = "http://127.0.0.1:" + std::to_string(port);
        request.body = form + "&csrf=csrf-token-for-tests";
        return request;
    }

    app::ui::HttpResponse handle(const app::ui::HttpRequest &request) { return viewer_->handle(request); }

private:
    void remember_variable(const std::string &name) {
        const char *value = std::getenv(name.c_str());
        saved_.emplace_back(name, value == nullptr ? std::nullopt : std::optional<std::string>{value});
    }

    TempDir home_{"ui"};
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
    std::optional<app::Application> application_;
    std::optional<app::ui::MemoryViewer> viewer_;
};

} // namespace starling::test
