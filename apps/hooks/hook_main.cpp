// SPDX-License-Identifier: Apache-2.0
// The agent-specific hook executables (starling-claude, starling-cursor, starling-codex,
// starling-codeflicker) are this file compiled with the adapter id they serve.
#include "hook_runner.hpp"

int main(int argc, char **argv) { return starling::app::run_hook(STARLING_HOOK_ADAPTER_ID, argc, argv); }
