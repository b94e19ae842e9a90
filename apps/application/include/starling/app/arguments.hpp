// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app {

/// A command line that cannot be understood. main() prints it with the usage hint, exit 64.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The words after a subcommand: options (`--name value`, `--name=value`, `--flag`) and operands.
/// Each command declares which options take a value and which are flags; anything else is a
/// UsageError naming the option, so a typo never silently changes what a command does.
class Arguments {
public:
    Arguments(std::span<const std::string> words, std::vector<std::string> valued_options,
              std::vector<std::string> flags);

    [[nodiscard]] bool flag(std::string_view name) const;
    [[nodiscard]] std::optional<std::string> value(std::string_view name) const;
    /// Every value of an option that may be given more than once, in command-line order.
    [[nodiscard]] std::vector<std::string> values(std::string_view name) const;
    [[nodiscard]] const std::vector<std::string> &operands() const noexcept { return operands_; }
    /// The operands joined by single spaces: a text typed unquoted (`starling search deploy process`).
    [[nodiscard]] std::string joined_operands() const;
    /// The operands, requiring between `minimum` and `maximum` of them; `what` names them in errors.
    void expect_operands(std::size_t minimum, std::size_t maximum, std::string_view what) const;

private:
    std::vector<std::pair<std::string, std::string>> values_;
    std::vector<std::string> flags_set_;
    std::vector<std::string> operands_;
};

} // namespace starling::app
