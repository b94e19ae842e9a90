// SPDX-License-Identifier: Apache-2.0
#include "resident_protocol.hpp"

#include "descriptor_io.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <span>
#include <stdexcept>

namespace starling::app::resident {

namespace {

constexpr std::uint32_t kRequestMagic = 0x51484c53; // "SLHQ"
constexpr std::uint32_t kReplyMagic = 0x50484c53;   // "SLHP"

class Writer {
public:
    template <class Number>
    void number(Number value) {
        char bytes[sizeof value];
        std::memcpy(bytes, &value, sizeof value);
        out_.append(bytes, sizeof value);
    }
    void text(std::string_view value) {
        number<std::uint64_t>(value.size());
        out_.append(value);
    }
    void texts(const std::vector<std::string> &values) {
        number<std::uint64_t>(values.size());
        for (const auto &value : values) {
            text(value);
        }
    }
    [[nodiscard]] std::string take() { return std::move(out_); }

private:
    std::string out_;
};

class Reader {
public:
    Reader(std::string_view body, const char *what) : body_(body), what_(what) {}

    template <class Number>
    Number number(const char *field) {
        Number value{};
        need(sizeof value, field);
        std::memcpy(&value, body_.data() + at_, sizeof value);
        at_ += sizeof value;
        return value;
    }
    std::string text(const char *field) {
        const auto size = number<std::uint64_t>(field);
        need(size, field);
        std::string value{body_.substr(at_, size)};
        at_ += size;
        return value;
    }
    std::vector<std::string> texts(const char *field) {
        const auto count = number<std::uint64_t>(field);
        // Each text takes at least its length: a count beyond that is malformed, not a reason to allocate.
        if (count > (body_.size() - at_) / sizeof(std::uint64_t)) {
            fail(field, "claims " + std::to_string(count) + " texts");
        }
        std::vector<std::string> values;
        values.reserve(count);
        for (std::uint64_t index = 0; index < count; ++index) {
            values.push_back(text(field));
        }
        return values;
    }
    void end() {
        if (at_ != body_.size()) {
            fail("its end", std::to_string(body_.size() - at_) + " bytes follow it");
        }
    }
    [[noreturn]] void fail(const char *field, const std::string &problem) const {
        throw std::runtime_error(std::string{what_} + ": " + field + " at byte " + std::to_string(at_) + " " +
                                 problem);
    }

private:
    void need(std::uint64_t size, const char *field) const {
        if (size > body_.size() - at_) {
            fail(field, "is cut short (" + std::to_string(size) + " bytes needed, " +
                            std::to_string(body_.size() - at_) + " left)");
        }
    }

    std::string_view body_;
    const char *what_;
    std::size_t at_ = 0;
};

} // namespace

std::string encode(const Request &request) {
    Writer writer;
    writer.number(kRequestMagic);
    writer.number(static_cast<std::uint8_t>(request.kind));
    writer.text(request.fingerprint);
    writer.text(request.working_directory);
    writer.texts(request.environment);
    writer.texts(request.arguments);
    writer.text(request.payload);
    writer.number<std::int64_t>(request.budget_left.count());
    writer.number<std::uint8_t>(request.relevance_index_stale ? 1 : 0);
    return writer.take();
}

std::string encode(const Reply &reply) {
    Writer writer;
    writer.number(kReplyMagic);
    writer.number(static_cast<std::uint8_t>(reply.status));
    writer.number(reply.exit_code);
    writer.text(reply.stdout_text);
    writer.text(reply.stderr_text);
    writer.number<std::uint8_t>(reply.ending ? 1 : 0);
    writer.number<std::uint8_t>(reply.prompt_logged ? 1 : 0);
    return writer.take();
}

Request decode_request(std::string_view body) {
    Reader reader{body, "resident hook request"};
    if (reader.number<std::uint32_t>("the magic number") != kRequestMagic) {
        reader.fail("the magic number", "is not a hook request's");
    }
    Request request;
    const auto kind = reader.number<std::uint8_t>("the kind");
    if (kind < static_cast<std::uint8_t>(RequestKind::hook) || kind > static_cast<std::uint8_t>(RequestKind::after_reply)) {
        reader.fail("the kind", "is " + std::to_string(kind) + ", not a hook (1), a status (2) or an after-reply (3)");
    }
    request.kind = static_cast<RequestKind>(kind);
    request.fingerprint = reader.text("the fingerprint");
    request.working_directory = reader.text("the working directory");
    request.environment = reader.texts("the environment");
    request.arguments = reader.texts("the arguments");
    request.payload = reader.text("the payload");
    request.budget_left = std::chrono::milliseconds{reader.number<std::int64_t>("the budget left")};
    request.relevance_index_stale = reader.number<std::uint8_t>("the stale-index flag") != 0;
    reader.end();
    return request;
}

Reply decode_reply(std::string_view body) {
    Reader reader{body, "resident hook reply"};
    if (reader.number<std::uint32_t>("the magic number") != kReplyMagic) {
        reader.fail("the magic number", "is not a hook reply's");
    }
    Reply reply;
    const auto status = reader.number<std::uint8_t>("the status");
    if (status < static_cast<std::uint8_t>(ReplyStatus::served) || status > static_cast<std::uint8_t>(ReplyStatus::failed)) {
        reader.fail("the status", "is " + std::to_string(status) + ", not 1 (served), 2 (declined) or 3 (failed)");
    }
    reply.status = static_cast<ReplyStatus>(status);
    reply.exit_code = reader.number<std::int32_t>("the exit code");
    reply.stdout_text = reader.text("the reply text");
    reply.stderr_text = reader.text("the stderr text");
    reply.ending = reader.number<std::uint8_t>("the ending flag") != 0;
    reply.prompt_logged = reader.number<std::uint8_t>("the prompt-logged flag") != 0;
    reader.end();
    return reply;
}

namespace {

/// Waits until `descriptor` is ready for `events`; false when `deadline` passes first or poll fails.
bool wait_ready(int descriptor, short events, std::chrono::steady_clock::time_point deadline) {
    while (true) {
        const auto remaining =
            std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (remaining <= 0) {
            return false;
        }
        pollfd ready{descriptor, events, 0};
        const int polled = ::poll(&ready, 1, static_cast<int>(remaining));
        if (polled < 0 && errno == EINTR) {
            continue;
        }
        return polled > 0;
    }
}

} // namespace

bool send_frame(int descriptor, std::string_view body, std::chrono::steady_clock::time_point deadline) {
    const std::uint64_t length = body.size();
    std::array<char, sizeof length> header{};
    std::memcpy(header.data(), &length, sizeof length);
    std::array<iovec, 2> parts{iovec{header.data(), header.size()},
                               iovec{const_cast<char *>(body.data()), body.size()}};
    std::span<iovec> left{parts};
    while (!left.empty()) {
        // Non-blocking: a peer that stops reading must not hold this end past its deadline; and one
        // that has gone must not end this process with SIGPIPE.
        msghdr message{};
        message.msg_iov = left.data();
        message.msg_iovlen = left.size();
        const ssize_t written = ::sendmsg(descriptor, &message, MSG_NOSIGNAL);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written < 0 && (errno == EAGAIN)) {
            if (!wait_ready(descriptor, POLLOUT, deadline)) {
                return false;
            }
            continue;
        }
        if (written <= 0) {
            return false;
        }
        drop_written(left, static_cast<std::size_t>(written));
    }
    return true;
}

