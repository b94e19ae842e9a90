// SPDX-License-Identifier: Apache-2.0
//
// What every `starling` command takes and does, in one table. Each command parses its words with
// the options its entry lists (parse_arguments), so the help, the man pages and the shell
// completions made from the table can never describe an option the command does not take, or miss
// one it does.
#pragma once

#include <starling/app/arguments.hpp>

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starling::app {

struct OptionReference {
    std::string_view name;  ///< without the leading "--"
    std::string_view value; ///< what the value is, as the synopsis names it ("N", "DIR"); empty: a flag
    std::string_view help;
    std::string_view default_value; ///< what applies without the option; empty: nothing (or "off", for a flag)
    /// The values the option accepts, for completion; empty when any value goes.
    std::vector<std::string_view> choices{};
};

/// The groups `starling --help` and the man pages sort commands into, in their order.
enum class CommandGroup { memories, other_systems, sharing, agents, configuration, shell };

struct CommandReference {
    std::string_view name; ///< "search", or a command and its subcommand: "config check"
    CommandGroup group;
    std::string_view operands; ///< the synopsis after the options: "QUERY", "[FILE...]"
    std::string_view summary;  ///< one line for the command list, at most 52 columns
    std::string_view description;
    std::vector<OptionReference> options;
    std::vector<std::string_view> examples; ///< command lines, each with a "# why" comment after it
    /// The words the first operand may be, for completion (agents, formats, shells); empty: any.
    std::vector<std::string_view> operand_choices{};
};

[[nodiscard]] std::span<const CommandReference> command_reference();

/// The options given before the command: --config FILE, --help, --version.
[[nodiscard]] std::span<const OptionReference> global_options();

/// The environment variables Starling reads, each with what it means.
[[nodiscard]] std::span<const std::pair<std::string_view, std::string_view>> environment_variables();

/// The entry named `name` ("search", "config check"); nullptr when there is none.
[[nodiscard]] const CommandReference *find_command_reference(std::string_view name);

/// The entries of `command` itself and of its subcommands ("config" gives "config show" and
/// "config check"), in table order; empty when there is no such command.
[[nodiscard]] std::vector<const CommandReference *> command_and_subcommands(std::string_view command);

/// The top-level command names, in table order, each once.
[[nodiscard]] std::vector<std::string> command_names();

[[nodiscard]] std::string_view group_title(CommandGroup group);

/// The words after the command named `name`, parsed with the options its entry lists.
/// Throws UsageError for an option it does not list (with the closest one it does), and
/// std::logic_error if the table has no entry `name`: a command without an entry is a bug.
[[nodiscard]] Arguments parse_arguments(std::string_view name, std::span<const std::string> words);

} // namespace starling::app
