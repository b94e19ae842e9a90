// SPDX-License-Identifier: Apache-2.0
//
// The SDK's policy kit: settings read and checked with a message naming the plugin, the setting,
// what it must be and what it was; the Jaccard index of word sets; ASCII lower-casing.
#include <starling/sdk/kit/settings_reader.hpp>
#include <starling/sdk/kit/word_sets.hpp>
#include <starling/sdk/text/case_folding.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

using starling::sdk::kit::SettingsReader;

namespace {

starling::sdk::Settings sample_settings() {
    return starling::sdk::settings_from_json(R"({
        "days": 30, "negative": -4, "big": 5000000000, "share": 0.25, "one": 1, "zero": 0,
        "text": "many", "empty": "", "flag": true,
        "words": ["Helm", "ArgoCD"], "blank_words": ["ok", " "], "list": ["a", "B"],
        "nested": {"min": 2}
    })");
}

} // namespace

TEST_CASE("kit: whole numbers are read within their range, or refused naming plugin, setting and value",
          "[sdk][kit]") {
    const auto settings = sample_settings();
    const SettingsReader reader{settings, "usage"};
    CHECK(reader.whole_number("days", 1, 36'500) == 30);
    CHECK(reader.whole_number("negative", -100, 100) == -4);
    CHECK(reader.whole_number("nested.min", 2, 1000) == 2);
    CHECK_THROWS_WITH(reader.whole_number("days", 31, 40),
                      "usage setting 'days' must be a whole number from 31 to 40, got '30'");
    CHECK_THROWS_WITH(reader.whole_number("share", 0, 1),
                      "usage setting 'share' must be a whole number from 0 to 1, got '0.25'");
    CHECK_THROWS_WITH(reader.whole_number("big", 0, 100),
                      "usage setting 'big' must be a whole number from 0 to 100, got '5000000000'");
    CHECK_THROWS_WITH(reader.whole_number("text", 0, 100),
                      "usage setting 'text' must be a whole number from 0 to 100, got 'many'");
    CHECK_THROWS_WITH(reader.whole_number("absent", 0, 100),
                      "usage setting 'absent' is missing; it must be a whole number from 0 to 100");
}

TEST_CASE("kit: fractions are numbers from 0 to 1, positive ones above 0", "[sdk][kit]") {
    const auto settings = sample_settings();
    const SettingsReader reader{settings, "isolation"};
    CHECK(reader.fraction("share") == 0.25);
    CHECK(reader.fraction("zero") == 0.0);
    CHECK(reader.fraction("one") == 1.0);
    CHECK(reader.positive_fraction("share") == 0.25);
    CHECK_THROWS_WITH(reader.positive_fraction("zero"),
                      "isolation setting 'zero' must be a number above 0 and at most 1, got '0'");
    CHECK_THROWS_WITH(reader.fraction("days"), "isolation setting 'days' must be a number from 0 to 1, got '30'");
    CHECK_THROWS_WITH(reader.fraction("empty"), "isolation setting 'empty' must be a number from 0 to 1, got ''");
    CHECK_THROWS_WITH(reader.fraction("flag"), "isolation setting 'flag' must be a number from 0 to 1, got 'true'");
}

TEST_CASE("kit: lists of strings and of words", "[sdk][kit]") {
    const auto settings = sample_settings();
    const SettingsReader reader{settings, "episodic"};
    CHECK(reader.string_list("list") == std::vector<std::string>{"a", "B"});
    CHECK(reader.word_list("words") == std::vector<std::string>{"helm", "argocd"});
    CHECK_THROWS_WITH(reader.word_list("blank_words"), "episodic setting 'blank_words' holds an empty word");
    CHECK_THROWS_WITH(reader.string_list("text"), "episodic setting 'text' must be a list of strings");
    CHECK_THROWS_WITH(reader.word_list("absent"), "episodic setting 'absent' must be a list of words");
    CHECK_THROWS_WITH(reader.fail("x", "is wrong"), "episodic setting 'x' is wrong");
}

TEST_CASE("kit: the Jaccard index of two sorted sets", "[sdk][kit]") {
    using starling::sdk::kit::jaccard;
    using starling::sdk::kit::overlap_of;
    const std::set<std::string, std::less<>> deploy{"argocd", "deploy", "helm"};
    const std::set<std::string, std::less<>> release{"deploy", "helm", "release", "staging"};
    const auto overlap = overlap_of(deploy, release);
    CHECK(overlap.shared == 2);
    CHECK(overlap.combined == 5);
    CHECK(jaccard(deploy, release) == Approx(0.4));
    CHECK(jaccard(deploy, deploy) == 1.0);
    CHECK(jaccard(deploy, std::set<std::string, std::less<>>{}) == 0.0);
    CHECK(jaccard(std::set<std::string, std::less<>>{}, std::set<std::string, std::less<>>{}) == 0.0);
    const std::vector<std::uint32_t> first{1, 3, 5, 7};
    const std::vector<std::uint32_t> second{3, 4, 5};
    CHECK(overlap_of(first, second).shared == 2);
    CHECK(overlap_of(first, second).jaccard() == Approx(2.0 / 5.0));
}

TEST_CASE("kit: ASCII lower-casing leaves every other byte as it is", "[sdk][kit]") {
    using starling::sdk::text::lower_ascii;
    CHECK(lower_ascii("Use PNPM, not NPM") == "use pnpm, not npm");
    CHECK(lower_ascii("ÄRGER über Ölpreise") == "Ärger über Ölpreise");
    CHECK(lower_ascii("部署 ArgoCD") == "部署 argocd");
    CHECK(lower_ascii("").empty());
}
