// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/event.hpp>
#include <starling/sdk/policy_types.hpp>
#include <starling/sdk/settings.hpp>

#include <catch2/catch.hpp>

using namespace starling::sdk;

TEST_CASE("canonical events survive the JSON that crosses the ABI", "[sdk][event]") {
    Event event;
    event.kind = EventKind::tool_used;
    event.agent = "cursor";
    event.agent_event = "postToolUse";
    event.session_id = "conv-1";
    event.working_directory = "C:\\Users\\dev\\project";
    event.project = "project-0123456789ab";
    event.tool = ToolUse{"Read", ToolIntent::read, "/home/dev/.starling/memory/user/long/x.md"};
    event.details = {{"transcript_path", nullptr}};

    const Event back = event_from_json(to_json(event));
    CHECK(back.kind == event.kind);
    CHECK(back.agent == event.agent);
    CHECK(back.agent_event == event.agent_event);
    CHECK(back.session_id == event.session_id);
    CHECK(back.working_directory == event.working_directory);
    CHECK(back.project == event.project);
    REQUIRE(back.tool.has_value());
    CHECK(back.tool->intent == ToolIntent::read);
    CHECK(back.tool->file_path == event.tool->file_path);
    CHECK(back.details == event.details);
}

TEST_CASE("a turn's prompts reported after it cross the ABI, and are absent when there are none", "[sdk][event]") {
    Event event;
    event.kind = EventKind::turn_stopped;
    CHECK_FALSE(to_json(event).contains("turn_prompts"));
    event.turn_prompts = {"Rename foo to bar", "and the tests"};
    CHECK(event_from_json(to_json(event)).turn_prompts == event.turn_prompts);
}

TEST_CASE("malformed canonical events name the offending field", "[sdk][event]") {
    CHECK_THROWS_WITH(event_from_json({{"kind", "turn_stopped"}, {"turn_prompts", "one"}}),
                      Catch::Contains("'turn_prompts' is not an array"));
    CHECK_THROWS_WITH(event_from_json({{"kind", "turn_stopped"}, {"turn_prompts", {"one", 2}}}),
                      Catch::Contains("'turn_prompts' holds a value that is not a string"));
    CHECK_THROWS_WITH(event_from_json(nlohmann::json::array()), Catch::Contains("not a JSON object"));
    CHECK_THROWS_WITH(event_from_json({{"kind", "exploded"}}), Catch::Contains("'kind'"));
    CHECK_THROWS_WITH(event_from_json({{"kind", "tool_used"}, {"session_id", 7}}), Catch::Contains("'session_id'"));
    CHECK_THROWS_WITH(event_from_json({{"kind", "tool_used"}, {"tool", {{"intent", "teleport"}}}}),
                      Catch::Contains("'tool.intent'"));
}

TEST_CASE("replies carry an optional block", "[sdk][event]") {
    Reply reply{"remember: bun", "saved one memory", std::nullopt};
    CHECK(to_json(reply)["block"].is_null());
    reply.block_reason = "contains a private key";
    const Reply back = reply_from_json(to_json(reply));
    CHECK(back.context == reply.context);
    CHECK(back.user_message == reply.user_message);
    CHECK(back.block_reason == reply.block_reason);
}

TEST_CASE("decisions and lifecycle actions validate what plugins send back", "[sdk][policy]") {
    const Decision stored{true, "feedback", "user", "user corrected the agent", "No comments in code", {"style"}};
    const Decision back = decision_from_json(to_json(stored));
    CHECK(back.store);
    CHECK(back.scope == "user");
    CHECK(back.tags == std::vector<std::string>{"style"});
    CHECK_THROWS_WITH(decision_from_json({{"decision", "maybe"}}), Catch::Contains("'decision'"));
    CHECK_THROWS_WITH(decision_from_json({{"decision", "store"}, {"scope", "galaxy"}}), Catch::Contains("'scope'"));

    const LifecycleAction merge{LifecycleAction::Kind::merge, "memory/user/long/a.md", "memory/user/long/b.md", "dup"};
    const auto merged = lifecycle_action_from_json(to_json(merge));
    CHECK(merged.kind == LifecycleAction::Kind::merge);
    CHECK(merged.into == merge.into);
    CHECK_THROWS_WITH(lifecycle_action_from_json({{"action", "merge"}, {"key", "a"}}), Catch::Contains("'into'"));
    CHECK_THROWS_WITH(lifecycle_action_from_json({{"action", "vaporise"}, {"key", "a"}}), Catch::Contains("vaporise"));
}

