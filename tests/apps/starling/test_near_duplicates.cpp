// SPDX-License-Identifier: Apache-2.0
#include "near_duplicates.hpp"

#include "surveyed_memories.hpp"

#include <starling/sdk/bytes.hpp>

#include <catch2/catch.hpp>

using namespace starling;

namespace {

/// A decay policy whose duplicate judge calls a memory a restatement when its summary contains
/// the asked text's first word, and records what it was asked.
class FirstWordJudge final : public core::DecayPlanner {
public:
    std::vector<sdk::LifecycleAction> plan(const starling_memory_batch & /*batch*/) const override { return {}; }
    std::optional<std::vector<double>> similarity(std::string_view text, const starling_memory_batch &batch) const override {
        asked.emplace_back(text);
        const auto first_word = text.substr(0, text.find(' '));
        std::vector<double> similarities;
        for (std::size_t index = 0; index < batch.count; ++index) {
            ++memories_judged;
            const auto summary = sdk::as_string_view(batch.items[index]->summary);
            similarities.push_back(!first_word.empty() && summary.find(first_word) != std::string_view::npos ? 0.9 : 0.1);
        }
        return similarities;
    }
    mutable std::vector<std::string> asked;
    mutable std::size_t memories_judged = 0;
};

/// A decay policy that does not judge duplicates (a policy built before ABI 1.3).
class PlanOnlyPolicy final : public core::DecayPlanner {
public:
    std::vector<sdk::LifecycleAction> plan(const starling_memory_batch & /*batch*/) const override { return {}; }
};

std::vector<app::SurveyedMemory> deploy_notes() {
    return {test::surveyed("aaaaaaa", "Deploys go out on Tuesdays", {"deploy"}),
            test::surveyed("bbbbbbb", "Deploys go out on Tuesdays only", {"deploy"}),
            test::surveyed("ccccccc", "The staging cluster is called blue"),
            // Contains most of the first two, but says more: no near-identical pair with either.
            test::surveyed("eeeeeee", "Deploys go out after the review on Tuesdays and Thursdays"),
            test::surveyed_in_project("p1", "ddddddd", "Deploys go out on Tuesdays")};
}

} // namespace

TEST_CASE("duplicate words are ASCII words lower-cased and other scripts' runs whole, once each",
          "[health][duplicates]") {
    CHECK(app::duplicate_words("Use `bun test`, not BUN-test!") == std::vector<std::string>{"bun", "not", "test", "use"});
    CHECK(app::duplicate_words("提交信息 用英文") == std::vector<std::string>{"提交信息", "用英文"});
    CHECK(app::duplicate_words("").empty());
}

TEST_CASE("without a duplicate judge, near-duplicates are pairs of one scope with a word Jaccard of 0.5 or more",
          "[health][duplicates]") {
    const auto memories = deploy_notes();
    const PlanOnlyPolicy plan_only;
    for (const core::DecayPlanner *policy : {static_cast<const core::DecayPlanner *>(nullptr),
                                             static_cast<const core::DecayPlanner *>(&plan_only)}) {
        const auto search = app::find_near_duplicates(memories, policy, 0.6, test::kSurveyNow);
        CHECK_FALSE(search.judged_by_policy);
        CHECK(search.threshold == Approx(app::kJaccardThreshold));
        REQUIRE(search.pairs.size() == 1);
        CHECK(search.pairs[0].smaller == 0);
        CHECK(search.pairs[0].larger == 1);
        // {deploys, go, out, on, tuesdays, deploy} against the same and "only": 6 of 7 words.
        CHECK(search.pairs[0].similarity == Approx(6.0 / 7.0));
    }
}

TEST_CASE("with a duplicate judge, the decay policy judges the near-identical pairs at its threshold",
          "[health][duplicates]") {
    const auto memories = deploy_notes();
    const FirstWordJudge judge;
    const auto search = app::find_near_duplicates(memories, &judge, 0.6, test::kSurveyNow);
    CHECK(search.judged_by_policy);
    CHECK(search.threshold == Approx(0.6));
    REQUIRE(search.pairs.size() == 1);
    CHECK(search.pairs[0].similarity == Approx(0.9));
    // Asked once whether it judges at all, then once for the one memory that has a near-identical
    // partner; the memory of the other scope, the longer one and the unrelated one are never put
    // before it, though it would call the longer one a restatement.
    REQUIRE(judge.asked.size() == 2);
    CHECK(judge.asked[1] == "Deploys go out on Tuesdays deploy");
    CHECK(judge.memories_judged == 1);

    const auto stricter = app::find_near_duplicates(memories, &judge, 0.95, test::kSurveyNow);
    CHECK(stricter.pairs.empty());
}

TEST_CASE("near-duplicates of 4,000 memories are found without comparing every pair", "[health][duplicates]") {
    std::vector<app::SurveyedMemory> memories;
    for (int number = 0; number < 4000; ++number) {
        const auto n = std::to_string(number);
        // Words every memory shares, and words of its own.
        memories.push_back(test::surveyed("m" + n, "the deploy of " + ("alpha" + n) + " " + ("beta" + n) + " " +
                                                         ("gamma" + n) + " " + ("delta" + n)));
    }
    memories.push_back(test::surveyed("copy", "the deploy of alpha7 beta7 gamma7 delta7 again"));
    const FirstWordJudge judge;
    const auto search = app::find_near_duplicates(memories, &judge, 0.6, test::kSurveyNow);
    REQUIRE(search.pairs.size() == 1);
    CHECK(memories[search.pairs[0].smaller].entry.id == "m7");
    CHECK(memories[search.pairs[0].larger].entry.id == "copy");
    CHECK(search.compared == 1);
    CHECK(judge.memories_judged == 1);
}
