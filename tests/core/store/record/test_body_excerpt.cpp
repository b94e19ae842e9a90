// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/body_excerpt.hpp>

#include <catch2/catch.hpp>

#include <string>

using starling::core::body_excerpt;
using starling::core::body_excerpt_bytes;

TEST_CASE("a body excerpt is the body's words, one space apart", "[store][excerpt]") {
    CHECK(body_excerpt("Ports", "\n  Use port 8080\tfor the API,\r\n\n9090 for metrics.\n") ==
          "Use port 8080 for the API, 9090 for metrics.");
    CHECK(body_excerpt("Ports", "").empty());
    CHECK(body_excerpt("Ports", " \n\t\n").empty());
}

TEST_CASE("a body excerpt leaves out a leading copy of the summary", "[store][excerpt]") {
    // remember writes the whole text as the body and its first line as the summary.
    CHECK(body_excerpt("Deploys go through Argo CD", "Deploys go through Argo CD\nNever kubectl apply.\n") ==
          "Never kubectl apply.");
    CHECK(body_excerpt("Deploys go through Argo CD", "Deploys go through Argo CD\n").empty());
    // Whitespace differs between the two: still the same words.
    CHECK(body_excerpt("Deploys  go through", "Deploys go\nthrough Argo CD") == "Argo CD");
    // A summary cut by remember ends with "…" and may end inside a word: that word is kept whole.
    CHECK(body_excerpt("Caroline went to a support gr…", "Caroline went to a support group yesterday") ==
          "group yesterday");
    CHECK(body_excerpt("Caroline went to a support…", "Caroline went to a support group yesterday") ==
          "group yesterday");
    // Only a leading copy counts, and only whole words of it.
    CHECK(body_excerpt("Argo", "Deploys go through Argo") == "Deploys go through Argo");
    CHECK(body_excerpt("Deploy", "Deploys go through Argo") == "Deploys go through Argo");
}

TEST_CASE("a body excerpt ends after its last whole word within the size", "[store][excerpt]") {
    CHECK(body_excerpt("", "alpha beta gamma", 10) == "alpha beta");
    CHECK(body_excerpt("", "alpha beta gamma", 11) == "alpha beta");
    CHECK(body_excerpt("", "alpha beta gamma", 9) == "alpha");
    CHECK(body_excerpt("", "alpha beta gamma", 16) == "alpha beta gamma");
    // One word longer than the size is cut, never inside a UTF-8 character.
    CHECK(body_excerpt("", "ünïcödé", 4) == "ün");
    CHECK(body_excerpt("", "暗い暗い", 7) == "暗い");
    CHECK(body_excerpt("", "abcdef", 0).empty());

    std::string long_body;
    for (int word = 0; word < 1000; ++word) {
        long_body += "word" + std::to_string(word) + "\n";
    }
    const std::string excerpt = body_excerpt("", long_body);
    CHECK(excerpt.size() <= body_excerpt_bytes);
    CHECK(excerpt.size() > body_excerpt_bytes - 10);
    CHECK(excerpt.starts_with("word0 word1 word2"));
    CHECK_FALSE(excerpt.ends_with(" "));
}
