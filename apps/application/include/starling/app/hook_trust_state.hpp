// SPDX-License-Identifier: Apache-2.0
//
// The "codex-hook-state" trust scheme an adapter may declare (sdk::HookTrust): the agent runs a hook
// from its hooks file only when its configuration holds
//
//     [hooks.state."<hooks file>:<event in snake_case>:<group index>:<hook index>"]
//     trusted_hash = "sha256:<hex>"
//
// with the hash it computes over the hook. What is computed here matches Codex 0.169's
// `command_hook_hash` (codex-rs/hooks/src/engine/discovery.rs) and `version_for_toml`
// (codex-rs/config/src/fingerprint.rs): the SHA-256 of the hook's identity serialised as compact JSON
// with sorted keys. The configuration file is edited as text, table by table, so that everything
// else in it stays as the user wrote it.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app {

/// One hook as the trust ledger names it.
struct TrustedHook {
    std::string key;  ///< "<hooks file>:<event_snake>:<group>:<hook>"
    std::string hash; ///< "sha256:<64 hex digits>"

    friend bool operator==(const TrustedHook &, const TrustedHook &) = default;
};

/// "PostToolUse" → "post_tool_use": how the ledger spells an event.
[[nodiscard]] std::string snake_case_event(std::string_view event);

/// The key of the hook at `group`, `hook` of `event` in `hooks_file`.
[[nodiscard]] std::string trust_key(std::string_view hooks_file, std::string_view event, std::size_t group,
                                    std::size_t hook);

/// The hash the agent computes over one command hook: its identity {"event_name", "matcher" when the
/// group has one, "hooks": [the handler, with `handler_defaults` filled in where absent]} as compact
/// JSON with every object's keys sorted.
[[nodiscard]] std::string trusted_hook_hash(std::string_view event, const std::optional<std::string> &matcher,
                                            const nlohmann::json &handler, const nlohmann::json &handler_defaults);

/// `config` (the text of the TOML file) with each hook's trusted hash recorded: an existing table for
/// the key gets its trusted_hash set, a missing one is appended.
[[nodiscard]] std::string with_trusted_hooks(std::string config, const std::vector<TrustedHook> &hooks);

/// `config` without the tables of `keys` (and the blank line before each, which with_trusted_hooks
/// put there).
[[nodiscard]] std::string without_trusted_hooks(std::string config, const std::vector<std::string> &keys);

/// The trusted hash recorded for `key`, if any.
[[nodiscard]] std::optional<std::string> recorded_trust(std::string_view config, std::string_view key);

} // namespace starling::app
