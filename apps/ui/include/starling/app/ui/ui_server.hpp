// SPDX-License-Identifier: Apache-2.0
//
// The HTTP server of `starling ui`: Boost.Beast on one thread (ADR 0016), bound to 127.0.0.1 only.
#pragma once

#include <starling/app/ui/http_exchange.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace starling::app::ui {

class LocalServer {
public:
    /// Listens on 127.0.0.1:`port`, or on a port the kernel picks. Throws std::runtime_error naming
    /// the port when it cannot be had (taken, or not the user's to bind).
    explicit LocalServer(std::optional<unsigned short> port);
    LocalServer(const LocalServer &) = delete;
    LocalServer &operator=(const LocalServer &) = delete;
    ~LocalServer();

    [[nodiscard]] unsigned short port() const noexcept;

    /// Answers requests with `handle` until SIGINT or SIGTERM, or until no request came for
    /// `idle_timeout`; returns which ("interrupted", "terminated", "idle"). `when_quiet`, if given,
    /// runs once on the server's thread, when it has gone `quiet_time` without a request (from the
    /// start, or from the last request): a request that comes meanwhile waits for it.
    std::string serve(const std::function<HttpResponse(const HttpRequest &)> &handle,
                      std::chrono::seconds idle_timeout, const std::function<void()> &when_quiet = {},
                      std::chrono::milliseconds quiet_time = std::chrono::milliseconds{250});

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace starling::app::ui
