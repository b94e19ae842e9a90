// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <starling/core/io/log.hpp>
#include <starling/plugins/static_plugins.hpp>

#include <catch2/catch.hpp>

#include "support/quiet_logger.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <set>

namespace fs = std::filesystem;
using nlohmann::json;

namespace starling::test {

using starling::test::quiet_logger;

namespace {

plugins::AdapterInstance create_adapter(plugins::PluginRegistry &registry, std::string_view id) {
    registry.add_static_plugins(plugins::linked_static_plugins());
    return registry.create_adapter(id, "{}");
}

std::string read_text_file(const fs::path &file) {
    std::ifstream in{file, std::ios::binary};
    REQUIRE(in.good());
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

/// A parse either succeeds or fails as invalid input; anything else (a crash, an internal error, an
/// exception escaping the ABI) fails the test.
std::optional<sdk::Event> parse_or_reject(const AdapterUnderTest &adapter,
                                          const std::vector<std::string> &argv, std::string_view payload) {
    try {
        return adapter.parse(argv, payload);
    } catch (const plugins::PluginCallError &failure) {
        INFO(failure.what());
        CHECK(failure.status() == STARLING_STATUS_INVALID_INPUT);
        return std::nullopt;
    }
}

/// Rendered output is nothing, or exactly one JSON object on one line.
void check_well_formed(const sdk::RenderedReply &rendered) {
    CHECK(rendered.exit_code == 0);
    if (rendered.stdout_text.empty()) {
        return;
    }
    CHECK(rendered.stdout_text.back() == '\n');
    CHECK(std::count(rendered.stdout_text.begin(), rendered.stdout_text.end(), '\n') == 1);
    const auto parsed = json::parse(rendered.stdout_text, nullptr, false);
    CHECK(parsed.is_object());
}

/// Calls `visit` with a copy of `payload` in which the value at each path has been replaced by each
/// of `values`, along with the path.
void for_each_mutation(const json &payload, const std::vector<json> &values,
                       const std::function<void(const json &, const std::string &)> &visit) {
    const json flat = payload.flatten();
    std::set<std::string> paths;
    for (const auto &[leaf, value] : flat.items()) {
        // Every ancestor of a leaf is a field too: "/tool_input/file_path" and "/tool_input".
        for (auto cut = leaf.find('/', 1); cut != std::string::npos; cut = leaf.find('/', cut + 1)) {
            paths.insert(leaf.substr(0, cut));
        }
        paths.insert(leaf);
    }
    for (const auto &path : paths) {
        for (const auto &value : values) {
            json mutated = payload;
            mutated[json::json_pointer{path}] = value;
            visit(mutated, path);
        }
    }
}

} // namespace

AdapterUnderTest::AdapterUnderTest(std::string_view id)
    : registry_(quiet_logger()), adapter_(create_adapter(registry_, id)) {}

sdk::Event AdapterUnderTest::parse(const std::vector<std::string> &argv, std::string_view payload) const {
    return adapter_.parse(argv, payload);
}

std::optional<std::vector<sdk::RecordedPrompt>> AdapterUnderTest::read_history(std::string_view path,
                                                                             std::string_view text) const {
    return adapter_.read_history(path, text);
}

sdk::RenderedReply AdapterUnderTest::render(const sdk::Event &event, const sdk::Reply &reply) const {
    return adapter_.render(event, reply);
}

fs::path payload_directory(std::string_view agent) { return fs::path{STARLING_TEST_PAYLOAD_DIR} / agent; }

json read_json_file(const fs::path &file) {
    INFO(file);
    const auto parsed = json::parse(read_text_file(file), nullptr, false);
    REQUIRE_FALSE(parsed.is_discarded());
    return parsed;
}

std::vector<PayloadFixture> load_payload_fixtures(std::string_view agent) {
    std::vector<fs::path> payload_files;
    for (const auto &entry : fs::directory_iterator{payload_directory(agent)}) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".json") && !name.ends_with(".event.json") && !name.ends_with(".argv.json") &&
            name != "expected-replies.json") {
            payload_files.push_back(entry.path());
        }
    }
    std::sort(payload_files.begin(), payload_files.end());
    std::vector<PayloadFixture> fixtures;
    for (const auto &file : payload_files) {
        PayloadFixture fixture;
        fixture.stem = file.stem().string();
        fixture.payload = read_text_file(file);
        const auto argv_file = file.parent_path() / (fixture.stem + ".argv.json");
        if (fs::exists(argv_file)) {
            fixture.argv = read_json_file(argv_file).get<std::vector<std::string>>();
        }
        if (!fixture.argv.empty() && fixture.argv.back() == "@payload") {
            fixture.argv.back() = std::move(fixture.payload);
            fixture.payload.clear();
            fixture.payload_in_argv = true;
        }
        fixture.expected_event = read_json_file(file.parent_path() / (fixture.stem + ".event.json"));
        fixtures.push_back(std::move(fixture));
    }
    return fixtures;
}

std::pair<std::vector<std::string>, std::string> PayloadFixture::with_payload(std::string text) const {
    if (!payload_in_argv) {
        return {argv, std::move(text)};
    }
    auto replaced = argv;
    replaced.back() = std::move(text);
    return {std::move(replaced), {}};
}

