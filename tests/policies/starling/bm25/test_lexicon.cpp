// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/lexicon.hpp"
#include "policies/starling/bm25/stop_words.hpp"

#include <starling/bm25/built_in_lexicon_text.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

using starling::bm25::Lexicon;
using starling::bm25::LexiconError;
using starling::bm25::LexiconExpansion;
using starling::bm25::LexiconMember;
using starling::bm25::LexiconWeights;
using starling::bm25::TokenList;
using starling::bm25::Tokenizer;
using starling::bm25::TokenizerOptions;
using starling::bm25::WrittenPlace;

namespace {

Tokenizer default_tokenizer() {
    TokenizerOptions options;
    for (const auto *language : {"en", "de"}) {
        const auto *list = starling::bm25::find_built_in_stop_words(language);
        options.stop_words.insert(options.stop_words.end(), list->words.begin(), list->words.end());
    }
    return Tokenizer{options};
}

/// A lexicon member's terms, made as a query's are when the lexicon looks for phrases in it.
TokenList member_terms(Tokenizer &tokenizer, std::string_view member) {
    TokenList terms;
    tokenizer.tokenize(member, terms, starling::bm25::StopWordHandling::remove, starling::bm25::CamelCaseParts::omit);
    return terms;
}

/// What `query` expands to, as term → weight, the query tokenised as the evaluator tokenises it.
std::vector<LexiconExpansion> expand(const Lexicon &lexicon, Tokenizer &tokenizer, const std::string &query) {
    TokenList tokens;
    tokenizer.tokenize(query, tokens);
    std::vector<std::string> owned;
    for (std::size_t token = 0; token < tokens.size(); ++token) {
        owned.emplace_back(tokens[token]);
    }
    const std::vector<std::string_view> terms(owned.begin(), owned.end());
    std::vector<LexiconExpansion> out;
    lexicon.expand(terms, tokenizer, out);
    return out;
}

/// What `query` expands to, read as the evaluator reads it: with its words and clauses.
std::vector<LexiconExpansion> expand_written(const Lexicon &lexicon, Tokenizer &tokenizer, const std::string &query) {
    TokenList tokens;
    std::vector<WrittenPlace> places;
    starling::bm25::read_written_terms(query, tokenizer, tokens, places);
    REQUIRE(places.size() == tokens.size());
    std::vector<std::string_view> terms;
    for (std::size_t token = 0; token < tokens.size(); ++token) {
        terms.push_back(tokens[token]);
    }
    std::vector<LexiconExpansion> out;
    lexicon.expand(query, terms, places, tokenizer, out);
    return out;
}

/// The one term `word` is made, as a member is.
std::string term_of(Tokenizer &tokenizer, std::string_view word) {
    const auto terms = member_terms(tokenizer, word);
    REQUIRE(terms.size() == 1);
    return std::string{terms[0]};
}

double weight_of(const std::vector<LexiconExpansion> &expansions, const std::string &term) {
    const auto found = std::find_if(expansions.begin(), expansions.end(),
                                    [&](const LexiconExpansion &expansion) { return expansion.term == term; });
    return found == expansions.end() ? 0.0 : found->weight;
}

const char *const kSmall = "# kind | id | broader | members\n"
                           "same | package-manager | - | package manager, Paketmanager\n"
                           "kind | js-package-manager | package-manager | npm, pnpm, yarn\n"
                           "kind | py-package-manager | package-manager | pip, poetry\n"
                           "same | kubernetes | - | kubernetes, k8s\n";

// Phrases whose words are no members themselves: a one-term member (flyway, pnpm, publish) is
// reached only through a phrase.
const char *const kPhrases = "same | migration | - | Flyway, add column\n"
                             "same | package-manager | - | pnpm, install dependencies, Abhängigkeiten installieren, 安装 依赖\n"
                             "same | release | - | publish, cut a release\n";

} // namespace

