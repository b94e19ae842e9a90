// SPDX-License-Identifier: Apache-2.0
// The agent-specific hook executables (starling-claude, starling-cursor, starling-codex,
// starling-codeflicker) are this file compiled with the adapter id they serve.
#include "hook_runner.hpp"
#include "resident_server.hpp"

#include <filesystem>

int main(int argc, char **argv) {
    const std::string program = std::filesystem::path{argv[0]}.filename().string();
    if (const auto answered = starling::app::answer_asked_by_hand(program, STARLING_HOOK_ADAPTER_ID, argc, argv)) {
        return *answered;
    }
    if (const auto served = starling::app::resident::answer_resident_arguments(STARLING_HOOK_ADAPTER_ID, argc, argv)) {
        return *served;
    }
    return starling::app::run_hook(STARLING_HOOK_ADAPTER_ID, argc, argv);
}
