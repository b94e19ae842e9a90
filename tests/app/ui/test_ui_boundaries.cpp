// SPDX-License-Identifier: Apache-2.0
// What ADR 0016 promises of the viewer's place in the tree: Beast and Asio in one translation unit,
// and none of the viewer in the hook binaries, whose start-up an agent waits for.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path source_root{STARLING_SOURCE_DIR};

std::string text_of(const fs::path &file) {
    std::ifstream in{file, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

} // namespace

TEST_CASE("Boost.Beast and Asio are included by the viewer's server alone", "[ui][architecture]") {
    const std::regex network_include{R"(#\s*include\s*[<"]boost/(beast|asio))"};
    std::vector<std::string> includers;
    for (const auto *folder : {"sdk", "core", "plugins", "adapters", "policies", "apps", "bench", "fuzz", "tests"}) {
        for (const auto &entry : fs::recursive_directory_iterator{source_root / folder}) {
            const auto extension = entry.path().extension();
            if (entry.is_regular_file() && (extension == ".cpp" || extension == ".hpp" || extension == ".h") &&
                std::regex_search(text_of(entry.path()), network_include)) {
                includers.push_back(entry.path().lexically_relative(source_root).string());
            }
        }
    }
    CHECK(includers == std::vector<std::string>{"apps/ui/src/ui_server.cpp"});
}

TEST_CASE("no hook binary links the viewer", "[ui][architecture]") {
    const std::string hooks = text_of(source_root / "apps" / "hooks" / "CMakeLists.txt");
    REQUIRE_FALSE(hooks.empty());
    CHECK(hooks.find("starling::ui") == std::string::npos);
    CHECK(hooks.find("starling_ui") == std::string::npos);
    const std::string command = text_of(source_root / "apps" / "starling" / "CMakeLists.txt");
    CHECK(command.find("starling::ui") != std::string::npos); // the check above looks at the right name
}
