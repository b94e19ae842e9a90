// SPDX-License-Identifier: Apache-2.0
// The folder rules of docs/architecture.md, checked on the source tree: what each folder may include,
// and that core knows no agent. A rule that is only written down is broken by the next change.
#include <starling/plugins/plugin_registry.hpp>
#include <starling/plugins/static_plugins.hpp>

#include "support/quiet_logger.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kSource{STARLING_SOURCE_DIR};
const fs::path kBinary{STARLING_BINARY_DIR};

/// What the files under one folder may include: headers that resolve, as the compiler resolves
/// them, to files under one of `allowed` (folders of the source tree; what the build generates
/// for a folder counts as that folder's). Headers outside the source tree (the system's, Boost's)
/// are not the rule's business.
struct FolderRule {
    fs::path folder;
    std::vector<fs::path> allowed;
};

struct Violation {
    fs::path file;
    std::size_t line = 0;
    std::string include;
    fs::path resolved;
};

/// Where the compiler looks for a file's includes: `"…"` in the file's folder, then the quote
/// paths, then the angle paths; `<…>` in the angle paths only.
struct SearchPaths {
    std::vector<fs::path> quote;
    std::vector<fs::path> angle;
};

std::string text_of(const fs::path &file) {
    std::ifstream in{file, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

bool is_source(const fs::path &file) {
    static const std::set<std::string> extensions{".c", ".cpp", ".h", ".hpp", ".in"};
    return extensions.count(file.extension().string()) == 1;
}

std::vector<fs::path> sources_under(const fs::path &folder) {
    std::vector<fs::path> files;
    for (const auto &entry : fs::recursive_directory_iterator{folder}) {
        if (entry.is_regular_file() && is_source(entry.path())) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool inside(const fs::path &file, const fs::path &folder) {
    const auto relative = file.lexically_normal().lexically_relative(folder.lexically_normal());
    return !relative.empty() && *relative.begin() != "..";
}

/// The search paths of one compile command's `-I`, `-iquote` and `-isystem` flags.
SearchPaths search_paths_of(const std::string &command) {
    std::istringstream words{command};
    std::vector<std::string> arguments{std::istream_iterator<std::string>{words}, std::istream_iterator<std::string>{}};
    SearchPaths paths;
    for (std::size_t index = 0; index < arguments.size(); ++index) {
        const std::string &argument = arguments[index];
        for (const std::string flag : {"-iquote", "-isystem", "-I"}) {
            if (argument.rfind(flag, 0) != 0) {
                continue;
            }
            std::string value = argument.substr(flag.size());
            if (value.empty() && index + 1 < arguments.size()) {
                value = arguments[++index];
            }
            (flag == "-iquote" ? paths.quote : paths.angle).push_back(fs::path{value}.lexically_normal());
            break;
        }
    }
    return paths;
}

/// The search paths of every compiled file, from the build's compile_commands.json.
const std::map<fs::path, SearchPaths> &compiled_files() {
    static const std::map<fs::path, SearchPaths> files = [] {
        std::map<fs::path, SearchPaths> found;
        const auto commands = nlohmann::json::parse(text_of(kBinary / "compile_commands.json"));
        for (const auto &entry : commands) {
            found.emplace(fs::path{entry.at("file").get<std::string>()}.lexically_normal(),
                          search_paths_of(entry.at("command").get<std::string>()));
        }
        return found;
    }();
    return files;
}

/// How the compiler searches `file`'s includes: its own compile command, or for a header (never
/// compiled alone) that of a compiled file in its folder or the nearest folder above.
SearchPaths search_paths_for(const fs::path &file) {
    const auto &compiled = compiled_files();
    if (const auto found = compiled.find(file.lexically_normal()); found != compiled.end()) {
        return found->second;
    }
    for (auto folder = file.parent_path(); inside(folder, kSource) || folder == kSource; folder = folder.parent_path()) {
        for (const auto &[source, paths] : compiled) {
            if (source.parent_path() == folder) {
                return paths;
            }
        }
        if (folder == kSource) {
            break;
        }
    }
    return {};
}

/// The file `target` names, found as the compiler finds it; nothing when it is outside every
/// search path (a system header).
std::optional<fs::path> resolve(const fs::path &file, bool quoted, const std::string &target,
                                const SearchPaths &paths) {
    std::vector<fs::path> folders;
    if (quoted) {
        folders.push_back(file.parent_path());
        folders.insert(folders.end(), paths.quote.begin(), paths.quote.end());
    }
    folders.insert(folders.end(), paths.angle.begin(), paths.angle.end());
    for (const auto &folder : folders) {
        const auto candidate = (folder / target).lexically_normal();
        if (fs::is_regular_file(candidate)) {
            return candidate;
        }
    }
    return std::nullopt;
}

/// A generated file counts as the source folder's it was generated for.
fs::path as_source_path(const fs::path &file) {
    return inside(file, kBinary) ? kSource / file.lexically_relative(kBinary) : file;
}

/// Every include of `text` (a file at `file`, searched with `paths`) that `rule` does not allow.
std::vector<Violation> violations_in(const fs::path &file, const std::string &text, const FolderRule &rule,
                                     const SearchPaths &paths) {
    static const std::regex include{R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])"};
    std::vector<Violation> found;
    std::size_t line_number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, end - start);
        ++line_number;
        start = end + 1;
        std::smatch match;
        if (!std::regex_search(line, match, include)) {
            continue;
        }
        const std::string target = match[2];
        const auto resolved = resolve(file, match[1] == "\"", target, paths);
        if (!resolved) {
            continue;
        }
        const auto owner = as_source_path(*resolved);
        if (!inside(owner, kSource)) {
            continue;
        }
        const bool allowed = std::any_of(rule.allowed.begin(), rule.allowed.end(),
                                         [&](const fs::path &folder) { return inside(owner, folder); });
        if (!allowed) {
            found.push_back({file, line_number, target, owner});
        }
    }
    return found;
}

std::vector<Violation> violations_of(const FolderRule &rule) {
    std::vector<Violation> found;
    for (const auto &file : sources_under(rule.folder)) {
        const auto more = violations_in(file, text_of(file), rule, search_paths_for(file));
        found.insert(found.end(), more.begin(), more.end());
    }
    return found;
}

std::string describe(const std::vector<Violation> &violations) {
    std::string text;
    for (const auto &violation : violations) {
        text += violation.file.lexically_relative(kSource).string() + ":" + std::to_string(violation.line) +
                " includes " + violation.include + " (" + violation.resolved.lexically_relative(kSource).string() +
                ")\n";
    }
    return text;
}

/// Whether a folder's CMakeLists.txt builds a plugin (or a module of several).
bool builds_a_plugin(const fs::path &folder) {
    static const std::regex call{R"((^|\n)\s*starling_add_plugin\()"};
    return fs::is_regular_file(folder / "CMakeLists.txt") && std::regex_search(text_of(folder / "CMakeLists.txt"), call);
}

/// The plugin folders under `root` (policies/ or adapters/) at any depth, and the shared libraries
/// of its plugins: the folders right under `root` that neither build a plugin nor hold one.
void plugin_folders(const fs::path &root, std::vector<fs::path> &plugins, std::vector<fs::path> &shared) {
    for (const auto &entry : fs::recursive_directory_iterator{root}) {
        if (entry.is_directory() && builds_a_plugin(entry.path())) {
            plugins.push_back(entry.path());
        }
    }
    for (const auto &entry : fs::directory_iterator{root}) {
        const bool holds_a_plugin = std::any_of(plugins.begin(), plugins.end(), [&](const fs::path &plugin) {
            return plugin == entry.path() || inside(plugin, entry.path());
        });
        if (entry.is_directory() && !holds_a_plugin) {
            shared.push_back(entry.path());
        }
    }
}

/// One rule per plugin folder: a plugin includes the SDK, its own files (and those the build
/// generates for it), and the shared libraries of its tree (policies/cache-files, adapters/common) —
/// never another plugin's files. A shared library includes the SDK and itself.
std::vector<FolderRule> plugin_rules() {
    std::vector<FolderRule> rules;
    for (const auto &tree : {"policies", "adapters"}) {
        std::vector<fs::path> plugins;
        std::vector<fs::path> shared;
        plugin_folders(kSource / tree, plugins, shared);
        for (const auto &plugin : plugins) {
            std::vector<fs::path> allowed{kSource / "sdk", plugin};
            allowed.insert(allowed.end(), shared.begin(), shared.end());
            rules.push_back({plugin, std::move(allowed)});
        }
        for (const auto &library : shared) {
            rules.push_back({library, {kSource / "sdk", library}});
        }
    }
    return rules;
}

} // namespace

