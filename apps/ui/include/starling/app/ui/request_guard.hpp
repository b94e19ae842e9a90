// SPDX-License-Identifier: Apache-2.0
//
// Who may talk to the viewer (docs/ui.md, "Security"): a browser that opened the URL with this
// run's token (then carries it as a cookie), addressing the server by 127.0.0.1 or localhost and
// its port (a rebound DNS name is refused), and, for what changes the store, posting from the
// viewer's own pages (its Origin and the run's CSRF token).
#pragma once

#include <starling/app/ui/http_exchange.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace starling::app::ui {

/// The secrets of one run of `starling ui`, never written anywhere but the printed URL.
struct RunSecrets {
    std::string access_token; ///< in the URL it opens; exchanged for the cookie
    std::string csrf_token;   ///< in every form the pages render
};

/// `bytes` random bytes from the kernel (getrandom), as lowercase hex. Throws std::system_error
/// when the kernel gives none.
[[nodiscard]] std::string random_hex(std::size_t bytes);

/// Fresh secrets of 32 random bytes each.
[[nodiscard]] RunSecrets make_run_secrets();

/// The name of the cookie that carries the access token of the server on `port`: a browser sends
/// the cookies of 127.0.0.1 to every port of it, and two runs on two ports must not overwrite each
/// other's.
[[nodiscard]] std::string session_cookie(unsigned short port);

/// Whether a Host header names this server: `127.0.0.1:PORT` or `localhost:PORT`, nothing else.
[[nodiscard]] bool is_local_host(std::string_view host, unsigned short port) noexcept;

/// Whether an Origin header is this server's: `http://127.0.0.1:PORT` or `http://localhost:PORT`.
[[nodiscard]] bool is_local_origin(std::string_view origin, unsigned short port) noexcept;

/// The value of the cookie `name` in a Cookie header.
[[nodiscard]] std::optional<std::string> cookie_value(std::string_view header, std::string_view name);

/// Compares secrets in a time that does not depend on where they first differ.
[[nodiscard]] bool same_secret(std::string_view given, std::string_view expected) noexcept;

/// What the guard decided about a request before any page sees it.
struct GuardVerdict {
    enum class Outcome {
        allow,      ///< a page may answer
        refuse,     ///< `response` is a 403 (or 405) and says nothing about the store
        open_token, ///< the URL with the token: `response` sets the cookie and redirects
    };
    Outcome outcome = Outcome::allow;
    HttpResponse response;
};

/// Checks, in this order: the Host header, the method (GET and POST only), the token in the URL
/// (exchanged for an HttpOnly SameSite=Strict cookie), the cookie, and for a POST the Origin header
/// and the form's `csrf` field.
[[nodiscard]] GuardVerdict guard_request(const HttpRequest &request, const RunSecrets &secrets, unsigned short port);

} // namespace starling::app::ui
