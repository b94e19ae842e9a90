// SPDX-License-Identifier: Apache-2.0
//
// The window documents of the benchmark's earlier figures — NOT the product path. A memory is
// built in the benchmark, not stored: its summary is the turn, its tags its speaker, and its body
// the session date and the turns around it in the same session (with the captions of the photos
// they share), which no memory that Starling stores carries. The window and the policy's settings
// were chosen on the same conversations these figures were reported on. Kept behind
// `starling-bench locomo --window-documents` to compare with those figures.
#pragma once

#include "locomo_bench.hpp"

#include <starling/plugins/plugin_instance.hpp>

#include <cstddef>
#include <memory>

namespace starling::bench {

/// How many turns around a turn its window document carries.
struct LocomoWindow {
    std::size_t turns_before = 2;
    std::size_t turns_after = 1;
};

/// Window documents of one conversation at a time, scored in one batch call by `policy`.
class WindowDocumentRetriever final : public LocomoRetriever {
public:
    WindowDocumentRetriever(const plugins::RelevancePolicyInstance &policy, LocomoWindow window);
    ~WindowDocumentRetriever() override;
    WindowDocumentRetriever(const WindowDocumentRetriever &) = delete;
    WindowDocumentRetriever &operator=(const WindowDocumentRetriever &) = delete;

    [[nodiscard]] std::string method() const override { return "window-documents"; }
    std::size_t load(const LocomoConversation &conversation) override;
    [[nodiscard]] std::vector<std::vector<std::string>> rank(const std::string &question, std::size_t depth) override;

private:
    class Documents;
    const plugins::RelevancePolicyInstance *policy_;
    LocomoWindow window_;
    std::unique_ptr<Documents> documents_;
};

} // namespace starling::bench
