// SPDX-License-Identifier: Apache-2.0
#include "memory_usage.hpp"

#include "surveyed_memories.hpp"

#include <catch2/catch.hpp>

using namespace starling;
using namespace std::chrono_literals;

TEST_CASE("a memory unused more than 90 days is stale, the longest unused first", "[health][usage]") {
    auto exactly_90 = test::surveyed("aaaaaaa", "used exactly 90 days ago");
    exactly_90.entry.last_accessed = test::kSurveyNow - std::chrono::days{90};
    auto just_over = test::surveyed("bbbbbbb", "used 90 days and a second ago");
    just_over.entry.last_accessed = test::kSurveyNow - std::chrono::days{90} - 1s;
    auto long_ago = test::surveyed("ccccccc", "used 200 days ago");
    long_ago.entry.last_accessed = test::kSurveyNow - std::chrono::days{200};
    long_ago.entry.pinned = true;
    const auto fresh = test::surveyed("ddddddd", "used today");

    const auto stale = app::find_stale({exactly_90, just_over, long_ago, fresh}, test::kSurveyNow);
    REQUIRE(stale.size() == 2);
    CHECK(stale[0].memory == 2);
    CHECK(stale[0].unused == std::chrono::days{200});
    CHECK(stale[1].memory == 1);
    CHECK(stale[1].unused == std::chrono::days{90});
    CHECK(app::find_pinned({exactly_90, just_over, long_ago, fresh}) == std::vector<std::size_t>{2});
}

TEST_CASE("effectiveness is reads after writing per injection, judged from five injections", "[health][usage]") {
    auto never_read = test::surveyed("aaaaaaa", "injected twelve times, never read");
    never_read.injection_count = 12;
    auto read_often = test::surveyed("bbbbbbb", "read more often than injected");
    read_often.injection_count = 5;
    read_often.entry.access_count = 9;
    auto read_a_little = test::surveyed("ccccccc", "read twice in ten injections");
    read_a_little.injection_count = 10;
    read_a_little.entry.access_count = 3;
    auto too_few = test::surveyed("ddddddd", "injected four times");
    too_few.injection_count = 4;
    auto hand_written = test::surveyed("eeeeeee", "no access_count in its file");
    hand_written.entry.access_count = 0;

    CHECK(app::reads_of(never_read) == 0);
    CHECK(app::reads_of(hand_written) == 0);
    CHECK(app::effectiveness_of(never_read) == Approx(0.0));
    CHECK(app::effectiveness_of(read_often) == Approx(1.0));
    CHECK(app::effectiveness_of(read_a_little) == Approx(0.2));
    CHECK_FALSE(app::effectiveness_of(too_few).has_value());

    const auto survey = app::survey_effectiveness({never_read, read_often, read_a_little, too_few, hand_written});
    CHECK(survey.judged == 3);
    REQUIRE(survey.average.has_value());
    CHECK(*survey.average == Approx(0.4));
    REQUIRE(survey.ineffective.size() == 2);
    CHECK(survey.ineffective[0].memory == 0);
    CHECK(survey.ineffective[1].memory == 2);
    CHECK(survey.ineffective[1].effectiveness == Approx(0.2));
}

TEST_CASE("with no memory injected enough, effectiveness has no average", "[health][usage]") {
    const auto survey = app::survey_effectiveness({test::surveyed("aaaaaaa", "never injected")});
    CHECK(survey.judged == 0);
    CHECK_FALSE(survey.average.has_value());
    CHECK(survey.ineffective.empty());
}