/// Core's layers, bottom first: each uses only itself and those before it (and the SDK). Two rules
/// per layer, for its public headers and its sources.
std::vector<FolderRule> core_layer_rules() {
    static const std::vector<std::string> layers{"io",          "redaction", "config", "store/record",
                                                 "store/index", "store",     "bus",    "lifecycle"};
    std::vector<FolderRule> rules;
    std::vector<fs::path> below{kSource / "sdk"};
    for (const auto &layer : layers) {
        const auto headers = kSource / "core" / "include" / "starling" / "core" / layer;
        const auto sources = kSource / "core" / "src" / layer;
        below.push_back(headers);
        below.push_back(sources);
        rules.push_back({headers, below});
        rules.push_back({sources, below});
    }
    return rules;
}

TEST_CASE("each folder includes only what docs/architecture.md allows it", "[architecture]") {
    std::vector<FolderRule> rules{
        {kSource / "sdk", {kSource / "sdk"}},
        {kSource / "core", {kSource / "sdk", kSource / "core"}},
        {kSource / "plugins", {kSource / "sdk", kSource / "core", kSource / "plugins"}},
        {kSource / "apps", {kSource / "sdk", kSource / "core", kSource / "plugins", kSource / "apps"}},
        {kSource / "bench",
         {kSource / "sdk", kSource / "core", kSource / "plugins", kSource / "apps" / "application", kSource / "bench"}},
    };
    const auto layers = core_layer_rules();
    rules.insert(rules.end(), layers.begin(), layers.end());
    for (const auto &rule : rules) {
        INFO(rule.folder.lexically_relative(kSource).string());
        const auto violations = violations_of(rule);
        INFO(describe(violations));
        CHECK(violations.empty());
    }
    const auto per_plugin = plugin_rules();
    CHECK(per_plugin.size() >= 15);
    for (const auto &rule : per_plugin) {
        INFO(rule.folder.lexically_relative(kSource).string());
        const auto violations = violations_of(rule);
        INFO(describe(violations));
        CHECK(violations.empty());
    }
}

