// SPDX-License-Identifier: Apache-2.0
#include "hook_command.hpp"

#include <starling/sdk/shell_words.hpp>

#include <algorithm>

namespace starling::app {

HookProgram hook_program_of(const std::string &adapter_id, const sdk::AgentIntegration &integration,
                            const std::filesystem::path &binary_directory) {
    return {adapter_id, integration.hook_binary.empty() ? kGenericHookBinary : integration.hook_binary,
            binary_directory};
}

namespace {

bool is_generic(const HookProgram &program) { return program.binary_name == kGenericHookBinary; }

} // namespace

std::vector<std::string> hook_program_words(const HookProgram &program) {
    std::vector<std::string> words{(program.binary_directory / program.binary_name).string()};
    if (is_generic(program)) {
        words.push_back(program.adapter_id);
    }
    return words;
}

std::vector<std::string> hook_command_words(const HookProgram &program, const std::string &event) {
    auto words = hook_program_words(program);
    words.push_back(event);
    return words;
}

std::string hook_command(const HookProgram &program, const std::string &event) {
    std::string command;
    for (const auto &word : hook_command_words(program, event)) {
        command += (command.empty() ? "" : " ") + sdk::shell_quote(word);
    }
    return command;
}

bool runs_hook_program(const HookProgram &program, const std::string &command) {
    const auto words = sdk::split_shell_words(command);
    if (!words || words->empty()) {
        return false;
    }
    const auto program_word = std::find_if(words->begin(), words->end(), [&](const sdk::ShellWord &word) {
        return word.is_operator || std::filesystem::path{word.text}.filename() == program.binary_name;
    });
    if (program_word == words->end() || program_word->is_operator) {
        return false;
    }
    // Words before the program's are only acceptable as the pieces of an unquoted absolute path with
    // spaces ("/opt/my tools/starling-claude"), which a shell split where the agent did not expect it.
    if (program_word != words->begin()) {
        const bool unquoted = command.find_first_of("'\"\\") == std::string::npos;
        if (!unquoted || !words->front().text.starts_with('/')) {
            return false;
        }
    }
    if (!is_generic(program)) {
        return true;
    }
    const auto adapter_word = program_word + 1;
    return adapter_word != words->end() && !adapter_word->is_operator && adapter_word->text == program.adapter_id;
}

} // namespace starling::app