std::string expected_stdout(const json &expectation) {
    if (expectation.is_string()) {
        return expectation.get<std::string>();
    }
    REQUIRE(expectation.is_object());
    return sdk::detail::dump_json(expectation) + "\n";
}

void check_golden_fixtures(std::string_view agent) {
    const AdapterUnderTest adapter{agent};
    const auto fixtures = load_payload_fixtures(agent);
    const auto expectations = read_json_file(payload_directory(agent) / "expected-replies.json");
    const auto &replies = expectations.at("replies");
    const auto &expected = expectations.at("expected");
    REQUIRE_FALSE(fixtures.empty());

    std::set<std::string> stems;
    for (const auto &fixture : fixtures) {
        INFO("fixture " << agent << "/" << fixture.stem);
        stems.insert(fixture.stem);
        const auto event = adapter.parse(fixture.argv, fixture.payload);
        const auto actual_event = sdk::to_json(event);
        INFO("parsed " << actual_event.dump(2));
        CHECK(actual_event == fixture.expected_event);
        REQUIRE(expected.contains(fixture.stem));
        const auto &by_reply = expected.at(fixture.stem);
        CHECK(by_reply.size() == replies.size());
        for (const auto &[reply_name, reply] : replies.items()) {
            INFO("reply " << reply_name);
            REQUIRE(by_reply.contains(reply_name));
            const auto &expectation = by_reply.at(reply_name);
            const auto rendered = adapter.render(event, sdk::reply_from_json(reply));
            CHECK(rendered.stdout_text == expected_stdout(expectation.at(1)));
            CHECK(rendered.exit_code == expectation.at(0).get<int>());
        }
    }
    for (const auto &[stem, unused] : expected.items()) {
        INFO("expectation without a fixture: " << stem);
        CHECK(stems.count(stem) == 1);
    }
}

void check_fixtures_cover(std::string_view agent, const std::vector<std::string_view> &reference_events) {
    std::set<std::string> covered;
    for (const auto &fixture : load_payload_fixtures(agent)) {
        covered.insert(fixture.expected_event.at("agent_event").get<std::string>());
    }
    const std::set<std::string> listed(reference_events.begin(), reference_events.end());
    for (const auto &event : listed) {
        INFO("reference event without a fixture: " << event);
        CHECK(covered.count(event) == 1);
    }
    for (const auto &event : covered) {
        INFO("fixture for an event the reference does not list: " << event);
        CHECK(listed.count(event) == 1);
    }
}

