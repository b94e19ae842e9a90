// SPDX-License-Identifier: Apache-2.0
//
// The product path of `starling-bench locomo`: each turn stored as `starling remember --force`
// stores it — one memory of the turn's text with its speaker, its session's date and the caption of
// the photo it shares, nothing from other turns — through the same Rememberer, in a scratch store
// of its own per conversation, and each question ranked by the call `starling search` makes
// (app::search_memories). The configuration is Starling's own, exactly as `starling` reads it.
#pragma once

#include "locomo_bench.hpp"
#include "scoped_environment.hpp"

#include <starling/app/application.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starling::bench {

/// The text `starling remember --force` is given for a turn:
/// "Caroline (8 May, 2023): I went to a support group yesterday. [shares a photo: …]".
[[nodiscard]] std::string remembered_turn_text(const LocomoSession &session, const LocomoTurn &turn);

/// Stores each conversation in a fresh store under `scratch` ($STARLING_HOME of its own, the clock
/// fixed so that every run ranks alike), with the configuration `config_file`, else the embedded
/// defaults. The environment it changes is restored when the retriever is destroyed.
class ProductPathRetriever final : public LocomoRetriever {
public:
    ProductPathRetriever(std::optional<std::filesystem::path> config_file, std::filesystem::path scratch);
    ~ProductPathRetriever() override;
    ProductPathRetriever(const ProductPathRetriever &) = delete;
    ProductPathRetriever &operator=(const ProductPathRetriever &) = delete;

    [[nodiscard]] std::string method() const override { return "product"; }
    /// Throws std::runtime_error when the configuration puts the store anywhere but the scratch
    /// home (store.root), and whatever storing a memory throws.
    std::size_t load(const LocomoConversation &conversation) override;
    [[nodiscard]] std::vector<std::vector<std::string>> rank(const std::string &question, std::size_t depth) override;
    [[nodiscard]] std::size_t turns_restated() const override { return turns_restated_; }

private:
    std::optional<std::filesystem::path> config_file_;
    std::filesystem::path scratch_;
    std::unique_ptr<ScopedEnvironment> environment_;
    std::size_t conversations_ = 0;
    std::size_t turns_restated_ = 0;
    std::unique_ptr<app::Application> application_;
    std::vector<core::IndexEntry> memories_;
    std::map<std::string, std::vector<std::string>> turns_of_memory_; ///< memory key → its dia_ids
};

} // namespace starling::bench