TEST_CASE("a lexicon relates a tool to its siblings, to what it is, and what it is to its kinds", "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const LexiconWeights weights{1.0, 0.6, 0.5, 0.4};
    const Lexicon lexicon{kSmall, "small.txt", weights};
    CHECK(lexicon.group_count() == 4);

    const auto from_npm = expand(lexicon, tokenizer, "npm install the deps");
    CHECK(weight_of(from_npm, "pnpm") == Approx(0.6));
    CHECK(weight_of(from_npm, "yarn") == Approx(0.6));
    CHECK(weight_of(from_npm, "paketmanag") + weight_of(from_npm, "paketmanager") == Approx(0.5));
    CHECK(weight_of(from_npm, "pip") == 0.0); // another kind of package manager is not a sibling
    CHECK(weight_of(from_npm, "npm") == 0.0); // the query's own term is not added again

    const auto from_phrase = expand(lexicon, tokenizer, "which package manager do we use?");
    CHECK(weight_of(from_phrase, "pnpm") == Approx(0.4));
    CHECK(weight_of(from_phrase, "poetri") + weight_of(from_phrase, "poetry") == Approx(0.4));

    const auto from_words_apart = expand(lexicon, tokenizer, "the manager of the package team");
    CHECK(from_words_apart.empty()); // a phrase is found only as consecutive terms

    const auto from_same = expand(lexicon, tokenizer, "restart the k8s pods");
    CHECK(weight_of(from_same, "kubernet") + weight_of(from_same, "kubernetes") == Approx(1.0));
}

TEST_CASE("an 'each' line brings in what its members are, not one another, and is not brought in by it",
          "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const char *const text = "same | aws | - | AWS, Amazon Web Services\n"
                             "each | aws-service | aws | S3, EC2, DynamoDB\n";
    const Lexicon lexicon{text, "each.txt", LexiconWeights{1.0, 0.6, 0.5, 0.4}};
    const auto from_s3 = expand(lexicon, tokenizer, "create an S3 bucket");
    CHECK(weight_of(from_s3, term_of(tokenizer, "AWS")) == Approx(0.5));
    CHECK(weight_of(from_s3, "ec2") == 0.0); // S3 does not stand in for EC2
    CHECK(weight_of(from_s3, "dynamodb") == 0.0);
    CHECK(expand(lexicon, tokenizer, "how does a NAT gateway work in AWS?").empty()); // nor AWS for S3
}

TEST_CASE("a lexicon expansion names the query's terms that brought it in", "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon lexicon{kSmall, "small.txt", LexiconWeights{1.0, 0.6, 0.5, 0.4}};
    const auto expansions = expand(lexicon, tokenizer, "npm or which package manager");
    const auto sources_of = [&](const std::string &term) {
        const auto found = std::find_if(expansions.begin(), expansions.end(),
                                        [&](const LexiconExpansion &expansion) { return expansion.term == term; });
        REQUIRE(found != expansions.end());
        return found->sources;
    };
    // npm is term 0; "package manager" terms 1 and 2 (or, which: stop words).
    CHECK(sources_of("yarn") == 0b111); // a sibling of npm (0), and a kind of package manager (1, 2)
    CHECK(sources_of("pip") == 0b110); // only through "package manager"
}

TEST_CASE("a term reached by two relations keeps the stronger weight", "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon lexicon{kSmall, "small.txt", LexiconWeights{1.0, 0.6, 0.5, 0.9}};
    // "package manager" reaches pnpm as narrower (0.9); npm reaches it as a sibling (0.6).
    const auto expansions = expand(lexicon, tokenizer, "npm or another package manager");
    CHECK(weight_of(expansions, "pnpm") == Approx(0.9));
}

TEST_CASE("a relation weighted 0 adds nothing, and all weights 0 turn the lexicon off", "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon no_siblings{kSmall, "small.txt", LexiconWeights{1.0, 0.0, 0.5, 0.4}};
    CHECK(weight_of(expand(no_siblings, tokenizer, "npm"), "pnpm") == 0.0);
    const Lexicon off{kSmall, "small.txt", LexiconWeights{0.0, 0.0, 0.0, 0.0}};
    CHECK(expand(off, tokenizer, "npm").empty());
}

TEST_CASE("a malformed lexicon line is refused, naming the source and the line", "[bm25][lexicon]") {
    const LexiconWeights weights;
    const auto refused = [&](const std::string &text, const std::string &message) {
        INFO(text);
        CHECK_THROWS_WITH(Lexicon(text, "mine.txt", weights), Catch::Contains(message));
    };
    refused("same | a | -\n", "mine.txt:1: expected 'kind | id | broader | members', found 3 field(s)");
    refused("# c\nlike | a | - | x, y\n", "mine.txt:2: kind must be 'same', 'kind' or 'each', not 'like'");
    refused("each | a | - | x, y\n", "mine.txt:1: an 'each' line relates its members only to what they are: it must name a broader line");
    refused("same | a | - | x\neach | b | a | y, z\nsame | c | b | w\n", "mine.txt:3: broader names 'b', an 'each' line");
    refused("same | A b | - | x\n", "mine.txt:1: 'A b' is no id");
    refused("same | a | - | x\nsame | a | - | y\n", "mine.txt:2: the id 'a' is used twice");
    refused("kind | a | nowhere | x, y\n", "mine.txt:1: broader names 'nowhere', which no line defines");
    refused("kind | a | - | xeno\nkind | b | a | yak\n", "mine.txt:2: broader names 'a', a 'kind' line");
    refused("same | a | - | x,, y\n", "mine.txt:1: an empty member");
    refused("same | a | - | \n", "mine.txt:1: an empty member");
}

