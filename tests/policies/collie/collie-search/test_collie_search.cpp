// SPDX-License-Identifier: Apache-2.0
//
// collie-search through the plugin host, as the collie profile runs it: collie's search-memory.js,
// a memory's score the number of distinct query keywords found in it as substrings.
#include <starling/plugins/plugin_registry.hpp>

#include "support/quiet_logger.hpp"
#include "support/test_batch.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

using starling::test::quiet_logger;
using starling::test::TestBatch;

namespace {

class CollieSearch {
public:
    explicit CollieSearch(const nlohmann::json &overrides = nlohmann::json::object()) : registry_{quiet_logger()} {
        registry_.add_static_plugins(starling::plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(registry_.find("collie-search")->default_settings_json);
        settings.merge_patch(overrides);
        policy_.emplace(registry_.create_relevance_policy("collie-search", settings.dump()));
    }

    std::vector<double> score(const std::string &query, TestBatch &batch) const {
        return policy_->score(query, batch.batch());
    }

private:
    starling::plugins::PluginRegistry registry_;
    std::optional<starling::plugins::RelevancePolicyInstance> policy_;
};

TestBatch deploy_memories() {
    TestBatch batch;
    batch.add({"a.md", "We deploy with Helm charts through ArgoCD", "deploy\nkubernetes", "Staging first."})
        .add({"b.md", "Use pnpm, not npm", "", "Every JavaScript project."})
        .add({"c.md", "部署前先跑测试", "", ""});
    return batch;
}

} // namespace

TEST_CASE("collie-search: a memory scores the number of distinct query keywords it contains", "[policies][collie-search]") {
    const CollieSearch search;
    auto batch = deploy_memories();
    CHECK(search.score("helm argocd", batch) == std::vector<double>{2, 0, 0});
    // A keyword repeated in the query counts once; substrings count, as in search-memory.js.
    CHECK(search.score("helm helm Helm", batch) == std::vector<double>{1, 0, 0});
    CHECK(search.score("npm", batch) == std::vector<double>{0, 1, 0});
    CHECK(search.score("deploy pnpm", batch) == std::vector<double>{1, 1, 0});
}

TEST_CASE("collie-search: ASCII letters fold, other scripts compare byte-exact", "[policies][collie-search]") {
    const CollieSearch search;
    auto batch = deploy_memories();
    CHECK(search.score("ARGOCD", batch) == std::vector<double>{1, 0, 0});
    CHECK(search.score("部署", batch) == std::vector<double>{0, 0, 1});

    const CollieSearch exact{{{"case_sensitive", true}}};
    CHECK(exact.score("ARGOCD", batch) == std::vector<double>{0, 0, 0});
    CHECK(exact.score("ArgoCD", batch) == std::vector<double>{1, 0, 0});
}

TEST_CASE("collie-search: tags and body are searched unless the settings leave them out", "[policies][collie-search]") {
    auto batch = deploy_memories();
    CHECK(CollieSearch{}.score("kubernetes staging", batch) == std::vector<double>{2, 0, 0});
    CHECK(CollieSearch{{{"include_tags", false}}}.score("kubernetes staging", batch) == std::vector<double>{1, 0, 0});
    CHECK(CollieSearch{{{"include_body", false}}}.score("kubernetes staging", batch) == std::vector<double>{1, 0, 0});
    CHECK(CollieSearch{{{"include_tags", false}, {"include_body", false}}}.score("kubernetes staging", batch) ==
          std::vector<double>{0, 0, 0});
}

TEST_CASE("collie-search: a query of blanks scores nothing", "[policies][collie-search]") {
    const CollieSearch search;
    auto batch = deploy_memories();
    CHECK(search.score("", batch) == std::vector<double>{0, 0, 0});
    CHECK(search.score(" \t\n ", batch) == std::vector<double>{0, 0, 0});
}

TEST_CASE("collie-search: settings of the wrong type are refused", "[policies][collie-search]") {
    starling::plugins::PluginRegistry registry{quiet_logger()};
    registry.add_static_plugins(starling::plugins::linked_static_plugins());
    CHECK_THROWS(registry.create_relevance_policy("collie-search", R"({"case_sensitive": "sometimes"})"));
}
