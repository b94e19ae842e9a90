// SPDX-License-Identifier: Apache-2.0
// Shell words both ways: a quoted word comes back unchanged through the splitter (and through a real
// shell in the e2e install tests), and command lines split as a POSIX shell splits them.
#include <starling/sdk/shell_words.hpp>

#include <catch2/catch.hpp>

using starling::sdk::shell_quote;
using starling::sdk::ShellWord;
using starling::sdk::split_shell_words;

namespace {

std::vector<std::string> texts(const std::optional<std::vector<ShellWord>> &words) {
    std::vector<std::string> out;
    for (const auto &word : words.value()) {
        out.push_back(word.is_operator ? "<" + word.text + ">" : word.text);
    }
    return out;
}

} // namespace

TEST_CASE("a plain word is left as it is and anything else is single-quoted", "[sdk][shell-words]") {
    CHECK(shell_quote("/usr/local/bin/starling-claude") == "/usr/local/bin/starling-claude");
    CHECK(shell_quote("UserPromptSubmit") == "UserPromptSubmit");
    CHECK(shell_quote("/opt/my tools/starling") == "'/opt/my tools/starling'");
    CHECK(shell_quote("it's") == "'it'\\''s'");
    CHECK(shell_quote("") == "''");
    CHECK(shell_quote("$HOME") == "'$HOME'");
}

TEST_CASE("whatever a word holds, quoting it and splitting it again gives it back", "[sdk][shell-words]") {
    for (const std::string word : {"/a b/c", "it's \"quoted\"", "$dir `x` \\n", "tab\there", "semi;colon|pipe&",
                                   "#not a comment", "ünïcödé", "'", "\"", "\\"}) {
        INFO(word);
        const auto split = split_shell_words(shell_quote(word) + " next");
        REQUIRE(split);
        CHECK(texts(split) == std::vector<std::string>{word, "next"});
    }
}

TEST_CASE("a command line splits into words and operators as a shell splits it", "[sdk][shell-words]") {
    CHECK(texts(split_shell_words("cat  notes.md")) == std::vector<std::string>{"cat", "notes.md"});
    CHECK(texts(split_shell_words(R"(sed -n "1,5p" 'my file.md')")) ==
          std::vector<std::string>{"sed", "-n", "1,5p", "my file.md"});
    CHECK(texts(split_shell_words(R"(cat my\ file.md "a \"b\" \$c")")) ==
          std::vector<std::string>{"cat", "my file.md", "a \"b\" $c"});
    CHECK(texts(split_shell_words("cd /x && cat a.md | head -n 5; echo done")) ==
          std::vector<std::string>{"cd", "/x", "<&&>", "cat", "a.md", "<|>", "head", "-n", "5", "<;>", "echo", "done"});
    CHECK(texts(split_shell_words("cat a.md 2>/dev/null >out")) ==
          std::vector<std::string>{"cat", "a.md", "<2>>", "/dev/null", "<>>", "out"});
    CHECK(texts(split_shell_words("cat a.md # a comment")) == std::vector<std::string>{"cat", "a.md"});
    CHECK(texts(split_shell_words("")).empty());
}

TEST_CASE("an unterminated quote is no command line", "[sdk][shell-words]") {
    CHECK_FALSE(split_shell_words("cat 'a.md"));
    CHECK_FALSE(split_shell_words("cat \"a.md"));
}
