// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/shell_reads.hpp>

#include <starling/sdk/shell_words.hpp>

#include <algorithm>
#include <filesystem>
#include <span>

namespace starling::adapters {

namespace {

/// How a reading program takes its operands.
struct ReadingProgram {
    std::string_view name;
    /// Short and long options that take a value as the next word (`-n 5`, `--max-count 3`).
    std::span<const std::string_view> options_with_value;
    /// Whether the first operand is a pattern or script rather than a file, unless an option gave it.
    bool first_operand_is_pattern = false;
    /// Options that give the pattern or script, after which every operand is a file.
    std::span<const std::string_view> pattern_options = {};
};

constexpr std::string_view kHeadTail[] = {"-n", "-c", "--lines", "--bytes"};
constexpr std::string_view kSed[] = {"-e", "-f", "--expression", "--file", "-l", "--line-length"};
constexpr std::string_view kSedScript[] = {"-e", "-f", "--expression", "--file"};
constexpr std::string_view kLess[] = {"-b", "-h", "-j", "-k", "-o", "-p", "-t", "-T", "-x", "-y", "-z", "--pattern"};
constexpr std::string_view kGrep[] = {"-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "--regexp", "--file",
                                      "--max-count", "--after-context", "--before-context", "--context",
                                      "--include", "--exclude", "--exclude-dir", "--label"};
constexpr std::string_view kRg[] = {"-e", "-f", "-m", "-A", "-B", "-C", "-g", "-t", "-T", "-E", "-j", "-M", "-r",
                                    "--regexp", "--file", "--max-count", "--after-context", "--before-context",
                                    "--context", "--glob", "--iglob", "--type", "--type-not", "--encoding",
                                    "--threads", "--max-columns", "--max-depth", "--replace", "--sort", "--sortr"};
constexpr std::string_view kPatternOptions[] = {"-e", "-f", "--regexp", "--file"};

constexpr ReadingProgram kPrograms[] = {
    {"cat", {}},
    {"tac", {}},
    {"nl", {}},
    {"bat", {}},
    {"batcat", {}},
    {"more", {}},
    {"less", kLess},
    {"head", kHeadTail},
    {"tail", kHeadTail},
    {"sed", kSed, true, kSedScript},
    {"grep", kGrep, true, kPatternOptions},
    {"egrep", kGrep, true, kPatternOptions},
    {"fgrep", kGrep, true, kPatternOptions},
    {"rg", kRg, true, kPatternOptions},
};

/// Words that run the next word as the command (`sudo cat f`, `command cat f`).
constexpr std::string_view kPrefixes[] = {"sudo", "command", "exec", "nice", "time", "env"};

bool is_redirection(std::string_view op) { return op.find_first_of("<>") != std::string_view::npos; }

bool is_assignment(std::string_view word) {
    const auto equals = word.find('=');
    return equals != std::string_view::npos && equals > 0 && word.find('/') > equals &&
           word.front() != '-';
}

bool listed(std::span<const std::string_view> options, std::string_view option) {
    return std::find(options.begin(), options.end(), option) != options.end();
}

/// The files one simple command reads, given its words without redirections.
void collect_reads(std::span<const std::string> words, std::vector<std::string> &files) {
    std::size_t start = 0;
    while (start < words.size() &&
           (is_assignment(words[start]) || listed(kPrefixes, words[start]) ||
            (start > 0 && words[start - 1] == "env" && words[start].starts_with('-')))) {
        ++start;
    }
    if (start == words.size()) {
        return;
    }
    const auto name = std::filesystem::path{words[start]}.filename().string();
    const auto program = std::find_if(std::begin(kPrograms), std::end(kPrograms),
                                      [&](const ReadingProgram &candidate) { return candidate.name == name; });
    if (program == std::end(kPrograms)) {
        return;
    }
    bool pattern_given = false;
    bool operands_only = false;
    bool pattern_pending = program->first_operand_is_pattern;
    for (std::size_t i = start + 1; i < words.size(); ++i) {
        const std::string &word = words[i];
        if (!operands_only && word == "--") {
            operands_only = true;
            continue;
        }
        if (!operands_only && word.size() > 1 && word.front() == '-') {
            if (name == "sed" && (word == "-i" || word.rfind("-i", 0) == 0 || word.rfind("--in-place", 0) == 0)) {
                return; // edits in place
            }
            const auto option = word.substr(0, word.find('='));
            if (listed(program->pattern_options, option) ||
                (option.size() > 2 && option[1] != '-' && listed(program->pattern_options, option.substr(0, 2)))) {
                pattern_given = true;
            }
            // `-n 5` takes the next word; `-n5` and `--lines=5` carry their value.
            if (listed(program->options_with_value, word)) {
                ++i;
            }
            continue;
        }
        if (pattern_pending && !pattern_given) {
            pattern_pending = false;
            continue;
        }
        if (word != "-") { // stdin
            files.push_back(word);
        }
    }
}

} // namespace

std::vector<std::string> files_read_by(std::string_view command) {
    std::vector<std::string> files;
    const auto words = sdk::split_shell_words(command);
    if (!words) {
        return files;
    }
    std::vector<std::string> simple_command;
    bool redirection_target = false;
    for (const auto &word : *words) {
        if (redirection_target) {
            redirection_target = false; // where output goes, or input comes from: not an operand
            continue;
        }
        if (word.is_operator) {
            redirection_target = is_redirection(word.text);
            if (!is_redirection(word.text)) {
                collect_reads(simple_command, files);
                simple_command.clear();
            }
            continue;
        }
        simple_command.push_back(word.text);
    }
    collect_reads(simple_command, files);
    return files;
}

} // namespace starling::adapters
