// SPDX-License-Identifier: Apache-2.0
#include "background_terms.hpp"

#include <starling/bm25/built_in_background.hpp>

#include <charconv>
#include <new>

namespace starling::bm25 {

namespace {

std::string_view without_comments(std::string_view table) noexcept {
    while (!table.empty() && table.front() == '#') {
        const auto end = table.find('\n');
        table.remove_prefix(end == std::string_view::npos ? table.size() : end + 1);
    }
    return table;
}

} // namespace

BackgroundTerms::BackgroundTerms() noexcept : BackgroundTerms(built_in_background) {}

BackgroundTerms::BackgroundTerms(std::string_view table) noexcept : lines_(without_comments(table)) {}

double BackgroundTerms::share(std::string_view term) const noexcept {
    try {
        std::string key{term};
        if (const auto known = found_.find(key); known != found_.end()) {
            return known->second;
        }
        const double found = search(term);
        found_.emplace(std::move(key), found);
        return found;
    } catch (const std::bad_alloc &) {
        return search(term); // out of memory: searched again next time
    }
}

double BackgroundTerms::search(std::string_view term) const noexcept {
    // Binary search by byte offset: the line that holds the middle byte is compared, and the half
    // that can hold `term` is kept. Each step moves to a line start, so the search ends within
    // one line of text.
    std::size_t low = 0;
    std::size_t high = lines_.size();
    while (low < high) {
        const std::size_t middle = low + (high - low) / 2;
        const std::size_t start = middle == 0 ? 0 : lines_.rfind('\n', middle - 1) + 1; // npos + 1 is 0
        std::size_t end = lines_.find('\n', start);
        if (end == std::string_view::npos) {
            end = lines_.size();
        }
        const auto line = lines_.substr(start, end - start);
        const auto tab = line.find('\t');
        if (tab == std::string_view::npos) {
            return 0.0; // a malformed table finds nothing rather than something wrong
        }
        const auto key = line.substr(0, tab);
        if (key == term) {
            unsigned per_million = 0;
            const auto digits = line.substr(tab + 1);
            const auto [ptr, error] = std::from_chars(digits.data(), digits.data() + digits.size(), per_million);
            return error == std::errc{} ? static_cast<double>(per_million) / 1e6 : 0.0;
        }
        if (key < term) {
            low = end + 1;
        } else {
            high = start;
        }
    }
    return 0.0;
}

} // namespace starling::bm25