TEST_CASE("the include check resolves includes as the compiler does and catches what it is there to catch",
          "[architecture]") {
    const FolderRule core{kSource / "core", {kSource / "sdk", kSource / "core"}};
    const auto file = kSource / "core" / "src" / "store" / "example.cpp";
    const SearchPaths core_paths{{}, {kSource / "core" / "include", kSource / "sdk" / "include", kSource / "plugins" / "include", kSource}};
    const auto found = violations_in(file,
                                     "#include <starling/core/store/record/memory.hpp>\n"
                                     "#include <starling/sdk/abi.h>\n"
                                     "#include <nlohmann/json.hpp>\n"
                                     "  #  include <starling/plugins/plugin_registry.hpp>\n"
                                     "#include \"memory_files.hpp\"\n"
                                     "#include \"../../../adapters/common/include/starling/adapters/text.hpp\"\n"
                                     "#include \"apps/starling/main.cpp\"\n",
                                     core, core_paths);
    REQUIRE(found.size() == 3);
    CHECK(found[0].line == 4);
    CHECK(found[0].include == "starling/plugins/plugin_registry.hpp");
    CHECK(found[1].line == 6);
    CHECK(found[2].line == 7); // found through -I at the source root, as the compiler would

    // A policy including another policy's header through an include path it shares with it.
    const auto rules = plugin_rules();
    const auto bm25 = std::find_if(rules.begin(), rules.end(), [](const FolderRule &rule) {
        return rule.folder.filename() == "bm25";
    });
    REQUIRE(bm25 != rules.end());
    const auto bm25_file = bm25->folder / "x.cpp";
    const SearchPaths policy_paths{{}, {kSource / "sdk" / "include", kSource / "policies", bm25->folder.parent_path()}};
    const auto planted = violations_in(bm25_file,
                                       "#include <starling/core/store/record/memory.hpp>\n"
                                       "#include \"collie/collie-tree/cue_pattern.hpp\"\n"
                                       "#include \"cache-files/text_hash.hpp\"\n"
                                       "#include \"tokenizer.hpp\"\n",
                                       *bm25, policy_paths);
    REQUIRE(planted.size() == 1);
    CHECK(planted[0].include == "collie/collie-tree/cue_pattern.hpp");
    CHECK(violations_in(bm25_file, "#include \"../../collie/collie-tree/cue_pattern.hpp\"\n", *bm25, policy_paths)
              .size() == 1);
}

