// SPDX-License-Identifier: Apache-2.0
//
// Pointers to external systems found in a message without any lexicon: URLs, bare domains with a
// path or port ("grafana.internal/d/checkout", "db-staging.internal:5432"), e-mail addresses, chat
// channels ("#release-managers") and paths in the user's home ("~/vault"). File names such as
// "utils.py" or "db/sql.hpp" are not links: a bare domain must end in one of `links.domain_suffixes`.
// Nor is the address of one change, run or ticket ("…/pull/42", "…/actions/runs/9912", "…/browse/
// SHOP-17"): it points at today's work, not at where something lives (`links.one_off_paths`).
#pragma once

#include <starling/sdk/settings.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

class LinkFinder {
public:
    explicit LinkFinder(const sdk::Settings &settings);

    /// The links in text already passed through fold_for_matching(), in order of appearance.
    [[nodiscard]] std::vector<std::string> find(std::string_view folded) const;

private:
    [[nodiscard]] bool is_link(std::string_view token) const;
    [[nodiscard]] bool is_host(std::string_view host, bool has_path_or_port) const;
    [[nodiscard]] bool names_one_item(std::string_view link) const;

    std::set<std::string, std::less<>> domain_suffixes_;
    std::set<std::string, std::less<>> one_off_paths_;
    std::set<std::string, std::less<>> standalone_domain_suffixes_;
};

} // namespace starling::policies::collie_tree
