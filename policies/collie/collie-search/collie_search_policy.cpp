// SPDX-License-Identifier: Apache-2.0
//
// collie-search: collie's search-memory.js as a relevance policy, so that a collie profile ranks
// memories exactly as collie does. A memory's score is the number of distinct query keywords that
// occur in it as substrings (case-insensitive for ASCII letters; other scripts compare byte-exact,
// which is what makes a Chinese keyword match a Chinese memory, unlike collie's ASCII tokenisers).
#include <starling/sdk/plugin.hpp>
#include <starling/sdk/text/case_folding.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::string> distinct_keywords(std::string_view query, bool case_sensitive) {
    std::vector<std::string> keywords;
    std::size_t position = 0;
    while (position < query.size()) {
        const auto start = query.find_first_not_of(" \t\r\n", position);
        if (start == std::string_view::npos) {
            break;
        }
        const auto end = std::min(query.find_first_of(" \t\r\n", start), query.size());
        std::string keyword{query.substr(start, end - start)};
        if (!case_sensitive) {
            starling::sdk::text::lower_ascii_in_place(keyword);
        }
        if (std::find(keywords.begin(), keywords.end(), keyword) == keywords.end()) {
            keywords.push_back(std::move(keyword));
        }
        position = end;
    }
    return keywords;
}

class CollieSearch final : public starling::sdk::RelevancePolicy {
public:
    CollieSearch(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings &settings)
        : case_sensitive_(starling::sdk::get_flag(settings, "case_sensitive", false)),
          include_tags_(starling::sdk::get_flag(settings, "include_tags", true)),
          include_body_(starling::sdk::get_flag(settings, "include_body", true)) {}

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories, std::span<double> scores) override {
        const auto keywords = distinct_keywords(query, case_sensitive_);
        if (keywords.empty()) {
            return;
        }
        std::string haystack;
        for (std::size_t index = 0; index < memories.size(); ++index) {
            const auto memory = memories[index];
            haystack.assign(memory.summary());
            if (include_tags_) {
                memory.for_each_tag([&](std::string_view tag) {
                    haystack += '\n';
                    haystack += tag;
                });
            }
            if (include_body_) {
                haystack += '\n';
                haystack += memory.body();
            }
            if (!case_sensitive_) {
                starling::sdk::text::lower_ascii_in_place(haystack); // per memory on the prompt's path: no copy
            }
            const auto matched = std::count_if(keywords.begin(), keywords.end(), [&](const std::string &keyword) {
                return haystack.find(keyword) != std::string::npos;
            });
            scores[index] = static_cast<double>(matched);
        }
    }

private:
    bool case_sensitive_;
    bool include_tags_;
    bool include_body_;
};

} // namespace

STARLING_DECLARE_PLUGIN(collie_search, CollieSearch, "collie-search", "1.0.0",
                        "collie's keyword search: distinct query words found in summary, tags and body",
                        R"({"case_sensitive": false, "include_tags": true, "include_body": true})")
