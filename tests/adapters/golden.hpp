// SPDX-License-Identifier: Apache-2.0
//
// The golden-test driver shared by the adapter tests. Fixtures live in
// tests/fixtures/payloads/<agent>/:
//   <stem>.json            the payload exactly as the agent writes it on stdin
//   <stem>.argv.json       optional: the plugin's argv (the words after the hook program's name); a
//                          last element "@payload" stands for the payload text, which then travels in
//                          argv instead of stdin (Codex notify)
//   <stem>.event.json      the canonical event parse must produce, compared as a JSON value
//   expected-replies.json  {"replies": {<name>: <sdk reply>}, "expected": {<stem>: {<name>: [exit code,
//                          stdout]}}}: stdout "" is nothing at all, an object is one line of JSON
#pragma once

#include <starling/plugins/plugin_registry.hpp>
#include <starling/sdk/event.hpp>
#include <starling/sdk/plugin.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starling::test {

/// An adapter created through the plugin host from the plugins linked into the test binary, exactly
/// as the hook binaries create it.
class AdapterUnderTest {
public:
    explicit AdapterUnderTest(std::string_view id);

    [[nodiscard]] sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) const;
    [[nodiscard]] sdk::RenderedReply render(const sdk::Event &event, const sdk::Reply &reply) const;
    /// Through starling.session-history/1; nullopt when the adapter does not offer it.
    [[nodiscard]] std::optional<std::vector<sdk::RecordedPrompt>> read_history(std::string_view path,
                                                                               std::string_view text) const;

private:
    plugins::PluginRegistry registry_; // declared first: the adapter's library must outlive it
    plugins::AdapterInstance adapter_;
};

struct PayloadFixture {
    std::string stem;
    std::string payload; ///< stdin; empty when the payload travels in argv
    std::vector<std::string> argv;
    bool payload_in_argv = false; ///< the payload is argv's last element
    nlohmann::json expected_event;

    /// The agent's JSON, wherever it travels.
    [[nodiscard]] const std::string &payload_text() const { return payload_in_argv ? argv.back() : payload; }
    /// This invocation with `text` in place of the agent's JSON.
    [[nodiscard]] std::pair<std::vector<std::string>, std::string> with_payload(std::string text) const;
};

[[nodiscard]] std::filesystem::path payload_directory(std::string_view agent);
[[nodiscard]] std::vector<PayloadFixture> load_payload_fixtures(std::string_view agent);
[[nodiscard]] nlohmann::json read_json_file(const std::filesystem::path &file);

/// The stdout bytes an expectation stands for: "" as is, a JSON object as one line.
[[nodiscard]] std::string expected_stdout(const nlohmann::json &expectation);

/// What every adapter promises, whatever the agent.
struct AdapterContract {
    std::string_view agent;
    /// Every event the reference lists for the agent, spelled as the agent spells it.
    std::vector<std::string_view> reference_events;
    /// The stdout of an empty reply to an event the adapter does not know.
    std::string carry_on_for_unknown_events;
    /// Payload fields (JSON pointers) whose value may decide the event's kind besides its name
    /// (Gemini's PreCompress is a compaction only when its trigger is "manual").
    std::vector<std::string> kind_fields{};
};

/// Runs, each in its own section, every check below.
void check_adapter_contract(const AdapterContract &contract);

/// Reply shapes that exercise every channel: empty, context, user message, block, a blank block
/// reason, and all three parts at once.
[[nodiscard]] std::vector<sdk::Reply> reply_shapes();

/// Parses every fixture of `agent` and renders each of `replies` for it.
void for_each_rendering(
    std::string_view agent, const std::vector<sdk::Reply> &replies,
    const std::function<void(const sdk::Event &, const sdk::Reply &, const sdk::RenderedReply &)> &visit);

/// Every fixture parses to its .event.json, and renders each reply of expected-replies.json to the
/// expected bytes and exit code; every fixture has expectations and every expectation a fixture.
void check_golden_fixtures(std::string_view agent);

/// The fixtures cover exactly the events the reference lists for the agent.
void check_fixtures_cover(std::string_view agent, const std::vector<std::string_view> &reference_events);

/// Hostile payloads: every field of every fixture replaced by values of every JSON type, truncated and
/// garbled payloads, and payloads without an event name. Parse either succeeds or throws
/// invalid_argument (seen through the host as a call failing with STARLING_STATUS_INVALID_INPUT), and
/// every event it returns renders.
void check_hostile_payloads(std::string_view agent, const std::vector<std::string> &kind_fields = {});

/// Malformed JSON is refused naming its position; a call naming no event is refused saying so.
void check_invalid_input_messages(std::string_view agent);

/// An empty reply is the agent's "carry on" for every fixture, for events the adapter does not know,
/// and for events a host built without details after a failed parse.
void check_safe_replies(std::string_view agent, const std::string &carry_on_for_unknown_events);

} // namespace starling::test
