// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// What a hook and the resident process that serves it (resident_server.hpp) say to each other over
/// the resident's Unix socket: one request frame, one reply frame, then the connection closes. A
/// frame is its body's length (8 bytes, little-endian host order: both ends are the same binary)
/// and the body. Both ends are the same executable, so the format needs no versioning beyond the
/// magic; a resident of another build is never asked (the fingerprint names the executable).
namespace starling::app::resident {

/// What a hook asks.
enum class RequestKind : std::uint8_t {
    hook = 1,   ///< serve this hook event
    status = 2, ///< say what the resident process has served (`--resident-status`)
    /// run the after-reply stage of this hook's event (from the resident to the process it starts for it)
    after_reply = 3,
};

struct Request {
    RequestKind kind = RequestKind::hook;
    /// What the resident process must have been started with for its cached configuration and
    /// plugins to be this hook's (resident_identity.hpp); a resident with another one declines.
    std::string fingerprint;
    std::string working_directory;
    std::vector<std::string> environment; ///< the hook's, as NAME=value: read while the event runs
    std::vector<std::string> arguments;   ///< after the program name
    std::string payload;
    std::chrono::milliseconds budget_left{0};
    /// For after_reply: the reply stage's injection found the relevance index stale.
    bool relevance_index_stale = false; ///< until the hook's deadline, when it was sent
};

enum class ReplyStatus : std::uint8_t {
    served = 1,   ///< the reply is the event's
    declined = 2, ///< not served, nothing done: the hook runs the event itself
    failed = 3,   ///< the event began and went wrong: the hook gives the safe reply
};

struct Reply {
    ReplyStatus status = ReplyStatus::declined;
    std::int32_t exit_code = 0;
    std::string stdout_text; ///< for the agent (served), or what went wrong (declined, failed)
    std::string stderr_text; ///< what the event wrote to stderr, for the hook's stderr
    /// When declined: whether the resident process ends, so that the hook may start another.
    bool ending = false;
    /// Whether the resident logged the event's prompt (or found the store unwritable trying): the
    /// hook logs it itself only when not, so that it is never lost and, but for a resident killed
    /// between logging and replying, never logged twice.
    bool prompt_logged = false;
};

[[nodiscard]] std::string encode(const Request &request);
[[nodiscard]] std::string encode(const Reply &reply);
/// Throw std::runtime_error naming the field that is cut short or malformed.
[[nodiscard]] Request decode_request(std::string_view body);
[[nodiscard]] Reply decode_reply(std::string_view body);

/// Writes `body` as one frame to a socket. False when the descriptor fails or `deadline` passes first.
[[nodiscard]] bool send_frame(int descriptor, std::string_view body, std::chrono::steady_clock::time_point deadline);

/// One frame's body. Throws std::runtime_error saying what happened: the other end closed before
/// the frame was whole, `deadline` passed, or the frame is larger than `max_bytes`.
[[nodiscard]] std::string receive_frame(int descriptor, std::chrono::steady_clock::time_point deadline,
                                        std::size_t max_bytes);

/// The frame a crash handler writes: async-signal-safe, into a buffer it owns. Returns the bytes
/// used, or 0 when `capacity` is too small.
std::size_t failure_frame(const char *message, std::size_t message_size, bool prompt_logged, char *buffer,
                          std::size_t capacity) noexcept;

} // namespace starling::app::resident