TEST_CASE("a message asked to keep (ABI 1.9) says so across the ABI only when it is, and is checked",
          "[sdk][policy][abi-1-9]") {
    Message message{"The staging database is db-staging-1.", "cli", "shop"};
    CHECK_FALSE(message.asked_to_keep); // as every message written before 1.9
    CHECK_FALSE(to_json(message).contains("asked_to_keep"));
    CHECK_FALSE(message_from_json(to_json(message)).asked_to_keep);

    message.asked_to_keep = true;
    CHECK(to_json(message)["asked_to_keep"] == true);
    const Message back = message_from_json(to_json(message));
    CHECK(back.asked_to_keep);
    CHECK(back.text == message.text);

    const auto with = [](nlohmann::json asked) {
        return nlohmann::json{{"text", "use bun"}, {"asked_to_keep", std::move(asked)}};
    };
    CHECK_FALSE(message_from_json(with(false)).asked_to_keep);
    CHECK_THROWS_WITH(message_from_json(with("yes")),
                      Catch::Contains("'asked_to_keep' must be true or false") && Catch::Contains("\"yes\""));
    CHECK_THROWS_WITH(message_from_json(with(1)), Catch::Contains("'asked_to_keep'"));
}

TEST_CASE("a message's closest similarity (ABI 1.6) crosses the ABI only when computed, and is checked",
          "[sdk][policy][abi-1-6]") {
    Message message{"use bun", "claude-code", "shop"};
    CHECK(message.closest_similarity < 0.0); // not computed, as every message written before 1.6
    CHECK_FALSE(to_json(message).contains("closest_similarity"));
    CHECK(message_from_json(to_json(message)).closest_similarity < 0.0);

    message.closest_similarity = 0.6;
    CHECK(to_json(message)["closest_similarity"] == 0.6);
    const Message back = message_from_json(to_json(message));
    CHECK(back.closest_similarity == 0.6);
    CHECK(back.text == "use bun");
    CHECK(back.project == "shop");

    const auto with = [](nlohmann::json similarity) {
        return nlohmann::json{{"text", "use bun"}, {"closest_similarity", std::move(similarity)}};
    };
    CHECK(message_from_json(with(0)).closest_similarity == 0.0);
    CHECK(message_from_json(with(1)).closest_similarity == 1.0);
    CHECK_THROWS_WITH(message_from_json(with("high")),
                      "message field 'closest_similarity' must be a number in [0, 1], not \"high\"");
    CHECK_THROWS_WITH(message_from_json(with(1.5)), Catch::Contains("'closest_similarity'"));
    CHECK_THROWS_WITH(message_from_json(with(-0.5)), Catch::Contains("'closest_similarity'"));
    CHECK_THROWS_WITH(message_from_json(with(nullptr)), Catch::Contains("'closest_similarity'"));
}

