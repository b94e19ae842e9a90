// SPDX-License-Identifier: Apache-2.0
#include <starling/app/arguments.hpp>

#include <starling/core/config/closest_name.hpp>

#include <algorithm>

namespace starling::app {

namespace {

bool contains(const std::vector<std::string> &names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

Arguments::Arguments(std::span<const std::string> words, std::vector<std::string> valued_options,
                     std::vector<std::string> flags) {
    bool only_operands = false;
    for (std::size_t index = 0; index < words.size(); ++index) {
        const std::string &word = words[index];
        if (!only_operands && word == "--") {
            only_operands = true;
            continue;
        }
        if (only_operands || word.size() < 3 || word.rfind("--", 0) != 0) {
            operands_.push_back(word);
            continue;
        }
        const auto equals = word.find('=');
        const std::string name = word.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
        if (contains(flags, name)) {
            if (equals != std::string::npos) {
                throw UsageError("option --" + name + " takes no value");
            }
            flags_set_.push_back(name);
        } else if (contains(valued_options, name)) {
            if (equals != std::string::npos) {
                values_.emplace_back(name, word.substr(equals + 1));
            } else if (index + 1 < words.size()) {
                values_.emplace_back(name, words[++index]);
            } else {
                throw UsageError("option --" + name + " needs a value");
            }
        } else {
            std::vector<std::string> known = valued_options;
            known.insert(known.end(), flags.begin(), flags.end());
            const auto closest = core::closest_name(name, known);
            throw UsageError("unknown option --" + name +
                             core::did_you_mean(closest ? std::optional<std::string>{"--" + *closest} : std::nullopt));
        }
    }
}

bool Arguments::flag(std::string_view name) const { return contains(flags_set_, name); }

std::optional<std::string> Arguments::value(std::string_view name) const {
    // The last occurrence wins, as with most command-line tools.
    for (auto it = values_.rbegin(); it != values_.rend(); ++it) {
        if (it->first == name) {
            return it->second;
        }
    }
    return std::nullopt;
}

std::vector<std::string> Arguments::values(std::string_view name) const {
    std::vector<std::string> given;
    for (const auto &[option, value] : values_) {
        if (option == name) {
            given.push_back(value);
        }
    }
    return given;
}

std::string Arguments::joined_operands() const {
    std::string text;
    for (const auto &word : operands_) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

void Arguments::expect_operands(std::size_t minimum, std::size_t maximum, std::string_view what) const {
    if (operands_.size() < minimum) {
        throw UsageError("missing " + std::string{what});
    }
    if (operands_.size() > maximum) {
        throw UsageError("unexpected argument '" + operands_[maximum] + "'");
    }
}

} // namespace starling::app