TEST_CASE("core names no agent: everything agent-specific is declared by an adapter", "[architecture]") {
    // The agents Starling ships adapters for; an adapter of a new agent adds its own name there.
    static const std::regex agent_name{R"((^|[^a-z])(claude|cursor|codex|codeflicker)([^a-z]|$))"};
    std::string mentions;
    for (const auto &file : sources_under(kSource / "core")) {
        std::string text = text_of(file);
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::smatch match;
        if (std::regex_search(text, match, agent_name)) {
            mentions += file.lexically_relative(kSource).string() + " names " + match[2].str() + "\n";
        }
    }
    INFO(mentions);
    CHECK(mentions.empty());
}

TEST_CASE("the include check holds core's layers: a lower layer including a higher one is caught", "[architecture]") {
    const auto rules = core_layer_rules();
    const auto rule_for = [&](const fs::path &folder) {
        return *std::find_if(rules.begin(), rules.end(), [&](const FolderRule &rule) { return rule.folder == folder; });
    };
    const SearchPaths core_paths{{}, {kSource / "core" / "include", kSource / "core" / "src", kSource / "sdk" / "include"}};
    const auto io_file = kSource / "core" / "src" / "io" / "example.cpp";
    const auto io_rule = rule_for(kSource / "core" / "src" / "io");
    CHECK(violations_in(io_file, "#include <starling/core/io/file_io.hpp>\n", io_rule, core_paths).empty());
    CHECK(violations_in(io_file, "#include <starling/core/store/memory_store.hpp>\n", io_rule, core_paths).size() == 1);
    CHECK(violations_in(io_file, "#include \"store/index/machine_index.hpp\"\n", io_rule, core_paths).size() == 1);

    const auto record_file = kSource / "core" / "src" / "store" / "record" / "example.cpp";
    const auto record_rule = rule_for(kSource / "core" / "src" / "store" / "record");
    CHECK(violations_in(record_file, "#include <starling/core/redaction/redaction.hpp>\n", record_rule, core_paths).empty());
    CHECK(violations_in(record_file, "#include <starling/core/store/index/index_entry.hpp>\n", record_rule, core_paths)
              .size() == 1);
    CHECK(violations_in(record_file, "#include <starling/core/bus/event_bus.hpp>\n", record_rule, core_paths).size() == 1);
}

