// SPDX-License-Identifier: Apache-2.0
//
// starling.toml: the loader reads text as `starling config check` and every run do. A problem must
// be a ConfigError naming its position, never anything else.
#include "scratch_directory.hpp"

#include <starling/core/config/config_error.hpp>
#include <starling/core/config/config_loader.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const starling::core::ConfigEnvironment environment{
        "/home/fuzz", std::filesystem::path{"/home/fuzz/.starling"}, std::nullopt};
    try {
        (void)starling::core::parse_config(starling::fuzz::as_text(data, size), "/home/fuzz/.starling/starling.toml",
                                           environment);
    } catch (const starling::core::ConfigError &) {
    }
    return 0;
}
