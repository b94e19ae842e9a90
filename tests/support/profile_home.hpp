// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace starling::test {

/// Makes the shipped `profile` the configuration of `home` (`starling profile use`), with hooks
/// doing their after-reply work before they exit, so that each step of a scenario test sees the
/// effect of the one before. For end-to-end tests, which define STARLING_TEST_BINARY_DIR.
inline void use_profile_in_foreground(const ScratchHome &home, const std::string &profile) {
    const auto used = run_process(std::filesystem::path{STARLING_TEST_BINARY_DIR} / "starling",
                                  {"profile", "use", profile}, home.options());
    INFO(used.stderr_text);
    REQUIRE(used.exit_code == 0);
    std::ofstream{home.path() / "starling.toml", std::ios::app} << "\n[hooks]\nbackground = false\n";
}

} // namespace starling::test