TEST_CASE("policies/README.md lists every policy with its kind, in its family's folder", "[architecture]") {
    starling::plugins::PluginRegistry registry{starling::test::quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    // | [`id`](family/folder/) | kind | family | profiles | what |
    static const std::regex row{R"(^\| \[`([a-z0-9-]+)`\]\(([a-z-]+)/([a-z0-9-]+)/\) \| ([a-z]+) \| ([a-z-]+) \|)"};
    const std::string readme = text_of(kSource / "policies" / "README.md");
    std::set<std::string> listed;
    std::istringstream lines{readme};
    for (std::string line; std::getline(lines, line);) {
        std::smatch match;
        if (!std::regex_search(line, match, row)) {
            continue;
        }
        INFO(line);
        const std::string id = match[1];
        listed.insert(id);
        CHECK(match[2] == match[5]); // the folder's family is the family column
        CHECK(builds_a_plugin(kSource / "policies" / match[2].str() / match[3].str()));
        const auto *info = registry.find(id);
        REQUIRE(info != nullptr);
        CHECK(starling::plugins::kind_name(info->kind) == match[4].str());
    }
    for (const auto &info : registry.plugins()) {
        if (info.kind != STARLING_KIND_ADAPTER) {
            INFO(info.id);
            CHECK(listed.count(info.id) == 1);
        }
    }
    CHECK(listed.size() >= 13);
}

TEST_CASE("no test name holds a semicolon, which CTest would cut there and then run nothing", "[architecture]") {
    // catch_discover_tests hands each name to CTest as a list element: a name with `;` becomes a
    // filter that matches no test case, and the test "passes" without running.
    const std::regex test_case{R"re(TEST_CASE\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+))re"};
    std::vector<std::string> offenders;
    for (const auto &entry : fs::recursive_directory_iterator(kSource / "tests")) {
        if (entry.path().extension() != ".cpp") {
            continue;
        }
        std::ifstream in{entry.path()};
        const std::string text{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
        for (auto match = std::sregex_iterator(text.begin(), text.end(), test_case); match != std::sregex_iterator();
             ++match) {
            if ((*match)[1].str().find(';') != std::string::npos) {
                offenders.push_back(entry.path().lexically_relative(kSource).string() + ": " + (*match)[1].str());
            }
        }
    }
    for (const auto &offender : offenders) {
        UNSCOPED_INFO(offender);
    }
    CHECK(offenders.empty());
}

TEST_CASE("every relative link of the Markdown documents resolves inside the repository", "[architecture][docs]") {
    // A reader follows a link from the repository they cloned: a link into a file that is not in it
    // (notes on the author's machine, a renamed page) is a dead end.
    const std::regex link{R"re(\]\(([^)\s]+)\))re"};
    const std::regex scheme{R"re(^[a-z][a-z0-9+.-]*:)re"};
    const std::regex fence{"```[\\s\\S]*?```"};
    std::vector<std::string> broken;
    std::size_t checked = 0;
    for (auto entry = fs::recursive_directory_iterator(kSource); entry != fs::recursive_directory_iterator();
         ++entry) {
        const auto name = entry->path().filename().string();
        if (entry->is_directory() && (name.starts_with(".") || name.starts_with("build") || name == "node_modules" ||
                                      name == "bench-results" || entry->path() == kBinary)) {
            entry.disable_recursion_pending();
            continue;
        }
        if (entry->path().extension() != ".md") {
            continue;
        }
        const std::string text = std::regex_replace(text_of(entry->path()), fence, "");
        if (text.find("/work/shared") != std::string::npos || text.find("shared/reference/") != std::string::npos) {
            broken.push_back(entry->path().lexically_relative(kSource).string() + ": points outside the repository");
        }
        for (auto match = std::sregex_iterator(text.begin(), text.end(), link); match != std::sregex_iterator();
             ++match) {
            const std::string target = (*match)[1].str();
            if (std::regex_search(target, scheme) || target.starts_with("#")) {
                continue;
            }
            ++checked;
            const fs::path resolved = (entry->path().parent_path() / target.substr(0, target.find('#'))).lexically_normal();
            const auto inside = resolved.lexically_relative(kSource);
            if (!fs::exists(resolved) || inside.empty() || *inside.begin() == "..") {
                broken.push_back(entry->path().lexically_relative(kSource).string() + ": " + target);
            }
        }
    }
    for (const auto &link_text : broken) {
        UNSCOPED_INFO(link_text);
    }
    CHECK(broken.empty());
    CHECK(checked > 100);
}
