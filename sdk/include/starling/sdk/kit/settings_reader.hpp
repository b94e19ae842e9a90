// SPDX-License-Identifier: Apache-2.0
//
// The policy kit: reading a plugin's settings, each checked. The host hands create() the declared
// defaults overlaid with the user's table, so every setting a plugin declares is present; what is
// left to check is its type and range, and an error names the plugin, the setting, what it must be
// and what it was. Numbers are read with std::from_chars (sdk::get_number), never through ptree's
// locale-bound translators.
#pragma once

#include <starling/sdk/settings.hpp>
#include <starling/sdk/text/case_folding.hpp>

#include <charconv>
#include <cmath>
#include <system_error>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace starling::sdk::kit {

class SettingsReader {
public:
    /// `owner` names the plugin in messages: "usage setting 'forget.min_uses' must be …".
    SettingsReader(const Settings &settings, std::string owner) : settings_(&settings), owner_(std::move(owner)) {}

    /// A whole number from `least` to `most`.
    [[nodiscard]] int whole_number(const std::string &path, int least, int most) const {
        return static_cast<int>(number<long long>(path, "a whole number from " + std::to_string(least) + " to " +
                                                            std::to_string(most),
                                                  [&](long long read) { return read >= least && read <= most; }));
    }

    /// A number from 0 to 1.
    [[nodiscard]] double fraction(const std::string &path) const {
        return number<double>(path, "a number from 0 to 1", [](double read) { return read >= 0.0 && read <= 1.0; });
    }

    /// A number above 0 and at most 1: a share of something that must not be none.
    [[nodiscard]] double positive_fraction(const std::string &path) const {
        return number<double>(path, "a number above 0 and at most 1",
                              [](double read) { return std::isfinite(read) && read > 0.0 && read <= 1.0; });
    }

    /// A list of strings, as written.
    [[nodiscard]] std::vector<std::string> string_list(const std::string &path) const {
        const auto node = settings_->get_child_optional(path);
        if (!node || !node->data().empty()) {
            fail(path, "must be a list of strings");
        }
        return get_string_list(*settings_, path);
    }

    /// A list of words, ASCII capitals lowered; an empty word is refused, as it would match anything.
    [[nodiscard]] std::vector<std::string> word_list(const std::string &path) const {
        const auto node = settings_->get_child_optional(path);
        if (!node || !node->data().empty()) {
            fail(path, "must be a list of words");
        }
        auto words = get_string_list(*settings_, path);
        for (auto &word : words) {
            if (word.find_first_not_of(' ') == std::string::npos) {
                fail(path, "holds an empty word");
            }
            text::lower_ascii_in_place(word);
        }
        return words;
    }

    /// Throws std::invalid_argument: "<owner> setting '<path>' <what>".
    [[noreturn]] void fail(const std::string &path, const std::string &what) const {
        throw std::invalid_argument(owner_ + " setting '" + path + "' " + what);
    }

    [[nodiscard]] const Settings &settings() const noexcept { return *settings_; }

private:
    /// The number at `path`, which `in_range` accepts; `kind` says what it must be.
    template <typename T, typename Accepts>
    [[nodiscard]] T number(const std::string &path, const std::string &kind, Accepts in_range) const {
        const auto value = settings_->get_optional<std::string>(path);
        if (!value) {
            fail(path, "is missing; it must be " + kind);
        }
        T read{};
        const char *const end = value->data() + value->size();
        const auto [stopped, error] = std::from_chars(value->data(), end, read);
        if (value->empty() || error != std::errc{} || stopped != end || !in_range(read)) {
            fail(path, "must be " + kind + ", got '" + *value + "'");
        }
        return read;
    }

    const Settings *settings_;
    std::string owner_;
};

} // namespace starling::sdk::kit