TEST_CASE("the plan actions of ABI 1.4 go through JSON and are checked", "[sdk][policy][abi-1-4]") {
    LifecycleAction set{LifecycleAction::Kind::set_field, "a", {}, "why"};
    set.field = "trigger";
    set.value = std::vector<std::string>{"x", "y"};
    const auto set_back = lifecycle_action_from_json(to_json(set));
    CHECK(set_back.kind == LifecycleAction::Kind::set_field);
    CHECK(set_back.field == "trigger");
    CHECK(set_back.value == FieldValue{std::vector<std::string>{"x", "y"}});
    CHECK(lifecycle_action_from_json({{"action", "set_field"}, {"key", "a"}, {"field", "f"}, {"value", nullptr}}).value ==
          FieldValue{std::monostate{}});
    CHECK_THROWS_WITH(lifecycle_action_from_json({{"action", "set_field"}, {"key", "a"}}), Catch::Contains("'field'"));
    CHECK_THROWS_WITH(lifecycle_action_from_json({{"action", "set_field"}, {"key", "a"}, {"field", "f"}, {"value", 3}}),
                      Catch::Contains("'value'"));

    const auto linked = lifecycle_action_from_json({{"action", "link"}, {"key", "a"}, {"into", "b"}});
    CHECK(linked.relation == "related");
    CHECK(to_json(linked)["relation"] == "related");
    CHECK_THROWS_WITH(lifecycle_action_from_json({{"action", "link"}, {"key", "a"}}), Catch::Contains("'into'"));
    CHECK_THROWS_WITH(lifecycle_action_from_json({{"action", "unlink"}, {"key", "a"}, {"into", "b"}, {"relation", "Is:A"}}),
                      Catch::Contains("'relation'"));

    CHECK(lifecycle_action_from_json({{"action", "move"}, {"key", "a"}, {"tier", "short"}}).tier == "short");
    CHECK_THROWS_WITH(lifecycle_action_from_json({{"action", "move"}, {"key", "a"}, {"tier", "mid"}}), Catch::Contains("'tier'"));
    CHECK(lifecycle_action_from_json({{"action", "pin"}, {"key", "a"}}).kind == LifecycleAction::Kind::pin);
    CHECK(lifecycle_action_from_json({{"action", "unpin"}, {"key", "a"}}).kind == LifecycleAction::Kind::unpin);
}

TEST_CASE("plugin settings arrive as a property tree with typed lookups", "[sdk][settings]") {
    const Settings settings = settings_from_json(
        R"({"threshold": 0.5, "enabled": true, "limits": {"short_days": 7}, "cues": {"en": ["always", "never"]}})");
    CHECK(settings.get<double>("threshold") == Approx(0.5));
    CHECK(settings.get<bool>("enabled"));
    CHECK(settings.get<int>("limits.short_days") == 7);
    CHECK(settings.get<int>("limits.long_days", 60) == 60);
    CHECK(get_string_list(settings, "cues.en") == std::vector<std::string>{"always", "never"});
    CHECK(get_string_list(settings, "cues.de").empty());
    CHECK_THROWS_AS(settings_from_json("[1, 2]"), std::invalid_argument);
    CHECK_THROWS_AS(settings_from_json("{not json"), std::invalid_argument);
    CHECK(settings_from_json("").empty());
}

TEST_CASE("number and flag settings are read without iostreams, and a mistyped one is an error naming it",
          "[sdk][settings]") {
    const Settings settings = settings_from_json(
        R"({"k1": 1.2, "tiny": 1e-06, "documents": 5, "negative": -3, "stem": false, "fields": {"body": 0.75},)"
        R"( "word": "many", "half": 2.5, "flag": "yes", "empty": ""})");
    CHECK(starling::sdk::get_number(settings, "k1", 0.0) == 1.2);
    CHECK(starling::sdk::get_number(settings, "tiny", 0.0) == 1e-06);
    CHECK(starling::sdk::get_number(settings, "fields.body", 0.0) == 0.75);
    CHECK(starling::sdk::get_number(settings, "documents", 0) == 5);
    CHECK(starling::sdk::get_number(settings, "negative", 0) == -3);
    CHECK(starling::sdk::get_number(settings, "absent", 7) == 7);
    CHECK(starling::sdk::get_number(settings, "fields.absent", 0.5) == 0.5);
    CHECK_FALSE(starling::sdk::get_flag(settings, "stem", true));
    CHECK(starling::sdk::get_flag(settings, "absent", true));
    CHECK_THROWS_WITH(starling::sdk::get_number(settings, "word", 1.0),
                      "setting 'word' must be a number, got 'many'");
    CHECK_THROWS_WITH(starling::sdk::get_number(settings, "half", 1),
                      "setting 'half' must be a whole number, got '2.5'");
    CHECK_THROWS_WITH(starling::sdk::get_number(settings, "empty", 1.0), "setting 'empty' must be a number, got ''");
    CHECK_THROWS_WITH(starling::sdk::get_number(settings, "stem", 1.0), "setting 'stem' must be a number, got 'false'");
    CHECK_THROWS_WITH(starling::sdk::get_flag(settings, "flag", false),
                      "setting 'flag' must be true or false, got 'yes'");
    CHECK_THROWS_WITH(starling::sdk::get_flag(settings, "k1", false), "setting 'k1' must be true or false, got '1.2'");
}