TEST_CASE("the built-in lexicon relates what a developer names in other words, in EN, DE and ZH",
          "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon lexicon{starling::bm25::built_in_lexicon(), LexiconWeights{}};
    CHECK(lexicon.group_count() > 80);
    CHECK(weight_of(expand(lexicon, tokenizer, "use npm to install the packages"), "pnpm") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "which package manager should I use"), "pnpm") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "run a load test against the API"), "k6") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "file a ticket for it"), "jira") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "reformat this file"), "format") > 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "roll it out to production"), "deploy") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "wie deployen wir das?"), "deploy") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "怎么部署"), "deploy") > 0.0);
    // Installing dependencies is a package manager's job; installing anything else is not.
    CHECK(weight_of(expand(lexicon, tokenizer, "install the deps"), "pnpm") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "Abhängigkeiten installieren"), "npm") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "先安装依赖"), "yarn") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "install docker on the server"), "pnpm") == 0.0);
}

TEST_CASE("the built-in lexicon relates Kubernetes' objects, deleting, schema changes and design drafts",
          "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon lexicon{starling::bm25::built_in_lexicon(), LexiconWeights{}};
    CHECK(weight_of(expand(lexicon, tokenizer, "pods keep going into CrashLoopBackOff"), "k8s") > 0.0);
    // Tearing down, in English and in German, whose separable verb ends apart; and deleting.
    CHECK(weight_of(expand(lexicon, tokenizer, "reiß die alte Umgebung ab"), "destroy") == 1.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "terraform destroy the sandbox"), "teardown") == 1.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "terraform destroy the sandbox"), "删除") == 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "die Datei wurde gelöscht"), "删除") == 1.0);
    // A new column is a migration; a UI draft is in the design tool.
    CHECK(weight_of(expand(lexicon, tokenizer, "add column settled_at"), "flyway") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "优惠券页面的设计稿在哪里看"), "蓝湖") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "where is the mockup?"), "figma") > 0.0);
    // German plurals are not stemmed: they are members.
    CHECK(weight_of(expand(lexicon, tokenizer, "alle Rechnungen exportieren"), "发票") == 1.0);
    // "column" and "remove" alone are too common to be members.
    CHECK(expand(lexicon, tokenizer, "remove the column").empty());
}

TEST_CASE("the built-in lexicon knows libraries as dependencies, AWS's services and reviewing in other words",
          "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon lexicon{starling::bm25::built_in_lexicon(), LexiconWeights{}};
    CHECK(weight_of(expand(lexicon, tokenizer, "帮我装一下 dayjs"), "依赖") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "add Kingfisher to the iOS app"), "depend") > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "leg einen S3-Bucket an"), term_of(tokenizer, "AWS")) > 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "leg einen S3-Bucket an"), "dynamodb") == 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "wie funktioniert ein NAT-Gateway in AWS?"), "s3") == 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "go through the changes on this branch"), "review") > 0.0);
}

TEST_CASE("the built-in lexicon knows what apps and games are made of across languages, and German verb forms",
          "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon lexicon{starling::bm25::built_in_lexicon(), LexiconWeights{}};
    CHECK(weight_of(expand(lexicon, tokenizer, "add a setting to turn off vibration"), "haptik") == 1.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "add a setting to turn off vibration"), "haptic") == 1.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "im Spielstand soll mehr stehen"), term_of(tokenizer, "Spielstände")) ==
          1.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "a script that renames the screenshots"),
                    term_of(tokenizer, "Skripte")) == 1.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "the key distribution page"), "verteilen") == 1.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "installier mir ripgrep"), term_of(tokenizer, "installiere")) == 1.0);
    // 通知 alone also means "let me know": only the push notification is one.
    CHECK(weight_of(expand(lexicon, tokenizer, "完成后通知我"), term_of(tokenizer, "notification")) == 0.0);
    CHECK(weight_of(expand(lexicon, tokenizer, "加一个推送通知"), term_of(tokenizer, "notification")) == 1.0);
}