void check_hostile_payloads(std::string_view agent, const std::vector<std::string> &kind_fields) {
    const AdapterUnderTest adapter{agent};
    const auto replies = reply_shapes();
    const auto parse_and_render = [&](const std::vector<std::string> &argv, std::string_view payload) {
        const auto event = parse_or_reject(adapter, argv, payload);
        if (event) {
            for (const auto &reply : replies) {
                check_well_formed(adapter.render(*event, reply));
            }
        }
        return event;
    };

    const std::vector<json> wrong_values{nullptr,
                                         42,
                                         -1.5,
                                         true,
                                         "",
                                         "{\"unclosed\":",
                                         json::array({1, "x"}),
                                         json::object({{"nested", nullptr}})};
    for (const auto &fixture : load_payload_fixtures(agent)) {
        INFO("fixture " << agent << "/" << fixture.stem);
        const json original = json::parse(fixture.payload_text());
        const auto expected_kind = fixture.expected_event.at("kind").get<std::string>();
        for_each_mutation(original, wrong_values, [&](const json &mutated, const std::string &path) {
            INFO("replaced " << path << ": " << mutated.dump());
            const auto [argv, payload] = fixture.with_payload(mutated.dump());
            const auto event = parse_and_render(argv, payload);
            const bool names_event = path == "/hook_event_name" || path == "/type";
            const bool decides_kind = std::find(kind_fields.begin(), kind_fields.end(), path) != kind_fields.end();
            if (!names_event && !decides_kind) {
                REQUIRE(event);
                CHECK(sdk::to_string(event->kind) == expected_kind);
            }
        });
        const auto &text = fixture.payload_text();
        for (std::size_t length = 1; length < text.size(); length += 7) {
            const auto [argv, payload] = fixture.with_payload(text.substr(0, length));
            parse_and_render(argv, payload);
        }
    }

    std::mt19937 random{20260522};
    std::uniform_int_distribution<int> byte{0, 255};
    for (int round = 0; round < 200; ++round) {
        std::string garbage(static_cast<std::size_t>(1 + round * 3), '\0');
        std::generate(garbage.begin(), garbage.end(), [&] { return static_cast<char>(byte(random)); });
        parse_and_render({}, garbage);
        parse_and_render({"Stop"}, "{\"hook_event_name\":\"" + garbage);
    }
    const std::string png_header{"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16};
    for (const std::string_view rejected :
         {std::string_view{"[]"}, std::string_view{"42"}, std::string_view{"\"Stop\""},
          std::string_view{"null"}, std::string_view{"{\"a\":1}{"}, std::string_view{"\xff\xfe{}"},
          std::string_view{png_header}}) {
        INFO(rejected);
        CHECK_FALSE(parse_and_render({"Stop"}, rejected));
    }
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK_FALSE(parse_and_render({"Stop"}, deep));
    // Bytes that are not UTF-8 inside a string are repaired, not rejected: the event is kept.
    const auto repaired = parse_and_render({}, "{\"hook_event_name\":\"Stop\",\"cwd\":\"\xc3\x28\"}");
    REQUIRE(repaired);
    CHECK(repaired->working_directory == "\xEF\xBF\xBD(");
}

void check_invalid_input_messages(std::string_view agent) {
    const AdapterUnderTest adapter{agent};
    const auto failure_of = [&](const std::vector<std::string> &argv,
                                std::string_view payload) -> std::string {
        try {
            (void)adapter.parse(argv, payload);
        } catch (const plugins::PluginCallError &failure) {
            CHECK(failure.status() == STARLING_STATUS_INVALID_INPUT);
            return failure.what();
        }
        FAIL("parse accepted " << payload);
        return {};
    };
    CHECK_THAT(failure_of({"Stop"}, "{\"hook_event_name\": \"Stop\",\n \"cwd\": }"),
               Catch::Matchers::Contains("line 2, column 9"));
    CHECK_THAT(failure_of({}, "{\"session_id\": \"s-1\", \"cwd\": \"/home/dev/app\"}"),
               Catch::Matchers::Contains("no hook_event_name in payload or arguments"));
    CHECK_THAT(failure_of({}, ""), Catch::Matchers::Contains("no hook_event_name in payload or arguments"));
    CHECK_THAT(failure_of({}, "{\"hook_event_name\": 7}"),
               Catch::Matchers::Contains("no hook_event_name in payload or arguments"));
}

void check_safe_replies(std::string_view agent, const std::string &carry_on_for_unknown_events) {
    const AdapterUnderTest adapter{agent};
    const auto expectations =
        read_json_file(payload_directory(agent) / "expected-replies.json").at("expected");
    const sdk::Reply empty;
    for (const auto &fixture : load_payload_fixtures(agent)) {
        INFO("fixture " << agent << "/" << fixture.stem);
        const auto carry_on = expected_stdout(expectations.at(fixture.stem).at("empty").at(1));
        // What a hook binary renders when parse failed: an event that has only the agent's event name.
        sdk::Event bare;
        bare.agent = std::string{agent};
        bare.agent_event = fixture.expected_event.at("agent_event").get<std::string>();
        bare.details = json::object();
        const auto rendered = adapter.render(bare, empty);
        CHECK(rendered.stdout_text == carry_on);
        CHECK(rendered.exit_code == 0);
    }
    for (const std::string_view unknown : {"", "NoSuchEvent", "stop_v9", "\xff"}) {
        INFO("event name '" << unknown << "'");
        sdk::Event event;
        event.agent = std::string{agent};
        event.agent_event = std::string{unknown};
        const auto rendered = adapter.render(event, empty);
        CHECK(rendered.stdout_text == carry_on_for_unknown_events);
        CHECK(rendered.exit_code == 0);
        const auto parsed = parse_or_reject(adapter, {std::string{unknown}}, "{}");
        if (parsed) {
            CHECK(parsed->kind == sdk::EventKind::other);
            CHECK(adapter.render(*parsed, empty).stdout_text == carry_on_for_unknown_events);
        }
    }
}

void check_adapter_contract(const AdapterContract &contract) {
    SECTION("golden payloads parse to their events and render their replies") {
        check_golden_fixtures(contract.agent);
    }
    SECTION("the fixtures cover every event of the reference") {
        check_fixtures_cover(contract.agent, contract.reference_events);
    }
    SECTION("hostile payloads are refused as invalid input or read with the bad field missing") {
        check_hostile_payloads(contract.agent, contract.kind_fields);
        check_invalid_input_messages(contract.agent);
    }
    SECTION("an empty reply is the carry-on reply for every event") {
        check_safe_replies(contract.agent, contract.carry_on_for_unknown_events);
    }
}

std::vector<sdk::Reply> reply_shapes() {
    const std::string context = "Remember: builds use cmake --preset dev.";
    const std::string message = "Starling saved a memory.";
    return {{},
            {context, "", std::nullopt},
            {"", message, std::nullopt},
            {"", "", "Not now."},
            {"", "", " "},
            {context, message, "Not now."}};
}

void for_each_rendering(
    std::string_view agent, const std::vector<sdk::Reply> &replies,
    const std::function<void(const sdk::Event &, const sdk::Reply &, const sdk::RenderedReply &)> &visit) {
    const AdapterUnderTest adapter{agent};
    for (const auto &fixture : load_payload_fixtures(agent)) {
        INFO("fixture " << agent << "/" << fixture.stem);
        const auto event = adapter.parse(fixture.argv, fixture.payload);
        for (const auto &reply : replies) {
            INFO("reply " << sdk::to_json(reply).dump());
            visit(event, reply, adapter.render(event, reply));
        }
    }
}

} // namespace starling::test
