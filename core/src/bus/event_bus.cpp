// SPDX-License-Identifier: Apache-2.0
#include <starling/core/bus/event_bus.hpp>

#include <algorithm>
#include <exception>
#include <iterator>
#include <optional>
#include <stdexcept>

namespace starling::core {

namespace {

void append_paragraph(std::string &text, std::string_view paragraph) {
    if (paragraph.empty()) {
        return;
    }
    if (!text.empty()) {
        text += "\n\n";
    }
    text += paragraph;
}

bool handles(const Subscriber &subscriber, const Event &event) {
    const bool of_kind = subscriber.kinds.empty() ||
                         std::find(subscriber.kinds.begin(), subscriber.kinds.end(), event.kind) != subscriber.kinds.end();
    return of_kind && (!subscriber.wanted || subscriber.wanted(event));
}

} // namespace

void ReplyBuilder::add_context(std::string_view text) {
    if (!text.empty()) {
        context_.emplace_back(text);
    }
}

void ReplyBuilder::add_user_message(std::string_view text) {
    if (!text.empty()) {
        user_messages_.emplace_back(text);
    }
}

void ReplyBuilder::block(std::string_view reason) {
    if (!block_reason_) {
        block_reason_ = std::string{reason};
    }
}

void EventBus::subscribe(Subscriber subscriber) {
    if (!subscriber.handle) {
        throw std::invalid_argument("subscriber '" + subscriber.name + "' has no handler");
    }
    const auto position = std::upper_bound(
        subscribers_.begin(), subscribers_.end(), subscriber.order,
        [](int order, const Subscriber &existing) { return order < existing.order; });
    subscribers_.insert(position, std::move(subscriber));
}

Dispatch EventBus::publish(const Event &event) const {
    Dispatch dispatch = publish(event, Stage::reply);
    Dispatch after_reply = publish(event, Stage::after_reply);
    dispatch.failures.insert(dispatch.failures.end(), std::make_move_iterator(after_reply.failures.begin()),
                             std::make_move_iterator(after_reply.failures.end()));
    return dispatch;
}

bool EventBus::has_subscribers(const Event &event, Stage stage) const {
    return std::any_of(subscribers_.begin(), subscribers_.end(), [&](const Subscriber &subscriber) {
        return subscriber.stage == stage && handles(subscriber, event);
    });
}

Dispatch EventBus::publish(const Event &event, Stage stage) const {
    Dispatch dispatch;
    for (const auto &subscriber : subscribers_) {
        if (subscriber.stage != stage || !handles(subscriber, event)) {
            continue;
        }
        ReplyBuilder contribution;
        std::optional<std::string> failure_message;
        try {
            subscriber.handle(event, contribution);
        } catch (const std::exception &failure) {
            failure_message = failure.what();
        } catch (...) {
            failure_message = "unknown exception";
        }
        if (failure_message) {
            logger_->error("bus", "subscriber '" + subscriber.name + "' failed on " +
                                      std::string{sdk::to_string(event.kind)} + ": " + *failure_message);
            dispatch.failures.push_back({subscriber.name, std::move(*failure_message)});
            continue;
        }
        if (stage == Stage::after_reply) {
            continue; // the agent has its reply by now
        }
        for (const auto &paragraph : contribution.context()) {
            append_paragraph(dispatch.reply.context, paragraph);
        }
        for (const auto &message : contribution.user_messages()) {
            append_paragraph(dispatch.reply.user_message, message);
        }
        if (contribution.block_reason() && !dispatch.reply.block_reason) {
            dispatch.reply.block_reason = contribution.block_reason();
        }
    }
    return dispatch;
}

std::vector<std::string> EventBus::subscriber_names() const {
    std::vector<std::string> names;
    names.reserve(subscribers_.size());
    for (const auto &subscriber : subscribers_) {
        names.push_back(subscriber.name);
    }
    return names;
}

} // namespace starling::core