TEST_CASE("no member of the built-in lexicon makes a lone Chinese character a term", "[bm25][lexicon]") {
    // Chinese is indexed as overlapping pairs; a character makes a term of its own only where it
    // stands alone, so a one-character verb (装, 删) inside a sentence ("帮我装一下") is never a
    // term, and a member that needs it ("装", "UI稿") would never be found. Such words are listed
    // by their two-character forms (安装, 删除).
    auto tokenizer = default_tokenizer();
    TokenList inside;
    tokenizer.tokenize("帮我装一下", inside);
    REQUIRE(inside.size() == 4);
    for (std::size_t token = 0; token < inside.size(); ++token) {
        CHECK(inside[token] != "装");
    }
    const auto is_lone_cjk_character = [](std::string_view term) {
        return term.size() == 3 && static_cast<unsigned char>(term[0]) >= 0xE3; // U+3000 and above
    };
    const auto tables = starling::bm25::built_in_lexicon();
    for (const LexiconMember &member : tables.members) {
        const auto text = tables.text_of(member.text);
        INFO("member '" << text << "'");
        const TokenList terms = member_terms(tokenizer, text);
        for (std::size_t term = 0; term < terms.size(); ++term) {
            CHECK_FALSE(is_lone_cjk_character(terms[term]));
        }
    }
}

TEST_CASE("every member of the built-in lexicon is found by the start of its first term", "[bm25][lexicon]") {
    // A member is looked at only when a query term starts as it does (member_key), or its first
    // word is a stop word the query says ("on call"): a member whose first term starts otherwise —
    // a stem that is no prefix of its word — would never be found. Each must make a term, too.
    auto tokenizer = default_tokenizer();
    const auto tables = starling::bm25::built_in_lexicon();
    for (const LexiconMember &member : tables.members) {
        const auto text = tables.text_of(member.text);
        INFO("member '" << text << "'");
        const TokenList tokens = member_terms(tokenizer, text);
        REQUIRE_FALSE(tokens.empty());
        const auto first_word = starling::bm25::fold_case(text.substr(0, text.find(' ')));
        if (!tokenizer.is_stop_word(first_word)) {
            CHECK(starling::bm25::member_key(text) == starling::bm25::member_key(tokens[0]));
        }
    }
}

TEST_CASE("a lexicon's members are found by their key, each in its group", "[bm25][lexicon]") {
    // expand() looks only at the members keyed as a query term; a member missing from the key's
    // list would never be found, one listed twice or out of order would change which member of a
    // group is found first.
    const Lexicon read{starling::bm25::built_in_lexicon_text, "lexicon/software.txt", LexiconWeights{}};
    const auto tables = read.tables();
    REQUIRE(tables.members_by_key.size() == tables.members.size());
    std::vector<std::uint32_t> seen(tables.members_by_key.begin(), tables.members_by_key.end());
    std::sort(seen.begin(), seen.end());
    for (std::uint32_t member = 0; member < seen.size(); ++member) {
        REQUIRE(seen[member] == member);
    }
    for (std::uint32_t group = 0; group < tables.groups.size(); ++group) {
        const auto &members = tables.groups[group].members;
        for (std::uint32_t member = members.start; member < members.start + members.size; ++member) {
            CHECK(tables.group_of_member(member) == group);
        }
    }
    std::size_t listed = 0;
    for (const LexiconMember &member : tables.members) {
        const auto key = tables.text_of(member.key);
        INFO("key '" << key << "'");
        const auto keyed = tables.members_keyed(key);
        REQUIRE_FALSE(keyed.empty());
        CHECK(std::is_sorted(keyed.begin(), keyed.end()));
        for (const std::uint32_t found : keyed) {
            CHECK(tables.text_of(tables.members[found].key) == key);
        }
        const auto all_with_key = std::count_if(tables.members.begin(), tables.members.end(),
                                                [&](const LexiconMember &other) { return tables.text_of(other.key) == key; });
        CHECK(static_cast<std::ptrdiff_t>(keyed.size()) == all_with_key);
        listed += keyed.size();
    }
    CHECK(listed > tables.members.size()); // keys are shared: the lists are more than one member each
    CHECK(tables.members_keyed("").empty());
    CHECK(tables.members_keyed("\xff\xff").empty());
}

