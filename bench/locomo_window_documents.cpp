// SPDX-License-Identifier: Apache-2.0
#include "locomo_window_documents.hpp"
#include "locomo_turn_text.hpp"

#include <starling/sdk/bytes.hpp>

#include <algorithm>

namespace starling::bench {

/// One conversation as a memory batch: one memory per turn, in conversation order. Owns every
/// string the views borrow, so it neither copies nor moves.
class WindowDocumentRetriever::Documents {
public:
    Documents(const LocomoConversation &conversation, const LocomoWindow &window) {
        for (const auto &session : conversation.sessions) {
            for (std::size_t index = 0; index < session.turns.size(); ++index) {
                add_turn(conversation, session, index, window);
            }
        }
        // Views are made only now: the texts no longer move.
        views_.reserve(texts_.size());
        for (const auto &texts : texts_) {
            starling_memory_view view{};
            view.struct_size = sizeof(starling_memory_view);
            view.key = sdk::as_bytes(texts.key);
            view.scope = sdk::as_bytes("user");
            view.tier = sdk::as_bytes("long");
            view.type = sdk::as_bytes("user");
            view.summary = sdk::as_bytes(texts.summary);
            view.tags = sdk::as_bytes(texts.tags);
            view.body = sdk::as_bytes(texts.body);
            views_.push_back(view);
        }
        for (const auto &view : views_) {
            pointers_.push_back(&view);
        }
        // Every memory has the same access history, so recency and reinforcement cannot reorder them.
        batch_ = starling_memory_batch{sizeof(starling_memory_batch), STARLING_BATCH_HAS_BODIES, 0,
                                       pointers_.size(), pointers_.data()};
    }
    Documents(const Documents &) = delete;
    Documents &operator=(const Documents &) = delete;

    [[nodiscard]] const starling_memory_batch &batch() const noexcept { return batch_; }
    [[nodiscard]] std::size_t size() const noexcept { return texts_.size(); }
    [[nodiscard]] const std::string &dia_id(std::size_t memory) const { return dia_ids_[memory]; }

private:
    struct Texts {
        std::string key;
        std::string summary;
        std::string tags;
        std::string body;
    };

    void add_turn(const LocomoConversation &conversation, const LocomoSession &session, std::size_t index,
                  const LocomoWindow &window) {
        const auto &turn = session.turns[index];
        Texts texts;
        texts.key = conversation.sample_id + "/" + turn.dia_id;
        texts.summary = turn.speaker + ": " + said_and_shown(turn);
        texts.tags = turn.speaker;
        texts.body = std::string{session_date(session.date_time)};
        const auto first = index >= window.turns_before ? index - window.turns_before : 0;
        const auto last = std::min(session.turns.size() - 1, index + window.turns_after);
        for (auto neighbour = first; neighbour <= last; ++neighbour) {
            if (neighbour != index) {
                texts.body += '\n';
                texts.body += said_and_shown(session.turns[neighbour]);
            }
        }
        texts_.push_back(std::move(texts));
        dia_ids_.push_back(turn.dia_id);
    }

    std::vector<Texts> texts_;
    std::vector<std::string> dia_ids_;
    std::vector<starling_memory_view> views_;
    std::vector<const starling_memory_view *> pointers_;
    starling_memory_batch batch_{};
};

WindowDocumentRetriever::WindowDocumentRetriever(const plugins::RelevancePolicyInstance &policy, LocomoWindow window)
    : policy_(&policy), window_(window) {}

WindowDocumentRetriever::~WindowDocumentRetriever() = default;

std::size_t WindowDocumentRetriever::load(const LocomoConversation &conversation) {
    documents_.reset();
    documents_ = std::make_unique<Documents>(conversation, window_);
    return documents_->size();
}

std::vector<std::vector<std::string>> WindowDocumentRetriever::rank(const std::string &question, std::size_t depth) {
    const auto scores = policy_->score(question, documents_->batch());
    std::vector<std::size_t> ranked;
    for (std::size_t memory = 0; memory < scores.size(); ++memory) {
        if (scores[memory] > 0.0) {
            ranked.push_back(memory);
        }
    }
    // Equal scores keep conversation order.
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](std::size_t left, std::size_t right) { return scores[left] > scores[right]; });
    ranked.resize(std::min(ranked.size(), depth));
    std::vector<std::vector<std::string>> turns;
    for (const auto memory : ranked) {
        turns.push_back({documents_->dia_id(memory)});
    }
    return turns;
}

} // namespace starling::bench
