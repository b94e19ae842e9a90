// SPDX-License-Identifier: Apache-2.0
#include "premise.hpp"

#include "word_characters.hpp"

#include <starling/sdk/text/blanks.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace starling::policies::collie_tree {
namespace {

/// Where a premise ends and the request begins.
constexpr std::array<std::string_view, 7> kClauseBoundaries{",", ";", " - ", " – ", " — ", "，", "；"};
/// A premise shorter than this says no fact ("since then, …").
constexpr std::size_t kMinPremiseBytes = 8;

std::string lower_ascii(std::string_view text) {
    std::string lowered{text};
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char character) { return static_cast<char>(std::tolower(character)); });
    return lowered;
}

} // namespace

PremiseFinder::PremiseFinder(const sdk::Settings &settings) {
    for (const auto &opener : sdk::get_string_list(settings, "premise.openers")) {
        auto lowered = lower_ascii(sdk::text::trim_blanks(opener));
        if (lowered.empty()) {
            throw std::invalid_argument("setting 'premise.openers': an opener is empty");
        }
        openers_.push_back(std::move(lowered));
    }
    // The longest opener first: "da wir ja" leaves no "ja" in the premise that "da wir" would.
    std::stable_sort(openers_.begin(), openers_.end(),
                     [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
}

std::optional<PremiseFinder::Premise> PremiseFinder::find(std::string_view message) const {
    const std::string_view text = sdk::text::trim_blanks(message);
    const std::string lowered = lower_ascii(text);
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
            return Premise{std::string{premise}, std::string{request}};
        }
    }
    return std::nullopt;
}

} // namespace starling::policies::collie_tree