TEST_CASE("the compiled built-in lexicon holds what its text reads as, and expands every query alike",
          "[bm25][lexicon]") {
    // The hooks use the tables the build compiled (built_in_lexicon()); reading the text is the
    // reference. Distinct weights tell the relations apart.
    const LexiconWeights weights{1.0, 0.7, 0.5, 0.3};
    const Lexicon read{starling::bm25::built_in_lexicon_text, "lexicon/software.txt", weights};
    const Lexicon compiled{starling::bm25::built_in_lexicon(), weights};
    CHECK(compiled.tables().text == read.tables().text);
    CHECK(std::ranges::equal(compiled.tables().groups, read.tables().groups));
    CHECK(std::ranges::equal(compiled.tables().members, read.tables().members));
    CHECK(std::ranges::equal(compiled.tables().narrower, read.tables().narrower));
    CHECK(std::ranges::equal(compiled.tables().members_by_key, read.tables().members_by_key));

    // Every member alone, amid other words, and beside another group's member; and prompts.
    std::vector<std::string> members;
    for (const LexiconMember &member : read.tables().members) {
        members.emplace_back(read.tables().text_of(member.text));
    }
    std::vector<std::string> queries = members;
    for (std::size_t member = 0; member < members.size(); ++member) {
        queries.push_back("how do we set up " + members[member] + " for the billing service?");
        queries.push_back(members[member] + " and " + members[(member * 7 + 13) % members.size()]);
    }
    queries.insert(queries.end(), {"npm install the deps", "which package manager should I use",
                                   "run a load test against the API", "file a ticket for it",
                                   "roll it out to production", "wie deployen wir das?", "怎么部署",
                                   "restart the k8s pods, then check the GitHub Actions CI pipeline", ""});
    auto tokenizer = default_tokenizer();
    std::size_t expanding = 0;
    for (const auto &query : queries) {
        INFO("query '" << query << "'");
        const auto expected = expand(read, tokenizer, query);
        const auto actual = expand(compiled, tokenizer, query);
        REQUIRE(actual.size() == expected.size());
        for (std::size_t index = 0; index < expected.size(); ++index) {
            CHECK(actual[index].term == expected[index].term);
            CHECK(actual[index].weight == expected[index].weight);
        }
        expanding += expected.empty() ? 0 : 1;
    }
    CHECK(expanding > members.size()); // most queries expand: the comparison is not of nothing
}

TEST_CASE("a phrase is found with a few other words between its own, in order and in one clause",
          "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    const Lexicon lexicon{kPhrases, "phrases.txt", LexiconWeights{}, 2};
    const auto expands_to = [&](const std::string &query, const std::string &term) {
        INFO("query '" << query << "'");
        return weight_of(expand_written(lexicon, tokenizer, query), term);
    };
    // Next to each other, as ever; and with one or two words between.
    CHECK(expands_to("add column settled_at", "flyway") == 1.0);
    CHECK(expands_to("add a nullable settled_at column to the transfers table", "flyway") == 1.0);
    CHECK(expands_to("install the project's dependencies", "pnpm") == 1.0);
    // German puts the verb last: "für" and "das" are stop words, "Backend" is the one word between.
    CHECK(expands_to("Abhängigkeiten für das Backend installieren", "pnpm") == 1.0);
    // A version is one word, though its dots separate terms ("0", "9", "3"); a dot inside a word
    // ends no sentence.
    CHECK(expands_to("cut the 0.9.3 release", "publish") == 1.0);

    SECTION("too many words between") {
        CHECK(expands_to("add tests for sorting and paging the column", "flyway") == 0.0);
        CHECK(expands_to("install node and python toolchains with their dependencies", "pnpm") == 0.0);
        const Lexicon wider{kPhrases, "phrases.txt", LexiconWeights{}, 3};
        CHECK(weight_of(expand_written(wider, tokenizer, "add tests for sorting and paging the column"), "flyway") ==
              1.0);
    }
    SECTION("the words in another order") {
        CHECK(expands_to("the column we add", "flyway") == 0.0);
        CHECK(expands_to("a release was cut", "publish") == 0.0);
    }
    SECTION("a sentence or a clause ends between them") {
        CHECK(expands_to("Add a test. The column is wrong", "flyway") == 0.0);
        CHECK(expands_to("Add a test! Column widths are wrong", "flyway") == 0.0);
        CHECK(expands_to("add a test, then fix the column", "flyway") == 0.0);
        CHECK(expands_to("add these tests:\ncolumn widths", "flyway") == 0.0);
        CHECK(expands_to("add a test\ncolumn widths are wrong", "flyway") == 0.0);
        CHECK(expands_to("cut the tape。release it", "publish") == 0.0);
    }
    SECTION("a Chinese phrase's terms only next to each other") {
        CHECK(expands_to("安装 依赖", "pnpm") == 1.0);
        CHECK(expands_to("安装 项目 依赖", "pnpm") == 0.0);
    }
    SECTION("a gap of 0 finds consecutive terms only") {
        const Lexicon adjacent{kPhrases, "phrases.txt", LexiconWeights{}, 0};
        CHECK(weight_of(expand_written(adjacent, tokenizer, "add column settled_at"), "flyway") == 1.0);
        CHECK(expand_written(adjacent, tokenizer, "add a nullable column").empty());
    }
}

