// SPDX-License-Identifier: Apache-2.0
//
// One request of the viewer and its answer, as plain values: the server (ui_server.cpp) translates
// Beast's messages into these, so that everything else is tested without a socket.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starling::app::ui {

struct HttpRequest {
    std::string method; ///< "GET", "POST", ...
    std::string target; ///< the path and query, as sent: "/memory?id=k3f9a2q"
    std::string host;   ///< the Host header; empty when absent
    std::string origin; ///< the Origin header; empty when absent
    std::string cookie; ///< the Cookie header; empty when absent
    std::string body;   ///< a POST's form, application/x-www-form-urlencoded
};

struct HttpResponse {
    unsigned status = 200;
    std::string content_type = "text/html; charset=utf-8";
    std::string body;
    /// Headers besides the content type and the security headers every answer carries.
    std::vector<std::pair<std::string, std::string>> headers;
};

/// The parameters of a query string or an urlencoded form: '+' and %XX decoded; a name given twice
/// keeps its first value. Malformed escapes are kept as they are.
using FormFields = std::map<std::string, std::string, std::less<>>;
[[nodiscard]] FormFields parse_form(std::string_view encoded);

/// `target` split at its '?': the path, and its decoded query.
[[nodiscard]] std::pair<std::string, FormFields> split_target(std::string_view target);

/// %-encodes everything but unreserved characters, for a value in a URL or a query.
[[nodiscard]] std::string url_encode(std::string_view text);

/// A field of `fields`, or nothing.
[[nodiscard]] std::optional<std::string> field(const FormFields &fields, std::string_view name);

/// The headers every answer carries: a Content-Security-Policy that allows only the viewer's own
/// stylesheet and forms (no script at all, no frames), nosniff, no referrer to other sites, no caching.
[[nodiscard]] const std::vector<std::pair<std::string, std::string>> &security_headers();

} // namespace starling::app::ui
