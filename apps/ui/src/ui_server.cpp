// SPDX-License-Identifier: Apache-2.0
// The only translation unit that includes Boost.Beast and Asio (ADR 0016): one thread, one
// io_context; each connection reads a request, answers it with the handler, and keeps alive.
#include <starling/app/ui/ui_server.hpp>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <csignal>
#include <stdexcept>

namespace starling::app::ui {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

/// A request whose headers or body do not arrive within this is dropped: a stalled client must not
/// hold a connection open for ever.
constexpr std::chrono::seconds request_timeout{30};
/// The largest form a page sends (a memory's text) is far smaller.
constexpr std::uint64_t body_limit = 1024 * 1024;

std::string header_of(const http::request<http::string_body> &request, http::field name) {
    const auto found = request.find(name);
    return found == request.end() ? std::string{} : std::string(found->value());
}

class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(tcp::socket socket, const std::function<HttpResponse(const HttpRequest &)> &handle,
               std::function<void()> on_request)
        : stream_(std::move(socket)), handle_(handle), on_request_(std::move(on_request)) {}

    void read() {
        parser_.emplace();
        parser_->body_limit(body_limit);
        stream_.expires_after(request_timeout);
        http::async_read(stream_, buffer_, *parser_,
                         [self = shared_from_this()](beast::error_code error, std::size_t) { self->answer(error); });
    }

private:
    void answer(beast::error_code error) {
        if (error) {
            beast::error_code ignored;
            stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
            return;
        }
        on_request_();
        const auto &request = parser_->get();
        HttpRequest plain;
        plain.method = std::string(request.method_string());
        plain.target = std::string(request.target());
        plain.host = header_of(request, http::field::host);
        plain.origin = header_of(request, http::field::origin);
        plain.cookie = header_of(request, http::field::cookie);
        plain.body = request.body();
        const HttpResponse answer = handle_(plain);
        auto response = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(answer.status),
                                                                            request.version());
        response->set(http::field::server, "starling-ui");
        response->set(http::field::content_type, answer.content_type);
        for (const auto &[name, value] : security_headers()) {
            response->set(name, value);
        }
        for (const auto &[name, value] : answer.headers) {
            response->insert(name, value);
        }
        response->keep_alive(request.keep_alive());
        response->body() = answer.body;
        response->prepare_payload();
        http::async_write(stream_, *response,
                          [self = shared_from_this(), response](beast::error_code written, std::size_t) {
                              if (written || !response->keep_alive()) {
                                  beast::error_code ignored;
                                  self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                                  return;
                              }
                              self->read();
                          });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    const std::function<HttpResponse(const HttpRequest &)> &handle_;
    std::function<void()> on_request_;
};

} // namespace

struct LocalServer::State {
    asio::io_context context{1};
    tcp::acceptor acceptor{context};
};

LocalServer::LocalServer(std::optional<unsigned short> port) : state_(std::make_unique<State>()) {
    const tcp::endpoint endpoint{asio::ip::make_address_v4("127.0.0.1"), port.value_or(0)};
    beast::error_code error;
    state_->acceptor.open(endpoint.protocol(), error);
    if (!error) {
        state_->acceptor.bind(endpoint, error);
    }
    if (!error) {
        state_->acceptor.listen(asio::socket_base::max_listen_connections, error);
    }
    if (error) {
        const std::string where = "127.0.0.1:" + std::to_string(port.value_or(0));
        if (error == asio::error::address_in_use) {
            throw std::runtime_error("cannot listen on " + where + ": the port is taken by another program; choose "
                                     "another with --port, or leave --port out for a free one");
        }
        throw std::runtime_error("cannot listen on " + where + ": " + error.message());
    }
}

LocalServer::~LocalServer() = default;

unsigned short LocalServer::port() const noexcept {
    beast::error_code error;
    return state_->acceptor.local_endpoint(error).port();
}

std::string LocalServer::serve(const std::function<HttpResponse(const HttpRequest &)> &handle,
                               std::chrono::seconds idle_timeout, const std::function<void()> &when_quiet,
                               std::chrono::milliseconds quiet_time) {
    std::string stopped_by;
    auto last_request = std::chrono::steady_clock::now();
    asio::signal_set signals{state_->context, SIGINT, SIGTERM};
    signals.async_wait([&](beast::error_code error, int signal) {
        if (!error) {
            stopped_by = signal == SIGINT ? "interrupted" : "terminated";
            state_->context.stop();
        }
    });
    asio::steady_timer idle{state_->context};
    std::function<void()> watch_idle = [&] {
        idle.expires_at(last_request + idle_timeout);
        idle.async_wait([&](beast::error_code error) {
            if (error) {
                return;
            }
            if (std::chrono::steady_clock::now() - last_request >= idle_timeout) {
                stopped_by = "idle";
                state_->context.stop();
                return;
            }
            watch_idle();
        });
    };
    watch_idle();
    // when_quiet runs in the first gap of quiet_time without a request: after a page and what it
    // loads, not in their way. Each request moves the timer on.
    asio::steady_timer quiet{state_->context};
    bool quiet_done = !when_quiet;
    const auto wait_for_quiet = [&] {
        if (quiet_done) {
            return;
        }
        quiet.expires_after(quiet_time);
        quiet.async_wait([&](beast::error_code error) {
            if (!error && !quiet_done) {
                quiet_done = true;
                when_quiet();
            }
        });
    };
    wait_for_quiet();
    const auto note_request = [&] {
        last_request = std::chrono::steady_clock::now();
        wait_for_quiet();
    };
    std::function<void()> accept = [&] {
        state_->acceptor.async_accept([&](beast::error_code error, tcp::socket socket) {
            if (!error) {
                std::make_shared<Connection>(std::move(socket), handle, note_request)->read();
            }
            accept();
        });
    };
    accept();
    state_->context.run();
    return stopped_by;
}

} // namespace starling::app::ui
