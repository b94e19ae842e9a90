// SPDX-License-Identifier: Apache-2.0
// The folder rules of docs/architecture.md, checked on the source tree: what each folder may include,
// and that core knows no agent. A rule that is only written down is broken by the next change.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kSource{STARLING_SOURCE_DIR};

/// What the files under one folder may include: `<starling/<component>/…>` headers of the listed
/// components, and quoted headers that stay inside `quoted_root` (a folder of the source tree).
struct FolderRule {
    fs::path folder;
    std::set<std::string> components;
    fs::path quoted_root;
};

struct Violation {
    fs::path file;
    std::size_t line = 0;
    std::string include;
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
    const auto relative = fs::weakly_canonical(file).lexically_relative(fs::weakly_canonical(folder));
    return !relative.empty() && *relative.begin() != "..";
}

/// Every include of `text` (a file at `file`) that `rule` does not allow.
std::vector<Violation> violations_in(const fs::path &file, const std::string &text, const FolderRule &rule) {
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
        bool allowed = true;
        if (match[1] == "\"") {
            allowed = inside(file.parent_path() / target, rule.quoted_root);
        } else if (target.rfind("starling/", 0) == 0) {
            const auto component = target.substr(9, target.find('/', 9) - 9);
            allowed = rule.components.count(component) == 1;
        }
        if (!allowed) {
            found.push_back({file, line_number, target});
        }
    }
    return found;
}

std::vector<Violation> violations_of(const FolderRule &rule) {
    std::vector<Violation> found;
    for (const auto &file : sources_under(rule.folder)) {
        const auto more = violations_in(file, text_of(file), rule);
        found.insert(found.end(), more.begin(), more.end());
    }
    return found;
}

std::string describe(const std::vector<Violation> &violations) {
    std::string text;
    for (const auto &violation : violations) {
        text += violation.file.lexically_relative(kSource).string() + ":" + std::to_string(violation.line) +
                " includes " + violation.include + "\n";
    }
    return text;
}

/// One rule per plugin folder: a plugin includes the SDK and its own files — those it generates at
/// build time included, as <starling/<its id, '-' as '_'>/…> — nothing else (adapters may share
/// adapters/common).
std::vector<FolderRule> plugin_rules() {
    std::vector<FolderRule> rules;
    for (const auto &kind : {"policies", "adapters"}) {
        for (const auto &entry : fs::directory_iterator{kSource / kind}) {
            if (!entry.is_directory()) {
                continue;
            }
            std::string own = entry.path().filename().string();
            std::replace(own.begin(), own.end(), '-', '_');
            std::set<std::string> components{"sdk", own};
            if (std::string{kind} == "adapters") {
                components.insert("adapters");
            }
            rules.push_back({entry.path(), std::move(components), entry.path()});
        }
    }
    return rules;
}

} // namespace

TEST_CASE("each folder includes only what docs/architecture.md allows it", "[architecture]") {
    const std::vector<FolderRule> rules{
        {kSource / "sdk", {"sdk"}, kSource / "sdk"},
        {kSource / "core", {"sdk", "core"}, kSource / "core"},
        {kSource / "plugins", {"sdk", "core", "plugins"}, kSource / "plugins"},
        {kSource / "apps", {"sdk", "core", "plugins", "app"}, kSource / "apps"},
        {kSource / "bench", {"sdk", "core", "plugins", "app"}, kSource / "bench"},
    };
    for (const auto &rule : rules) {
        INFO(rule.folder.lexically_relative(kSource).string());
        const auto violations = violations_of(rule);
        INFO(describe(violations));
        CHECK(violations.empty());
    }
    for (const auto &rule : plugin_rules()) {
        INFO(rule.folder.lexically_relative(kSource).string());
        const auto violations = violations_of(rule);
        INFO(describe(violations));
        CHECK(violations.empty());
    }
}

TEST_CASE("the include check catches what it is there to catch", "[architecture]") {
    const FolderRule core{kSource / "core", {"sdk", "core"}, kSource / "core"};
    const auto file = kSource / "core" / "src" / "store" / "example.cpp";
    const auto found = violations_in(file,
                                     "#include <starling/core/store/memory.hpp>\n"
                                     "#include <starling/sdk/abi.h>\n"
                                     "#include <nlohmann/json.hpp>\n"
                                     "  #  include <starling/plugins/plugin_registry.hpp>\n"
                                     "#include \"store_internals.hpp\"\n"
                                     "#include \"../../../adapters/common/include/starling/adapters/text.hpp\"\n",
                                     core);
    REQUIRE(found.size() == 2);
    CHECK(found[0].line == 4);
    CHECK(found[0].include == "starling/plugins/plugin_registry.hpp");
    CHECK(found[1].line == 6);

    const FolderRule policy{kSource / "policies" / "bm25", {"sdk"}, kSource / "policies" / "bm25"};
    CHECK(violations_in(kSource / "policies" / "bm25" / "x.cpp", "#include <starling/core/store/memory.hpp>\n",
                        policy)
              .size() == 1);
    CHECK(violations_in(kSource / "policies" / "bm25" / "x.cpp", "#include \"../collie-tree/utf8.hpp\"\n", policy)
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
