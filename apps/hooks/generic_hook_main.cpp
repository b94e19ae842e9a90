// SPDX-License-Identifier: Apache-2.0
// `starling-hook ADAPTER-ID [ARGS...]`: the hook executable of an agent that has none of its own — an
// adapter loaded from a plugin module, say. `starling install` writes it into such an agent's hooks.
#include "hook_runner.hpp"
#include "resident_server.hpp"

#include <iostream>

int main(int argc, char **argv) {
    if (const auto answered = starling::app::answer_asked_by_hand("starling-hook", "", argc, argv)) {
        return *answered;
    }
    if (const auto served = starling::app::resident::answer_resident_arguments("", argc, argv)) {
        return *served;
    }
    if (argc < 2 || argv[1][0] == '\0' || argv[1][0] == '-') {
        std::cerr << "usage: starling-hook ADAPTER-ID [ARGS...] (the payload on stdin)\n";
        return 64;
    }
    // The adapter sees the arguments after its id, as it would after the name of a hook binary of its own.
    return starling::app::run_hook(argv[1], argc - 1, argv + 1);
}
