// SPDX-License-Identifier: Apache-2.0
#include "links.hpp"

#include <algorithm>

namespace starling::policies::collie_tree {

namespace {

bool is_ascii_letter(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }

bool is_token_character(char c) noexcept {
    const auto byte = static_cast<unsigned char>(c);
    return byte > 0x20U && byte < 0x7FU && c != '"' && c != '<' && c != '>' && c != '(' && c != ')' &&
           c != '[' && c != ']' && c != ',' && c != '`';
}

std::string_view trimmed_token(std::string_view token) noexcept {
    while (!token.empty() && (token.back() == '.' || token.back() == ':' || token.back() == ';' ||
                              token.back() == '!' || token.back() == '?' || token.back() == '\'')) {
        token.remove_suffix(1);
    }
    while (!token.empty() && token.front() == '\'') {
        token.remove_prefix(1);
    }
    return token;
}

bool all_digits(std::string_view text) noexcept {
    return !text.empty() && std::all_of(text.begin(), text.end(), is_ascii_digit);
}

bool is_label(std::string_view label) noexcept {
    return !label.empty() && std::all_of(label.begin(), label.end(), [](char c) {
        return is_ascii_letter(c) || is_ascii_digit(c) || c == '-' || c == '_';
    }) && std::any_of(label.begin(), label.end(), is_ascii_letter);
}

} // namespace

LinkFinder::LinkFinder(const sdk::Settings &settings) {
    for (const auto &suffix : sdk::get_string_list(settings, "links.domain_suffixes")) {
        domain_suffixes_.insert(suffix);
    }
    for (const auto &suffix : sdk::get_string_list(settings, "links.standalone_domain_suffixes")) {
        standalone_domain_suffixes_.insert(suffix);
    }
    for (const auto &segment : sdk::get_string_list(settings, "links.one_off_paths")) {
        one_off_paths_.insert(segment);
    }
}

std::vector<std::string> LinkFinder::find(std::string_view folded) const {
    std::vector<std::string> links;
    std::size_t position = 0;
    while (position < folded.size()) {
        if (!is_token_character(folded[position])) {
            ++position;
            continue;
        }
        const std::size_t start = position;
        while (position < folded.size() && is_token_character(folded[position])) {
            ++position;
        }
        const auto token = trimmed_token(folded.substr(start, position - start));
        if (is_link(token) && !names_one_item(token)) {
            links.emplace_back(token);
        }
    }
    return links;
}

bool LinkFinder::is_link(std::string_view token) const {
    if (token.size() < 3) {
        return false;
    }
    // "~/vault": a place on the user's own machine, as much a pointer as a URL.
    if (token.find("://") != std::string_view::npos || token.starts_with("www.") ||
        (token.starts_with("~/") && token.size() > 2)) {
        return true;
    }
    if (token.front() == '#') {
        return token.size() > 2 && is_ascii_letter(token[1]);
    }
    if (const auto at = token.find('@'); at != std::string_view::npos && at > 0) {
        return is_host(token.substr(at + 1), false);
    }
    const auto path_start = token.find('/');
    std::string_view authority = token.substr(0, path_start);
    bool has_path_or_port = path_start != std::string_view::npos && path_start + 1 < token.size();
    if (const auto colon = authority.find(':'); colon != std::string_view::npos) {
        if (!all_digits(authority.substr(colon + 1))) {
            return false;
        }
        authority = authority.substr(0, colon);
        has_path_or_port = true;
        if (authority.find('.') == std::string_view::npos) {
            return authority == "localhost" ||
                   (is_label(authority) && authority.find('-') != std::string_view::npos);
        }
    }
    return is_host(authority, has_path_or_port);
}

bool LinkFinder::names_one_item(std::string_view link) const {
    // A path segment of `one_off_paths` followed by one with a digit: "pull/42", "runs/9912",
    // "browse/shop-17", "commit/3f71f42".
    const auto scheme_end = link.find("://");
    auto rest = scheme_end == std::string_view::npos ? link : link.substr(scheme_end + 3);
    std::string_view previous;
    for (auto slash = rest.find('/'); slash != std::string_view::npos; slash = rest.find('/')) {
        rest.remove_prefix(slash + 1);
        const auto segment = rest.substr(0, rest.find('/'));
        if (one_off_paths_.contains(previous) && std::any_of(segment.begin(), segment.end(), is_ascii_digit)) {
            return true;
        }
        previous = segment;
    }
    return false;
}

bool LinkFinder::is_host(std::string_view host, bool has_path_or_port) const {
    std::vector<std::string_view> labels;
    for (std::size_t start = 0; start <= host.size();) {
        const auto dot = std::min(host.find('.', start), host.size());
        labels.push_back(host.substr(start, dot - start));
        start = dot + 1;
    }
    if (labels.size() < 2 || !std::all_of(labels.begin(), labels.end(), is_label)) {
        return false;
    }
    const auto suffix = labels.back();
    if (!domain_suffixes_.contains(suffix)) {
        return false;
    }
    // "libfoo.so" or "notes.md" alone are files; a path, a port, a third label or a common
    // top-level domain makes a host.
    return has_path_or_port || labels.size() >= 3 || standalone_domain_suffixes_.contains(suffix);
}

} // namespace starling::policies::collie_tree
