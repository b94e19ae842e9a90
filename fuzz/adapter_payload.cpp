// SPDX-License-Identifier: Apache-2.0
//
// One adapter's payload parser (STARLING_FUZZ_ADAPTER), called through the plugin host as the hook
// binaries call it (the adapter is the only static plugin linked in), then every event it accepts
// rendered with a few replies. The adapter contract
// (tests/adapters/golden.hpp): parse either succeeds or fails as invalid input, and every event it
// returns renders. Any other failure is a finding.
//
// The input is the payload on stdin, unless it starts with
//   '@'  the rest travels as the last word of argv instead (Codex's notify program), or
//   '!'  its first line is argv[0], the event name on the hook's command line; the rest is stdin.
#include "scratch_directory.hpp"

#include <starling/core/io/log.hpp>
#include <starling/plugins/load_error.hpp>
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include <cstdlib>
#include <string>
#include <vector>

extern "C" const starling_plugin_descriptor *STARLING_FUZZ_PLUGIN_ENTRY(const starling_host *);

namespace starling::plugins {

std::span<const StaticPlugin> linked_static_plugins() noexcept {
    static const StaticPlugin table[] = {{STARLING_FUZZ_PLUGIN_SYMBOL, &STARLING_FUZZ_PLUGIN_ENTRY}};
    return table;
}

} // namespace starling::plugins

namespace {

struct Adapter {
    starling::core::Logger logger{{}, starling::core::LogLevel::error, false};
    starling::plugins::PluginRegistry registry{logger};
    starling::plugins::AdapterInstance instance = create();

    starling::plugins::AdapterInstance create() {
        registry.add_static_plugins(starling::plugins::linked_static_plugins());
        return registry.create_adapter(STARLING_FUZZ_ADAPTER, "{}");
    }
};

const std::vector<starling::sdk::Reply> &replies() {
    static const std::vector<starling::sdk::Reply> shapes{
        {},
        {"context for the model", "", std::nullopt},
        {"context", "a note for the user", std::string{"blocked by policy"}},
    };
    return shapes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const Adapter adapter;
    std::string_view input = starling::fuzz::as_text(data, size);
    std::vector<std::string> argv;
    std::string_view payload = input;
    if (input.starts_with('@')) {
        argv = {"notify", std::string{input.substr(1)}};
        payload = {};
    } else if (input.starts_with('!')) {
        const auto end = std::min(input.find('\n'), input.size());
        argv = {std::string{input.substr(1, end - 1)}};
        payload = input.substr(std::min(end + 1, input.size()));
    }
    starling::sdk::Event event;
    try {
        event = adapter.instance.parse(argv, payload);
    } catch (const starling::plugins::PluginCallError &failure) {
        if (failure.status() != STARLING_STATUS_INVALID_INPUT) {
            std::abort();
        }
        return 0;
    }
    for (const auto &reply : replies()) {
        (void)adapter.instance.render(event, reply);
    }
    return 0;
}
