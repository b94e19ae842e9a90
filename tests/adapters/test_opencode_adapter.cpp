// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;
using starling::test::AdapterUnderTest;

namespace {

constexpr std::string_view kAgent = "opencode";

} // namespace

TEST_CASE("opencode honours the adapter contract", "[adapter][opencode]") {
    // The events Starling's plugin (adapters/opencode/starling.js) passes on.
    const std::vector<std::string_view> events{"SessionStart", "UserPromptSubmit", "PostToolUse",
                                               "PreCompact",   "Stop",             "SessionEnd",
                                               "SubagentStart"};
    starling::test::check_adapter_contract({kAgent, events, ""});
}

TEST_CASE("opencode answers only what its plugin can apply: context, at the top level", "[adapter][opencode]") {
    const auto check_reply = [](const auto & /*event*/, const auto &reply, const auto &rendered) {
        CHECK(rendered.exit_code == 0);
        if (!rendered.stdout_text.empty()) {
            CHECK(json::parse(rendered.stdout_text) == json{{"additionalContext", reply.context}});
        }
    };
    starling::test::for_each_rendering(kAgent, starling::test::reply_shapes(), check_reply);
}
