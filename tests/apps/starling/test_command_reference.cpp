// SPDX-License-Identifier: Apache-2.0
// The command reference and what is made from it: the help, the man pages and the completions.
#include "command_help.hpp"
#include "command_reference.hpp"
#include "man_pages.hpp"
#include "shell_completion.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace starling::app;

namespace {

std::size_t columns_of(std::string_view line) {
    return static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char byte) {
        return (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
    }));
}

/// The lines of `text` wider than 80 columns.
std::vector<std::string> overlong_lines(const std::string &text) {
    std::vector<std::string> overlong;
    std::istringstream lines{text};
    for (std::string line; std::getline(lines, line);) {
        if (columns_of(line) > kHelpWidth) {
            overlong.push_back(line);
        }
    }
    return overlong;
}

/// `text` with every run of spaces and line ends as one space: the words, however they were wrapped.
std::string flowing(const std::string &text) {
    std::string flowed;
    for (const char character : text) {
        const bool blank = character == ' ' || character == '\n';
        if (!blank) {
            flowed.push_back(character);
        } else if (!flowed.empty() && flowed.back() != ' ') {
            flowed.push_back(' ');
        }
    }
    return flowed;
}

} // namespace

TEST_CASE("every command of the reference has a summary, a description, explained options and an example",
          "[cli][help]") {
    for (const auto &entry : command_reference()) {
        INFO(entry.name);
        CHECK_FALSE(entry.summary.empty());
        CHECK(columns_of(entry.summary) <= 52);
        CHECK(entry.description.size() > entry.summary.size());
        CHECK_FALSE(entry.examples.empty());
        for (const auto example : entry.examples) {
            CHECK(example.find("starling") != std::string_view::npos);
        }
        for (const auto &option : entry.options) {
            INFO(option.name);
            CHECK_FALSE(option.help.empty());
            // A valued option says what applies without it; a flag is off.
            CHECK(option.value.empty() != !option.default_value.empty());
        }
    }
}

TEST_CASE("a command parses exactly the options its entry lists, and a misspelt one gets the closest",
          "[cli][help]") {
    for (const auto &entry : command_reference()) {
        for (const auto &option : entry.options) {
            INFO(entry.name << " --" << option.name);
            std::vector<std::string> words{"--" + std::string{option.name}};
            if (!option.value.empty()) {
                words.emplace_back(option.choices.empty() ? "x" : std::string{option.choices.front()});
            }
            const auto arguments = parse_arguments(entry.name, words);
            if (option.value.empty()) {
                CHECK(arguments.flag(option.name));
            } else {
                CHECK(arguments.value(option.name) == words.back());
            }
        }
    }
    const std::vector<std::string> misspelt{"--scop", "user"};
    CHECK_THROWS_WITH(parse_arguments("search", misspelt), "unknown option --scop; did you mean '--scope'?");
    const std::vector<std::string> foreign{"--frobnicate"};
    CHECK_THROWS_WITH(parse_arguments("search", foreign), "unknown option --frobnicate");
    CHECK_THROWS_AS(parse_arguments("no such command", foreign), std::logic_error);
}

TEST_CASE("the help of every command fits 80 columns and shows its options with their defaults",
          "[cli][help]") {
    for (const auto &name : command_names()) {
        INFO(name);
        const auto help = command_help(name);
        const auto words = flowing(help);
        CHECK_THAT(help, Catch::StartsWith("Usage: starling " + name));
        CHECK(overlong_lines(help).empty());
        CHECK_THAT(help, Catch::Contains("Example"));
        for (const auto *entry : command_and_subcommands(name)) {
            for (const auto &option : entry->options) {
                CHECK_THAT(help, Catch::Contains("--" + std::string{option.name}));
                if (!option.default_value.empty()) {
                    CHECK_THAT(words, Catch::Contains("default: " + flowing(std::string{option.default_value})));
                }
            }
        }
    }
    CHECK(overlong_lines(overall_help()).empty());
    CHECK(overlong_lines(short_usage()).empty());
    CHECK(command_help("frobnicate").empty());
    // A command made of subcommands explains each.
    CHECK_THAT(command_help("config"), Catch::Contains("Usage: starling config show") &&
                                           Catch::Contains("Usage: starling config check"));
}

TEST_CASE("text is wrapped at word boundaries, and a word longer than a line stays whole", "[cli][help]") {
    CHECK(wrap_text("one two three four", 2, 0, 10) == "one two\n  three\n  four\n");
    CHECK(wrap_text("aaaaaaaaaaaaaa b", 0, 0, 10) == "aaaaaaaaaaaaaa\nb\n");
    // Columns, not bytes: German and Chinese text wraps by what a terminal shows.
    CHECK(wrap_text("Schlüssel für 密钥", 0, 0, 13) == "Schlüssel für\n密钥\n");
}

TEST_CASE("the overall help lists every command once, by group", "[cli][help]") {
    const auto help = overall_help();
    for (const auto &entry : command_reference()) {
        INFO(entry.name);
        CHECK_THAT(help, Catch::Contains("\n  " + std::string{entry.name} + " "));
    }
    CHECK(help.find("Memories:") < help.find("Agents:"));
}

TEST_CASE("every completion script offers every command, subcommand and option", "[cli][completion]") {
    for (const auto shell : {Shell::bash, Shell::zsh, Shell::fish}) {
        const auto script = completion_script(shell);
        for (const auto &name : command_names()) {
            CHECK_THAT(script, Catch::Contains(name));
        }
        for (const auto &entry : command_reference()) {
            const auto subcommand = entry.name.substr(entry.name.find(' ') + 1);
            CHECK_THAT(script, Catch::Contains(std::string{subcommand}));
            for (const auto &option : entry.options) {
                INFO(entry.name << " --" << option.name);
                // fish names a long option with -l NAME; bash and zsh with --NAME.
                CHECK_THAT(script, Catch::Contains((shell == Shell::fish ? "-l " : "--") + std::string{option.name}));
                for (const auto choice : option.choices) {
                    CHECK_THAT(script, Catch::Contains(std::string{choice}));
                }
            }
        }
    }
    CHECK(shell_named("bash") == Shell::bash);
    CHECK(shell_named("fish") == Shell::fish);
    CHECK_FALSE(shell_named("powershell"));
}

TEST_CASE("the man pages are starling(1) and one page per group, each naming its commands", "[cli][man]") {
    const auto pages = man_pages("9.9.9");
    REQUIRE(pages.size() == 7);
    CHECK(pages.front().file_name == "starling.1");
    for (const auto &page : pages) {
        INFO(page.file_name);
        CHECK_THAT(page.text, Catch::Contains(".TH ") && Catch::Contains("starling 9.9.9") &&
                                  Catch::Contains(".SH NAME"));
    }
    for (const auto &entry : command_reference()) {
        std::string heading{".SS "};
        for (const char character : entry.name) {
            heading.append(character == '-' ? std::string{"\\-"} : std::string(1, character));
        }
        const auto in_a_group_page = std::any_of(pages.begin() + 1, pages.end(), [&](const ManPage &page) {
            return page.text.find(heading + "\n") != std::string::npos;
        });
        INFO(entry.name);
        CHECK(in_a_group_page);
    }
}
