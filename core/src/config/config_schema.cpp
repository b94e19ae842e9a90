// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_schema.hpp>

#include "config/toml_text.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <type_traits>
#include <utility>

namespace starling::core {
namespace {

// The Config field a row is bound to, named by two member pointers: the section, then the member.
template <auto Section, auto Member>
auto &field_of(Config &config) {
    return (config.*Section).*Member;
}

template <auto Section, auto Member>
const auto &field_of(const Config &config) {
    return (config.*Section).*Member;
}

template <auto Section, auto Member>
using FieldType = std::remove_cvref_t<decltype(field_of<Section, Member>(std::declval<Config &>()))>;

template <auto Section, auto Member>
void assign_string(Config &config, const ConfigKey &, const ConfigValue &value, const ConfigEnvironment &,
                   const std::filesystem::path &) {
    field_of<Section, Member>(config) = std::get<std::string>(value);
}

template <auto Section, auto Member>
ConfigValue read_string(const Config &config, const ConfigKey &) {
    return field_of<Section, Member>(config);
}

template <auto Section, auto Member>
void assign_path(Config &config, const ConfigKey &, const ConfigValue &value, const ConfigEnvironment &environment,
                 const std::filesystem::path &relative_to) {
    field_of<Section, Member>(config) = expand_config_path(std::get<std::string>(value), environment, relative_to);
}

template <auto Section, auto Member>
ConfigValue read_path(const Config &config, const ConfigKey &) {
    return field_of<Section, Member>(config).string();
}

template <auto Section, auto Member>
void assign_path_list(Config &config, const ConfigKey &, const ConfigValue &value,
                      const ConfigEnvironment &environment, const std::filesystem::path &relative_to) {
    std::vector<std::filesystem::path> paths;
    for (const auto &written : std::get<std::vector<std::string>>(value)) {
        paths.push_back(expand_config_path(written, environment, relative_to));
    }
    field_of<Section, Member>(config) = std::move(paths);
}

template <auto Section, auto Member>
ConfigValue read_path_list(const Config &config, const ConfigKey &) {
    std::vector<std::string> written;
    for (const auto &path : field_of<Section, Member>(config)) {
        written.push_back(path.string());
    }
    return written;
}

/// Integers, numbers and booleans are stored as the TOML reader produced them.
template <auto Section, auto Member, typename Value>
void assign_plain(Config &config, const ConfigKey &, const ConfigValue &value, const ConfigEnvironment &,
                  const std::filesystem::path &) {
    field_of<Section, Member>(config) = std::get<Value>(value);
}

template <auto Section, auto Member>
ConfigValue read_plain(const Config &config, const ConfigKey &) {
    return field_of<Section, Member>(config);
}

template <auto Section, auto Member>
void assign_choice(Config &config, const ConfigKey &key, const ConfigValue &value, const ConfigEnvironment &,
                   const std::filesystem::path &) {
    const auto chosen = std::find(key.choices.begin(), key.choices.end(), std::get<std::string>(value));
    field_of<Section, Member>(config) =
        static_cast<FieldType<Section, Member>>(std::distance(key.choices.begin(), chosen));
}

template <auto Section, auto Member>
ConfigValue read_choice(const Config &config, const ConfigKey &key) {
    return std::string{key.choices.at(static_cast<std::size_t>(field_of<Section, Member>(config)))};
}

struct IntegerRange {
    std::int64_t minimum = std::numeric_limits<std::int64_t>::min();
    std::int64_t maximum = std::numeric_limits<std::int64_t>::max();
};

constexpr IntegerRange at_least(std::int64_t minimum) {
    IntegerRange range;
    range.minimum = minimum;
    return range;
}

constexpr IntegerRange between(std::int64_t minimum, std::int64_t maximum) { return {minimum, maximum}; }

/// Inclusive bounds of a `number` key; an infinite bound is no bound.
struct NumberRange {
    double minimum = -std::numeric_limits<double>::infinity();
    double maximum = std::numeric_limits<double>::infinity();
};

constexpr NumberRange number_at_least(double minimum) {
    NumberRange range;
    range.minimum = minimum;
    return range;
}

constexpr NumberRange number_between(double minimum, double maximum) {
    return {minimum, maximum};
}

ConfigKey make_key(std::string_view name, ConfigValueKind kind, ConfigValue default_value,
                   std::string_view description, ConfigKey::Assign assign, ConfigKey::Read read) {
    ConfigKey key;
    key.name = name;
    key.kind = kind;
    key.default_value = std::move(default_value);
    key.description = description;
    key.assign = assign;
    key.read = read;
    return key;
}

template <auto Section, auto Member>
ConfigKey string_key(std::string_view name, std::string default_value, std::string_view description) {
    static_assert(std::is_same_v<FieldType<Section, Member>, std::string>);
    return make_key(name, ConfigValueKind::string, std::move(default_value), description,
                    &assign_string<Section, Member>, &read_string<Section, Member>);
}

/// A string naming the plugin of `plugin_kind` that is active; "" for none.
template <auto Section, auto Member>
ConfigKey plugin_key(std::string_view name, std::string default_value, starling_plugin_kind plugin_kind,
                     std::string_view description) {
    ConfigKey key = string_key<Section, Member>(name, std::move(default_value), description);
    key.plugin_kind = plugin_kind;
    return key;
}

template <auto Section, auto Member>
ConfigKey path_key(std::string_view name, std::string default_value, std::string_view description) {
    static_assert(std::is_same_v<FieldType<Section, Member>, std::filesystem::path>);
    return make_key(name, ConfigValueKind::path, std::move(default_value), description,
                    &assign_path<Section, Member>, &read_path<Section, Member>);
}

template <auto Section, auto Member>
ConfigKey path_list_key(std::string_view name, std::vector<std::string> default_value,
                        std::string_view description) {
    static_assert(std::is_same_v<FieldType<Section, Member>, std::vector<std::filesystem::path>>);
    return make_key(name, ConfigValueKind::path_list, std::move(default_value), description,
                    &assign_path_list<Section, Member>, &read_path_list<Section, Member>);
}

template <auto Section, auto Member>
ConfigKey integer_key(std::string_view name, std::int64_t default_value, IntegerRange range,
                      std::string_view description) {
    static_assert(std::is_same_v<FieldType<Section, Member>, std::int64_t>);
    ConfigKey key = make_key(name, ConfigValueKind::integer, default_value, description,
                             &assign_plain<Section, Member, std::int64_t>, &read_plain<Section, Member>);
    key.minimum = range.minimum;
    key.maximum = range.maximum;
    return key;
}

template <auto Section, auto Member>
ConfigKey number_key(std::string_view name, double default_value, NumberRange range, std::string_view description) {
    static_assert(std::is_same_v<FieldType<Section, Member>, double>);
    ConfigKey key = make_key(name, ConfigValueKind::number, default_value, description,
                             &assign_plain<Section, Member, double>, &read_plain<Section, Member>);
    key.number_minimum = range.minimum;
    key.number_maximum = range.maximum;
    return key;
}

template <auto Section, auto Member>
ConfigKey boolean_key(std::string_view name, bool default_value, std::string_view description) {
    static_assert(std::is_same_v<FieldType<Section, Member>, bool>);
    return make_key(name, ConfigValueKind::boolean, default_value, description, &assign_plain<Section, Member, bool>,
                    &read_plain<Section, Member>);
}

template <auto Section, auto Member>
ConfigKey pattern_list_key(std::string_view name, std::string_view description) {
    static_assert(std::is_same_v<FieldType<Section, Member>, std::vector<std::string>>);
    return make_key(name, ConfigValueKind::pattern_list, std::vector<std::string>{}, description,
                    &assign_plain<Section, Member, std::vector<std::string>>, &read_plain<Section, Member>);
}

/// `choices` lists the field's enumerators by name, in the order of their values 0, 1, 2...
template <auto Section, auto Member>
ConfigKey choice_key(std::string_view name, std::string default_value, std::vector<std::string_view> choices,
                     std::string_view description) {
    static_assert(std::is_integral_v<FieldType<Section, Member>> || std::is_enum_v<FieldType<Section, Member>>);
    ConfigKey key = make_key(name, ConfigValueKind::choice, std::move(default_value), description,
                             &assign_choice<Section, Member>, &read_choice<Section, Member>);
    key.choices = std::move(choices);
    return key;
}

// The log.level row names LogLevel's enumerators by their values.
static_assert(static_cast<int>(LogLevel::debug) == 0 && static_cast<int>(LogLevel::info) == 1 &&
              static_cast<int>(LogLevel::warning) == 2 && static_cast<int>(LogLevel::error) == 3);

std::vector<ConfigKey> build_schema() {
    return {
        path_key<&Config::store, &StoreConfig::root>("store.root", "$STARLING_HOME",
            "Directory holding memory/, sessions/ and archive/."),
        path_list_key<&Config::plugins, &PluginsConfig::directories>("plugins.directories",
            {"$STARLING_HOME/plugins"}, "Directories searched, in order, for plugin modules (starling-<id>.so)."),
        integer_key<&Config::plugins, &PluginsConfig::call_budget_ms>("plugins.call_budget_ms", 60000,
            between(100, 86'400'000),
            "Longest one plugin call may run outside a hook's reply (a hook's background work, a starling "
            "command), in milliseconds; a call that overruns ends its process, naming the plugin in the log."),
        plugin_key<&Config::policies, &PoliciesConfig::decision>("policies.decision", "collie-tree",
            STARLING_KIND_DECISION_POLICY,
            "Plugin id of the decision policy (which messages become memories); \"\" for none."),
        plugin_key<&Config::policies, &PoliciesConfig::decay>("policies.decay", "collie-tiers",
            STARLING_KIND_DECAY_POLICY,
            "Plugin id of the decay policy (what to review, promote, merge, forget); \"\" for none."),
        plugin_key<&Config::policies, &PoliciesConfig::relevance>("policies.relevance", "bm25",
            STARLING_KIND_RELEVANCE_POLICY,
            "Plugin id of the relevance policy (which memories answer a query); \"\" for none."),
        integer_key<&Config::capture, &CaptureConfig::review_every>("capture.review_every", 20, at_least(0),
            "Every this many user messages of a session, the model is asked to review them with the decision "
            "tree; 0 never asks."),
        boolean_key<&Config::capture, &CaptureConfig::on_stop>("capture.on_stop", true,
            "Run the decision policy over the messages not yet evaluated at compaction, stop and session end."),
        boolean_key<&Config::consolidation, &ConsolidationConfig::enabled>("consolidation.enabled", true,
            "Run the decay policy at session start and at each stop."),
        boolean_key<&Config::hooks, &HooksConfig::background>("hooks.background", true,
            "Run what a hook's reply does not depend on (judging messages at stop, folding noted uses, "
            "consolidation) in a detached process once the agent has its reply; false runs it before the "
            "hook exits, for as long as hooks.budget_ms allows, and what is left then goes on detached."),
        integer_key<&Config::hooks, &HooksConfig::budget_ms>("hooks.budget_ms", 800, between(50, 60000),
            "Longest a hook makes the agent wait, from its start (reading stdin included), in milliseconds: "
            "when a plugin overruns it, crashes or ends the process, the agent gets the safe reply and the log "
            "names the plugin and its call."),
        integer_key<&Config::hooks, &HooksConfig::resident_idle_minutes>("hooks.resident_idle_minutes", 30,
            between(0, 1440),
            "How long the resident process that serves hooks (it keeps the configuration, the plugins and "
            "their indexes loaded, so that a hook costs its start and a round trip) stays up with no hook to "
            "serve, in minutes; 0 runs every hook's event in the hook itself."),
        number_key<&Config::injection, &InjectionConfig::min_relevance>("injection.min_relevance", 0.28,
            number_at_least(0.0),
            "Least relevance of a prompt's best memory for anything to be injected when a prompt is submitted, "
            "on the relevance policy's scale (bm25: 1.0 is a memory matching every word of the prompt fully, "
            "whatever the store's size)."),
        number_key<&Config::injection, &InjectionConfig::relative_relevance>("injection.relative_relevance", 0.4,
            number_between(0.0, 1.0),
            "Once a prompt's best memory clears injection.min_relevance, each other memory is injected when it "
            "scores at least this fraction of the best one's score, if that is below injection.min_relevance; "
            "1 holds every memory to injection.min_relevance."),
        number_key<&Config::injection, &InjectionConfig::question_relevance>("injection.question_relevance", 0.4,
            number_at_least(0.0),
            "A general question - how something works, what tells two things apart, 'explain ...' - that "
            "says nothing of the user's own setup ('our', 'my', 'wir', '我们') is about the world, not about "
            "what the user keeps: it is answered only when its best memory scores at least this by the "
            "question's own words (the relevance policy's first pass, before pseudo-relevance feedback), "
            "and then as any prompt; 0 treats it as any prompt."),
        integer_key<&Config::injection, &InjectionConfig::max_memories>("injection.max_memories", 5, at_least(0),
            "Most memories whose text is injected at once; 0 injects none."),
        boolean_key<&Config::injection, &InjectionConfig::standing_memories>("injection.standing_memories", true,
            "Show at every session start what the user asked to keep: pinned memories and those of type user, "
            "feedback, project or reference, whatever their tier, within budgets.inject_tokens (a line each for "
            "those that do not fit); false shows only the long-term index, as collie did."),
        number_key<&Config::remember, &RememberConfig::duplicate_similarity>("remember.duplicate_similarity", 0.6,
            number_between(0.0, 1.0),
            "The decay policy's similarity (how closely the new text restates a memory) at or above which a "
            "new memory is folded into an existing one instead of being written again."),
        integer_key<&Config::remember, &RememberConfig::duplicate_candidates>("remember.duplicate_candidates", 8,
            at_least(1), "How many of the best relevance candidates a new memory is compared with for duplicates."),
        integer_key<&Config::remember, &RememberConfig::episode_links>("remember.episode_links", 2, at_least(0),
            "How many of the memories stored just before a new one, in the same scope, it is linked with "
            "(relation `episode`), so that what was said around a memory helps find it; 0 links none."),
        integer_key<&Config::remember, &RememberConfig::episode_minutes>("remember.episode_minutes", 30, at_least(1),
            "How recent, in minutes, a memory of the same scope must be to be linked with a new one as its episode."),
        pattern_list_key<&Config::redaction, &RedactionConfig::extra_patterns>("redaction.extra_patterns",
            "ECMAScript regular expressions for secrets of your own, redacted like the built-in formats "
            "before anything is stored; only the first capture group when the pattern has one."),
        string_key<&Config::sync, &SyncConfig::remote>("sync.remote", "",
            "Git URL of your private repository that `starling sync` pushes to and pulls from; \"\" until set."),
        path_list_key<&Config::sync, &SyncConfig::projects>("sync.projects", {},
            "Project directories whose memories `starling sync` carries besides your user memories."),
        path_list_key<&Config::sharing, &SharingConfig::projects>("sharing.projects", {},
            "Project directories whose team folder (.starling/memory/ in the project) Starling keeps up to date "
            "by itself, as `starling share` does: its memories are searched and injected like your own."),
        boolean_key<&Config::sharing, &SharingConfig::propose>("sharing.propose", true,
            "Whether what agents learn about the projects of sharing.projects is also written into their team "
            "folder, for you to review and commit; false only reads the folder."),
        integer_key<&Config::budgets, &BudgetsConfig::inject_tokens>("budgets.inject_tokens", 1500, at_least(0),
            "Most tokens of memory added to an agent's context at once; 0 adds none."),
        integer_key<&Config::budgets, &BudgetsConfig::index_lines>("budgets.index_lines", 200, at_least(1),
            "Most lines of the memory index shown to an agent."),
        choice_key<&Config::log, &LogConfig::level>("log.level", "info", {"debug", "info", "warning", "error"},
            "Least severe message written to Starling's log."),
        path_key<&Config::log, &LogConfig::file>("log.file", "$STARLING_HOME/logs/starling.log",
            "Starling's own log file; agents never see it."),
    };
}

std::string quoted_list(const std::vector<std::string_view> &choices, std::string_view separator) {
    std::string out;
    for (const auto &choice : choices) {
        out += out.empty() ? "" : separator;
        out += toml_string(choice);
    }
    return out;
}

/// Bounds are written as TOML floats, as `config show` writes the values, so `0.0` and never `0`.
std::string describe_number_range(const ConfigKey &key) {
    const bool has_minimum = std::isfinite(key.number_minimum);
    const bool has_maximum = std::isfinite(key.number_maximum);
    if (has_minimum && has_maximum) {
        return "number in [" + toml_float(key.number_minimum) + ", " + toml_float(key.number_maximum) + "]";
    }
    if (has_minimum) {
        return "number >= " + toml_float(key.number_minimum);
    }
    if (has_maximum) {
        return "number <= " + toml_float(key.number_maximum);
    }
    return "number";
}

} // namespace

std::span<const ConfigKey> config_schema() {
    static const std::vector<ConfigKey> schema = build_schema();
    return schema;
}

const ConfigKey *find_config_key(std::string_view name) {
    const auto schema = config_schema();
    const auto found = std::find_if(schema.begin(), schema.end(), [&](const ConfigKey &key) {
        return key.name == name;
    });
    return found == schema.end() ? nullptr : &*found;
}

std::optional<std::string> renamed_key_problem(std::string_view name) {
    if (name == "injection.min_score") {
        return "renamed to injection.min_relevance, on a new scale: bm25's scores are now normalised per prompt "
               "(1.0 is a memory matching every word of the prompt fully), so one threshold holds at any store "
               "size, and a raw score from before means something else there; set injection.min_relevance "
               "instead (default " + toml_float(std::get<double>(find_config_key("injection.min_relevance")->default_value)) +
               ", docs/config.md)";
    }
    return std::nullopt;
}

std::vector<std::string> config_table_names() {
    std::vector<std::string> tables;
    for (const auto &key : config_schema()) {
        if (std::find(tables.begin(), tables.end(), key.table()) == tables.end()) {
            tables.emplace_back(key.table());
        }
    }
    tables.emplace_back(plugin_settings_table);
    return tables;
}

std::string_view expected_value_description(ConfigValueKind kind) {
    switch (kind) {
    case ConfigValueKind::string:
    case ConfigValueKind::path:
    case ConfigValueKind::choice:
        return "a string";
    case ConfigValueKind::path_list:
    case ConfigValueKind::pattern_list:
        return "an array of strings";
    case ConfigValueKind::integer:
        return "an integer";
    case ConfigValueKind::number:
        return "a number";
    case ConfigValueKind::boolean:
        return "a boolean";
    }
    return "a value";
}

std::string describe_type(const ConfigKey &key) {
    switch (key.kind) {
    case ConfigValueKind::boolean:
        return "boolean";
    case ConfigValueKind::number:
        return describe_number_range(key);
    case ConfigValueKind::string:
        return key.plugin_kind == 0 ? "string" : "plugin id (string)";
    case ConfigValueKind::path:
        return "path (string)";
    case ConfigValueKind::path_list:
        return "array of paths (strings)";
    case ConfigValueKind::pattern_list:
        return "array of regular expressions (strings)";
    case ConfigValueKind::choice:
        return "one of " + quoted_list(key.choices, ", ");
    case ConfigValueKind::integer:
        break;
    }
    constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
    constexpr auto highest = std::numeric_limits<std::int64_t>::max();
    if (key.minimum == lowest && key.maximum == highest) {
        return "integer";
    }
    if (key.maximum == highest) {
        return "integer >= " + std::to_string(key.minimum);
    }
    if (key.minimum == lowest) {
        return "integer <= " + std::to_string(key.maximum);
    }
    return "integer " + std::to_string(key.minimum) + ".." + std::to_string(key.maximum);
}

std::optional<std::string> value_problem(const ConfigKey &key, const ConfigValue &value) {
    switch (key.kind) {
    case ConfigValueKind::string:
        return std::nullopt;
    case ConfigValueKind::path:
        if (std::get<std::string>(value).empty()) {
            return "expected a path, got an empty string";
        }
        return std::nullopt;
    case ConfigValueKind::path_list: {
        const auto &items = std::get<std::vector<std::string>>(value);
        for (std::size_t index = 0; index < items.size(); ++index) {
            if (items[index].empty()) {
                return "item " + std::to_string(index + 1) + " is an empty string; expected a path";
            }
        }
        return std::nullopt;
    }
    case ConfigValueKind::pattern_list: {
        const auto &items = std::get<std::vector<std::string>>(value);
        for (std::size_t index = 0; index < items.size(); ++index) {
            if (items[index].empty()) {
                return "item " + std::to_string(index + 1) + " is an empty string; expected a regular expression";
            }
            try {
                static_cast<void>(std::regex{items[index], std::regex::ECMAScript});
            } catch (const std::regex_error &error) {
                return "item " + std::to_string(index + 1) + " (" + toml_string(items[index]) +
                       ") is not a valid ECMAScript regular expression: " + error.what();
            }
        }
        return std::nullopt;
    }
    case ConfigValueKind::integer: {
        const auto number = std::get<std::int64_t>(value);
        if (number < key.minimum) {
            return std::to_string(number) + " is too small; the least allowed value is " +
                   std::to_string(key.minimum);
        }
        if (number > key.maximum) {
            return std::to_string(number) + " is too large; the greatest allowed value is " +
                   std::to_string(key.maximum);
        }
        return std::nullopt;
    }
    case ConfigValueKind::choice: {
        const auto &chosen = std::get<std::string>(value);
        if (std::find(key.choices.begin(), key.choices.end(), chosen) == key.choices.end()) {
            return toml_string(chosen) + " is not allowed; expected one of " + quoted_list(key.choices, ", ");
        }
        return std::nullopt;
    }
    case ConfigValueKind::number: {
        // TOML can write nan and inf; no range check would catch nan, and neither is a useful setting.
        const auto number = std::get<double>(value);
        if (!std::isfinite(number)) {
            return toml_float(number) + " is not allowed; expected a finite number";
        }
        if (number < key.number_minimum) {
            return toml_float(number) + " is too small; the least allowed value is " + toml_float(key.number_minimum);
        }
        if (number > key.number_maximum) {
            return toml_float(number) + " is too large; the greatest allowed value is " +
                   toml_float(key.number_maximum);
        }
        return std::nullopt;
    }
    case ConfigValueKind::boolean:
        return std::nullopt;
    }
    return std::nullopt;
}

std::string toml_literal(const ConfigValue &value) {
    if (const auto *text = std::get_if<std::string>(&value)) {
        return toml_string(*text);
    }
    if (const auto *number = std::get_if<std::int64_t>(&value)) {
        return std::to_string(*number);
    }
    if (const auto *number = std::get_if<double>(&value)) {
        return toml_float(*number);
    }
    if (const auto *flag = std::get_if<bool>(&value)) {
        return *flag ? "true" : "false";
    }
    std::string out = "[";
    for (const auto &item : std::get<std::vector<std::string>>(value)) {
        out += out.size() == 1 ? "" : ", ";
        out += toml_string(item);
    }
    return out + "]";
}

} // namespace starling::core
