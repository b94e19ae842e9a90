// SPDX-License-Identifier: Apache-2.0
// The "codex-hook-state" trust ledger: the hash Codex computes over a hook, and config.toml edited
// table by table so that the rest of the user's file stays byte for byte.
#include <starling/app/hook_trust_state.hpp>

#include <catch2/catch.hpp>

using namespace starling::app;

namespace {

const nlohmann::json kDefaults{{"timeout", 600}, {"async", false}};

nlohmann::json command(const std::string &text) { return {{"type", "command"}, {"command", text}}; }

} // namespace

TEST_CASE("events are keyed in snake_case with their group and hook index", "[app][hook-trust]") {
    CHECK(snake_case_event("SessionStart") == "session_start");
    CHECK(snake_case_event("UserPromptSubmit") == "user_prompt_submit");
    CHECK(snake_case_event("Stop") == "stop");
    CHECK(trust_key("/home/u/.codex/hooks.json", "PostToolUse", 1, 0) == "/home/u/.codex/hooks.json:post_tool_use:1:0");
}

TEST_CASE("hashes are those the real Codex 0.169 reports as currentHash in hooks/list", "[app][hook-trust]") {
    // Observed 2026-11-25: `codex app-server` → hooks/list over a hooks.json holding these hooks.
    CHECK(trusted_hook_hash("SessionStart", std::nullopt, command("/opt/bin/starling-codex SessionStart"), kDefaults) ==
          "sha256:1405e76df404169eeaa76ee26538c9fb4cd180e00c21e9fc4cb06de5a0bb081c");
    CHECK(trusted_hook_hash("PostToolUse", std::string{"Bash"}, command("/opt/bin/starling-codex PostToolUse"),
                            kDefaults) == "sha256:d40115712d58d6b1e7bdb1de5de25f3b69a29e442efd78b435b08136c56ed22f");
    CHECK(trusted_hook_hash("UserPromptSubmit", std::nullopt,
                            command("'/opt/it'\\''s/starling-codex' UserPromptSubmit"), kDefaults) ==
          "sha256:f7874dfd39d9ff0d4f54f8582d55f4ff7be11ac27771d2376458665f1d9c213c");
    const nlohmann::json session_end_defaults{{"timeout", 1}, {"async", false}};
    CHECK(trusted_hook_hash("SessionEnd", std::nullopt, command("/opt/bin/starling-codex SessionEnd"),
                            session_end_defaults) ==
          "sha256:dd70f12821e64ece53e00315e866762a66549f63d8b89d23d88fa3669b2710fc");
}

TEST_CASE("a hook's hash covers its event, matcher and command with the agent's defaults", "[app][hook-trust]") {
    const auto base = trusted_hook_hash("SessionStart", std::nullopt, command("/opt/bin/starling-codex SessionStart"), kDefaults);
    CHECK_THAT(base, Catch::StartsWith("sha256:"));
    CHECK(base.size() == 7 + 64);
    // The defaults are what the agent fills in: writing them out changes nothing.
    auto explicit_defaults = command("/opt/bin/starling-codex SessionStart");
    explicit_defaults["timeout"] = 600;
    explicit_defaults["async"] = false;
    CHECK(trusted_hook_hash("SessionStart", std::nullopt, explicit_defaults, kDefaults) == base);
    CHECK(trusted_hook_hash("SessionStart", std::nullopt, command("/elsewhere/starling-codex SessionStart"), kDefaults) != base);
    CHECK(trusted_hook_hash("Stop", std::nullopt, command("/opt/bin/starling-codex SessionStart"), kDefaults) != base);
    CHECK(trusted_hook_hash("SessionStart", std::string{"startup"}, command("/opt/bin/starling-codex SessionStart"),
                            kDefaults) != base);
}

TEST_CASE("trust is appended after the user's configuration and removed to the byte", "[app][hook-trust]") {
    const std::string user = "model = \"gpt-5.5\"\n\n[analytics]\nenabled = false # quiet\n";
    const std::vector<TrustedHook> hooks{{"/h/hooks.json:session_start:0:0", "sha256:aa"},
                                         {"/h/hooks.json:post_tool_use:1:0", "sha256:bb"}};
    const auto trusted = with_trusted_hooks(user, hooks);
    CHECK_THAT(trusted, Catch::StartsWith(user));
    CHECK_THAT(trusted, Catch::Contains("\n[hooks.state.\"/h/hooks.json:session_start:0:0\"]\ntrusted_hash = \"sha256:aa\"\n"));
    CHECK(recorded_trust(trusted, "/h/hooks.json:post_tool_use:1:0") == "sha256:bb");
    CHECK(with_trusted_hooks(trusted, hooks) == trusted);
    CHECK(without_trusted_hooks(trusted, {hooks[0].key, hooks[1].key}) == user);
    CHECK(without_trusted_hooks(with_trusted_hooks("", hooks), {hooks[0].key, hooks[1].key}).empty());
}

TEST_CASE("a table the user already has for the key gets the new hash, in place", "[app][hook-trust]") {
    const std::string user = "[hooks.state.\"/h/hooks.json:stop:0:0\"]\nenabled = true\ntrusted_hash = \"sha256:old\"\n\n[tui]\ntheme = \"dark\"\n";
    const auto trusted = with_trusted_hooks(user, {{"/h/hooks.json:stop:0:0", "sha256:new"}});
    CHECK(trusted == "[hooks.state.\"/h/hooks.json:stop:0:0\"]\nenabled = true\ntrusted_hash = \"sha256:new\"\n\n[tui]\ntheme = \"dark\"\n");
    CHECK(recorded_trust(user, "/h/hooks.json:stop:0:0") == "sha256:old");
    CHECK_FALSE(recorded_trust(user, "/h/hooks.json:stop:0:1"));
}

TEST_CASE("keys holding quotes and backslashes are written as TOML basic strings", "[app][hook-trust]") {
    const std::string key = "/home/u/it's \"odd\"\\dir/hooks.json:stop:0:0";
    const auto trusted = with_trusted_hooks("", {{key, "sha256:cc"}});
    CHECK_THAT(trusted, Catch::Contains(R"([hooks.state."/home/u/it's \"odd\"\\dir/hooks.json:stop:0:0"])"));
    CHECK(recorded_trust(trusted, key) == "sha256:cc");
    CHECK(without_trusted_hooks(trusted, {key}).empty());
}
