// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/ui_server.hpp>

#include <catch2/catch.hpp>

#include <csignal>
#include <chrono>
#include <thread>
#include <stdexcept>
#include <string>

using starling::app::ui::HttpRequest;
using starling::app::ui::HttpResponse;
using starling::app::ui::LocalServer;

TEST_CASE("the server listens on a free port of 127.0.0.1 unless told one", "[ui][server]") {
    const LocalServer server{std::nullopt};
    CHECK(server.port() != 0);
}

TEST_CASE("a port that is taken is refused, naming it", "[ui][server]") {
    const LocalServer first{std::nullopt};
    try {
        const LocalServer second{first.port()};
        FAIL("a second server listened on the same port");
    } catch (const std::runtime_error &refusal) {
        const std::string message = refusal.what();
        CHECK(message.find("127.0.0.1:" + std::to_string(first.port())) != std::string::npos);
        CHECK(message.find("taken") != std::string::npos);
    }
}

TEST_CASE("the server stops by itself after the idle time", "[ui][server]") {
    LocalServer server{std::nullopt};
    const auto started = std::chrono::steady_clock::now();
    const auto stopped = server.serve([](const HttpRequest &) { return HttpResponse{}; }, std::chrono::seconds{1});
    const auto waited = std::chrono::steady_clock::now() - started;
    CHECK(stopped == "idle");
    CHECK(waited >= std::chrono::seconds{1});
    CHECK(waited < std::chrono::seconds{10});
}

TEST_CASE("the server stops cleanly on SIGTERM, as on Ctrl-C", "[ui][server]") {
    LocalServer server{std::nullopt};
    // Sent once the server waits for requests, as a terminal or a service manager would.
    std::thread sender{[] {
        std::this_thread::sleep_for(std::chrono::milliseconds{300});
        std::raise(SIGTERM);
    }};
    const auto stopped = server.serve([](const HttpRequest &) { return HttpResponse{}; }, std::chrono::seconds{60});
    sender.join();
    CHECK(stopped == "terminated");
}

TEST_CASE("the server runs its task for a quiet moment once, on its own thread, when no request came",
          "[ui][server]") {
    LocalServer server{std::nullopt};
    int runs = 0;
    std::thread::id ran_on;
    const auto stopped = server.serve([](const HttpRequest &) { return HttpResponse{}; }, std::chrono::seconds{1},
                                      [&] {
                                          ++runs;
                                          ran_on = std::this_thread::get_id();
                                      },
                                      std::chrono::milliseconds{100});
    CHECK(stopped == "idle");
    CHECK(runs == 1);
    CHECK(ran_on == std::this_thread::get_id());
}
