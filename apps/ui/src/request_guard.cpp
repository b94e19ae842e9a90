// SPDX-License-Identifier: Apache-2.0
#include <starling/app/ui/request_guard.hpp>

#include <sys/random.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <vector>

namespace starling::app::ui {

namespace {

HttpResponse refusal(unsigned status, std::string_view reason) {
    HttpResponse response;
    response.status = status;
    response.content_type = "text/plain; charset=utf-8";
    response.body = std::string(reason) + '\n';
    return response;
}

bool is_local_authority(std::string_view authority, unsigned short port) noexcept {
    const std::string port_text = std::to_string(port);
    for (const std::string_view name : {std::string_view{"127.0.0.1"}, std::string_view{"localhost"}}) {
        if (authority.size() == name.size() + 1 + port_text.size() && authority.starts_with(name) &&
            authority[name.size()] == ':' && authority.substr(name.size() + 1) == port_text) {
            return true;
        }
    }
    return false;
}

} // namespace

std::string random_hex(std::size_t bytes) {
    std::vector<unsigned char> random(bytes);
    std::size_t filled = 0;
    while (filled < bytes) {
        const ssize_t got = ::getrandom(random.data() + filled, bytes - filled, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw std::system_error(errno, std::generic_category(), "getrandom");
        }
        filled += static_cast<std::size_t>(got);
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    for (const unsigned char byte : random) {
        hex += digits[byte >> 4];
        hex += digits[byte & 0xF];
    }
    return hex;
}

std::string session_cookie(unsigned short port) {
    return "starling_ui_" + std::to_string(port);
}

RunSecrets make_run_secrets() {
    return {random_hex(32), random_hex(32)};
}

bool is_local_host(std::string_view host, unsigned short port) noexcept {
    return is_local_authority(host, port);
}

bool is_local_origin(std::string_view origin, unsigned short port) noexcept {
    constexpr std::string_view scheme = "http://";
    return origin.starts_with(scheme) && is_local_authority(origin.substr(scheme.size()), port);
}

std::optional<std::string> cookie_value(std::string_view header, std::string_view name) {
    std::size_t position = 0;
    while (position < header.size()) {
        const std::size_t end = std::min(header.find(';', position), header.size());
        std::string_view pair = header.substr(position, end - position);
        while (!pair.empty() && pair.front() == ' ') {
            pair.remove_prefix(1);
        }
        const std::size_t equals = pair.find('=');
        if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
            return std::string(pair.substr(equals + 1));
        }
        position = end + 1;
    }
    return std::nullopt;
}

bool same_secret(std::string_view given, std::string_view expected) noexcept {
    // Every byte is compared whatever the first difference, so the time says nothing of the secret.
    unsigned char difference = given.size() == expected.size() ? 0 : 1;
    for (std::size_t at = 0; at < expected.size(); ++at) {
        difference |= static_cast<unsigned char>(expected[at] ^ (at < given.size() ? given[at] : 0));
    }
    return difference == 0 && !expected.empty();
}

GuardVerdict guard_request(const HttpRequest &request, const RunSecrets &secrets, unsigned short port) {
    GuardVerdict verdict;
    // A page of another site whose name was rebound to 127.0.0.1 sends its own name as the Host.
    if (!is_local_host(request.host, port)) {
        verdict.outcome = GuardVerdict::Outcome::refuse;
        verdict.response = refusal(403, "forbidden: the Host header must be 127.0.0.1:" + std::to_string(port) +
                                            " or localhost:" + std::to_string(port));
        return verdict;
    }
    if (request.method != "GET" && request.method != "POST") {
        verdict.outcome = GuardVerdict::Outcome::refuse;
        verdict.response = refusal(405, "method not allowed");
        verdict.response.headers.emplace_back("Allow", "GET, POST");
        return verdict;
    }
    const auto [path, query] = split_target(request.target);
    if (const auto token = field(query, "token"); token && request.method == "GET") {
        if (!same_secret(*token, secrets.access_token)) {
            verdict.outcome = GuardVerdict::Outcome::refuse;
            verdict.response = refusal(403, "forbidden");
            return verdict;
        }
        // The token leaves the address bar at once: the cookie carries it from now on, sent by the
        // browser to this server only (SameSite=Strict) and never readable by a script (HttpOnly).
        verdict.outcome = GuardVerdict::Outcome::open_token;
        verdict.response.status = 303;
        verdict.response.body.clear();
        verdict.response.headers.emplace_back("Location", "/");
        verdict.response.headers.emplace_back("Set-Cookie", session_cookie(port) + "=" + secrets.access_token +
                                                                "; Path=/; HttpOnly; SameSite=Strict");
        return verdict;
    }
    const auto cookie = cookie_value(request.cookie, session_cookie(port));
    if (!cookie || !same_secret(*cookie, secrets.access_token)) {
        verdict.outcome = GuardVerdict::Outcome::refuse;
        verdict.response = refusal(403, "forbidden");
        return verdict;
    }
    if (request.method == "POST") {
        if (!is_local_origin(request.origin, port)) {
            verdict.outcome = GuardVerdict::Outcome::refuse;
            verdict.response = refusal(403, "forbidden: a change must come from the viewer's own page (Origin)");
            return verdict;
        }
        const auto form = parse_form(request.body);
        const auto csrf = field(form, "csrf");
        if (!csrf || !same_secret(*csrf, secrets.csrf_token)) {
            verdict.outcome = GuardVerdict::Outcome::refuse;
            verdict.response = refusal(403, "forbidden: the form's CSRF token is missing or wrong");
            return verdict;
        }
    }
    return verdict;
}

} // namespace starling::app::ui