std::string receive_frame(int descriptor, std::chrono::steady_clock::time_point deadline, std::size_t max_bytes) {
    std::string received;
    std::optional<std::uint64_t> length;
    std::array<char, 65536> buffer;
    while (!length || received.size() < sizeof(std::uint64_t) + *length) {
        const ssize_t count = ::read(descriptor, buffer.data(), buffer.size());
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count < 0 && (errno == EAGAIN)) {
            if (!wait_ready(descriptor, POLLIN, deadline)) {
                throw std::runtime_error("no whole frame before the deadline (" + std::to_string(received.size()) +
                                         " bytes received)");
            }
            continue;
        }
        if (count < 0) {
            throw std::runtime_error(std::string{"cannot read: "} + std::strerror(errno));
        }
        if (count == 0) {
            throw std::runtime_error("the other end closed after " + std::to_string(received.size()) +
                                     " bytes, before the frame was whole");
        }
        received.append(buffer.data(), static_cast<std::size_t>(count));
        if (!length && received.size() >= sizeof(std::uint64_t)) {
            length.emplace();
            std::memcpy(&*length, received.data(), sizeof *length);
            if (*length > max_bytes) {
                throw std::runtime_error("a frame of " + std::to_string(*length) + " bytes is over the limit of " +
                                         std::to_string(max_bytes));
            }
        }
    }
    if (received.size() != sizeof(std::uint64_t) + *length) {
        throw std::runtime_error("bytes follow the frame");
    }
    return received.substr(sizeof(std::uint64_t));
}

std::size_t failure_frame(const char *message, std::size_t message_size, bool prompt_logged, char *buffer,
                          std::size_t capacity) noexcept {
    constexpr std::size_t fixed = sizeof(std::uint64_t) + sizeof kReplyMagic + 1 + sizeof(std::int32_t) +
                                  2 * sizeof(std::uint64_t) + 2;
    if (capacity < fixed + message_size) {
        return 0;
    }
    char *at = buffer;
    const auto put = [&at](const void *data, std::size_t size) {
        std::memcpy(at, data, size);
        at += size;
    };
    const std::uint64_t body = fixed - sizeof(std::uint64_t) + message_size;
    const std::uint8_t status = static_cast<std::uint8_t>(ReplyStatus::failed);
    const std::int32_t exit_code = 0;
    const std::uint64_t text_size = message_size;
    const std::uint64_t no_stderr = 0;
    const std::uint8_t ending = 1;
    const std::uint8_t logged = prompt_logged ? 1 : 0;
    put(&body, sizeof body);
    put(&kReplyMagic, sizeof kReplyMagic);
    put(&status, sizeof status);
    put(&exit_code, sizeof exit_code);
    put(&text_size, sizeof text_size);
    put(message, message_size);
    put(&no_stderr, sizeof no_stderr);
    put(&ending, sizeof ending);
    put(&logged, sizeof logged);
    return static_cast<std::size_t>(at - buffer);
}

} // namespace starling::app::resident