TEST_CASE("a query's written terms are the tokenizer's, each with its word and its clause", "[bm25][lexicon]") {
    auto tokenizer = default_tokenizer();
    for (const std::string text :
         {"Cut the 0.9.3 release, then deploy it.\nGitHub Actions: 部署。上线 maxRetries didn't work", "",
          "  \n, . ", "帮我装一下，好吗？ Caroline's deps… done!", "a.b,c;d:e!f?g package.json v1.2.3 e.g. this"}) {
        INFO("text '" << text << "'");
        TokenList whole;
        tokenizer.tokenize(text, whole, starling::bm25::StopWordHandling::remove,
                           starling::bm25::CamelCaseParts::omit);
        TokenList written;
        std::vector<WrittenPlace> places;
        starling::bm25::read_written_terms(text, tokenizer, written, places);
        REQUIRE(written.size() == whole.size());
        REQUIRE(places.size() == whole.size());
        for (std::size_t term = 0; term < whole.size(); ++term) {
            CHECK(written[term] == whole[term]);
        }
    }
    TokenList terms;
    std::vector<WrittenPlace> places;
    starling::bm25::read_written_terms("Cut the 0.9.3 release, then deploy it.\nGitHub Actions: 部署。上线", tokenizer,
                                       terms, places);
    std::vector<std::string> texts;
    for (std::size_t term = 0; term < terms.size(); ++term) {
        texts.emplace_back(terms[term]);
    }
    CHECK(texts == std::vector<std::string>{"cut", "0.9.3", "releas", "deploy", "github", "action", "部署", "上线"});
    // Stop words are no words here: "the", "then" and "it" put no distance between the others.
    CHECK(places == std::vector<WrittenPlace>{{0, 0}, {1, 0}, {2, 0}, {3, 1}, {4, 3}, {5, 3}, {6, 4}, {7, 5}});
}

TEST_CASE("a lexicon member that stop words would cut short is found only as all its words, and never added",
          "[policy][bm25][lexicon]") {
    // "log in", "sign in" and "roll out" would be log, sign and roll without their stop words: words
    // of their own meaning (a log file, signing a tag, rolling back). Stop words as bm25's defaults
    // have them.
    TokenizerOptions options;
    for (const auto *language : {"en", "de"}) {
        for (const auto word : starling::bm25::find_built_in_stop_words(language)->words) {
            options.stop_words.emplace_back(word);
        }
    }
    Tokenizer tokenizer{options};
    const Lexicon lexicon{starling::bm25::built_in_lexicon(), LexiconWeights{}};
    CHECK(weight_of(expand_written(lexicon, tokenizer, "users can't sign in since this morning"), "login") > 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "I can't log in to staging"), "login") > 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "roll it out to production"), "deploy") > 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "check the prod logs for errors"), "login") == 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "sign the release tag with my GPG key"), "login") == 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "roll back the migration"), "deploy") == 0.0);
    // On call, written apart or hyphenated, is the on-call line: its one-word form and who pages.
    CHECK(weight_of(expand_written(lexicon, tokenizer, "who is on call this week?"), "oncal") > 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "page the on-call engineer"), "pagerduti") > 0.0);
    CHECK(weight_of(expand_written(lexicon, tokenizer, "call the customer back"), "oncal") == 0.0);
    // Read without the text, as a list of terms, such a member is not found at all.
    CHECK(weight_of(expand(lexicon, tokenizer, "users can't sign in"), "login") == 0.0);
    // Reached from elsewhere, its lone remaining word is never a term the query expands to.
    for (const auto &expansion : expand_written(lexicon, tokenizer, "the login page is broken")) {
        CHECK(expansion.term != "log");
        CHECK(expansion.term != "sign");
    }
    for (const auto &expansion : expand_written(lexicon, tokenizer, "how do we deploy?")) {
        CHECK(expansion.term != "roll");
    }
}
