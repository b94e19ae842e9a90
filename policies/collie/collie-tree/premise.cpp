// SPDX-License-Identifier: Apache-2.0
#include "premise.hpp"

#include "word_characters.hpp"

#include <starling/sdk/text/blanks.hpp>
#include <starling/sdk/text/case_folding.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace starling::policies::collie_tree {
namespace {

/// Where a premise ends and the request begins.
constexpr std::array<std::string_view, 7> kClauseBoundaries{",", ";", " - ", " – ", " — ", "，", "；"};
/// A premise shorter than this says no fact ("since then, …").
constexpr std::size_t kMinPremiseBytes = 8;

} // namespace

PremiseFinder::PremiseFinder(const sdk::Settings &settings) {
    for (const auto &opener : sdk::get_string_list(settings, "premise.openers")) {
        auto lowered = sdk::text::lower_ascii(sdk::text::trim_blanks(opener));
        if (lowered.empty()) {
            throw std::invalid_argument("setting 'premise.openers': an opener is empty");
        }
        openers_.push_back(std::move(lowered));
    }
    // The longest opener first: "da wir ja" leaves no "ja" in the premise that "da wir" would.
    std::stable_sort(openers_.begin(), openers_.end(),
                     [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
    for (const auto &connective : sdk::get_string_list(settings, "premise.connectives")) {
        if (sdk::text::trim_blanks(connective).empty()) {
            throw std::invalid_argument("setting 'premise.connectives': a connective is empty");
        }
        connectives_.push_back(sdk::text::lower_ascii(connective));
    }
}

std::optional<PremiseFinder::Premise> PremiseFinder::find(std::string_view message) const {
    const std::string_view text = sdk::text::trim_blanks(message);
    const std::string lowered = sdk::text::lower_ascii(text);
    if (auto premise = after_opener(text, lowered)) {
        return premise;
    }
    return before_connective(text, lowered);
}

std::optional<PremiseFinder::Premise> PremiseFinder::after_opener(std::string_view text,
                                                                  const std::string &lowered) const {
    for (const auto &opener : openers_) {
        // A whole word where the opener ends in a letter: "since" is not "sincerely".
        if (!lowered.starts_with(opener) ||
            (is_word_character_before(opener, opener.size()) && is_word_character_at(lowered, opener.size()))) {
            continue;
        }
        std::size_t end = std::string_view::npos;
        std::size_t boundary_size = 0;
        for (const auto boundary : kClauseBoundaries) {
            if (const auto at = text.find(boundary, opener.size()); at < end) {
                end = at;
                boundary_size = boundary.size();
            }
        }
        if (end == std::string_view::npos) {
            continue;
        }
        const std::string_view premise = sdk::text::trim_blanks(text.substr(opener.size(), end - opener.size()));
        const std::string_view request = sdk::text::trim_blanks(text.substr(end + boundary_size));
        if (premise.size() >= kMinPremiseBytes && !request.empty()) {
            return Premise{std::string{premise}, std::string{request}, true};
        }
    }
    return std::nullopt;
}

std::optional<PremiseFinder::Premise> PremiseFinder::before_connective(std::string_view text,
                                                                       const std::string &lowered) const {
    std::size_t at = std::string::npos;
    std::size_t connective_size = 0;
    for (const auto &connective : connectives_) {
        if (const auto found = lowered.find(connective); found < at) {
            at = found;
            connective_size = connective.size();
        }
    }
    if (at == std::string::npos) {
        return std::nullopt;
    }
    const std::string_view premise = sdk::text::trim_blanks(text.substr(0, at));
    const std::string_view request = sdk::text::trim_blanks(text.substr(at + connective_size));
    if (premise.size() < kMinPremiseBytes || request.empty()) {
        return std::nullopt;
    }
    return Premise{std::string{premise}, std::string{request}, false};
}

} // namespace starling::policies::collie_tree
