// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/log.hpp>
#include <starling/sdk/event.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

using sdk::Event;
using sdk::EventKind;
using sdk::Reply;
using sdk::ToolIntent;
using sdk::ToolUse;

/// What one subscriber contributes to the reply of an event.
class ReplyBuilder {
public:
    /// Adds a paragraph of context for the model.
    void add_context(std::string_view text);
    /// Adds a paragraph shown to the user.
    void add_user_message(std::string_view text);
    /// Asks the agent to block. Only policies that mean to block call this.
    void block(std::string_view reason);

    [[nodiscard]] const std::vector<std::string> &context() const noexcept { return context_; }
    [[nodiscard]] const std::vector<std::string> &user_messages() const noexcept { return user_messages_; }
    [[nodiscard]] const std::optional<std::string> &block_reason() const noexcept { return block_reason_; }

private:
    std::vector<std::string> context_;
    std::vector<std::string> user_messages_;
    std::optional<std::string> block_reason_;
};

/// When a subscriber runs relative to the agent getting its reply.
enum class Stage {
    reply,       ///< before the reply: what it adds goes to the agent, and the agent waits for it
    after_reply, ///< after: work the reply does not depend on, which a hook runs once the agent has
                 ///< its answer (see EventBus::publish); anything it adds to the reply is dropped
};

/// A handler on the bus. Lower `order` runs first; equal orders run in subscription order.
struct Subscriber {
    std::string name;
    int order = 0;
    std::vector<EventKind> kinds; ///< the events it handles; empty: all of them
    std::function<void(const Event &, ReplyBuilder &)> handle;
    Stage stage = Stage::reply;
    /// When set, the subscriber handles only the events of its kinds for which this returns true,
    /// asked as the event is published: for work that only some events of a kind need, so that a
    /// hook starts no after-reply process for the others.
    std::function<bool(const Event &)> wanted = {};
};

/// A subscriber that threw while handling an event. Its partial output was discarded.
struct SubscriberFailure {
    std::string subscriber;
    std::string message;
};

struct Dispatch {
    Reply reply;
    std::vector<SubscriberFailure> failures;
};

/// Delivers canonical events to subscribers and folds their answers into one reply.
///
/// A subscriber that fails is logged and contributes nothing; the others still run. The reply
/// joins the context paragraphs and user messages in run order; the first block wins.
class EventBus {
public:
    explicit EventBus(const Logger &logger) : logger_(&logger) {}

    void subscribe(Subscriber subscriber);
    /// Runs every subscriber of the event, the reply stage first, then the after-reply stage.
    [[nodiscard]] Dispatch publish(const Event &event) const;
    /// Runs the subscribers of one stage only: a hook publishes the reply stage, answers the agent,
    /// and then publishes the after-reply stage where the agent no longer waits for it.
    [[nodiscard]] Dispatch publish(const Event &event, Stage stage) const;
    /// Whether any subscriber of `stage` handles the event.
    [[nodiscard]] bool has_subscribers(const Event &event, Stage stage) const;
    [[nodiscard]] std::vector<std::string> subscriber_names() const;

private:
    const Logger *logger_;
    std::vector<Subscriber> subscribers_; ///< kept sorted by order, stable
};

} // namespace starling::core
