// SPDX-License-Identifier: Apache-2.0
//
// `starling private` and `unprivate`: whether a memory may leave this machine (sync, share).
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/app/sharing/wire_memory.hpp>
#include <starling/core/store/record/memory_id.hpp>

#include <iostream>

namespace starling::app {
namespace {

int set_private(Application &application, std::span<const std::string> words, bool keep_private) {
    const auto arguments = parse_arguments(keep_private ? "private" : "unprivate", words);
    arguments.expect_operands(1, 1, "the ID, KEY or path of the memory to " +
                                        std::string{keep_private ? "keep private" : "let travel again"});
    auto &store = application.store();
    const auto key = store.find_memory(arguments.operands().front());
    const auto memory = store.update(key, [&](core::Memory &updated) {
        if (keep_private) {
            updated.set_extra_field(sharing::private_field, "true");
        } else {
            updated.erase_extra_field(sharing::private_field);
        }
    });
    const auto id = core::memory_id_of(memory);
    if (arguments.flag("json")) {
        print_json({{"id", id}, {"key", key}, {"private", keep_private}});
    } else if (keep_private) {
        std::cout << "memory " << id << " stays on this machine: sync and share leave it out (and withdraw it "
                  << "from where they had put it)\n";
    } else {
        std::cout << "memory " << id << " travels with the next sync or share again\n";
    }
    return 0;
}

} // namespace

int run_private_command(Application &application, std::span<const std::string> words) {
    return set_private(application, words, true);
}

int run_unprivate_command(Application &application, std::span<const std::string> words) {
    return set_private(application, words, false);
}

} // namespace starling::app
