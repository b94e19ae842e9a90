// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string_view>

namespace starling::app {

/// Runs one hook invocation for the agent served by `adapter_id`: reads the payload (stdin; an
/// adapter may also take it from the arguments, which argv holds after the program name), turns it into a canonical
/// event, runs Starling's lifecycle on the event bus, and prints the reply exactly as the agent
/// expects it. Fails open: whatever goes wrong — malformed or huge input, a broken configuration, a
/// failing or crashing plugin — the agent gets the event's "carry on" reply and exit 0, and the cause
/// goes to $STARLING_HOME/logs/starling.log and stderr. Returns the process exit code (2 only when a
/// policy deliberately blocks).
int run_hook(std::string_view adapter_id, int argc, char **argv);

/// When the only argument is --help (or -h) or --version, what a person who ran the hook binary
/// `program` by hand should read, printed, and the exit code; nothing otherwise, for the hook to
/// run. No agent passes these, and without them a hook run by hand would wait for a payload.
std::optional<int> answer_asked_by_hand(std::string_view program, std::string_view adapter_id, int argc,
                                        char **argv);

} // namespace starling::app
