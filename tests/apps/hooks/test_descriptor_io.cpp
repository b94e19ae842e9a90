// SPDX-License-Identifier: Apache-2.0
#include "apps/hooks/descriptor_io.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <string>
#include <thread>

namespace {

/// Everything written to a pipe by `write`, read as it arrives.
template <class Write>
std::string through_pipe(std::size_t capacity, Write write) {
    std::array<int, 2> ends{};
    REQUIRE(::pipe2(ends.data(), O_CLOEXEC) == 0);
    if (capacity > 0) {
        REQUIRE(::fcntl(ends[1], F_SETPIPE_SZ, static_cast<int>(capacity)) >= 0);
    }
    std::thread writer{[&] {
        write(ends[1]);
        ::close(ends[1]);
    }};
    std::string received;
    std::array<char, 1000> buffer{};
    for (ssize_t got; (got = ::read(ends[0], buffer.data(), buffer.size())) > 0;) {
        received.append(buffer.data(), static_cast<std::size_t>(got));
    }
    writer.join();
    ::close(ends[0]);
    return received;
}

} // namespace

TEST_CASE("writing parts writes them all in order, however the descriptor cuts the writes", "[hooks]") {
    const std::string header = "0123456789ab";
    std::string body;
    for (int index = 0; index < 30000; ++index) {
        body.push_back(static_cast<char>('a' + index % 26));
    }
    for (const std::size_t capacity : {std::size_t{0}, std::size_t{4096}}) { // 4096: a write is cut many times
        INFO("pipe capacity " << capacity);
        const auto received = through_pipe(capacity, [&](int descriptor) {
            std::array<iovec, 2> parts{iovec{const_cast<char *>(header.data()), header.size()},
                                       iovec{body.data(), body.size()}};
            starling::app::write_all(descriptor, parts);
        });
        CHECK(received == header + body);
    }
}

TEST_CASE("writing parts skips an empty part and stops at a closed descriptor", "[hooks]") {
    const std::string header = "header";
    std::string empty;
    const auto received = through_pipe(0, [&](int descriptor) {
        std::array<iovec, 2> parts{iovec{const_cast<char *>(header.data()), header.size()}, iovec{empty.data(), 0}};
        starling::app::write_all(descriptor, parts);
    });
    CHECK(received == header);

    std::array<int, 2> ends{};
    REQUIRE(::pipe2(ends.data(), O_CLOEXEC) == 0);
    ::close(ends[0]); // no reader: the write fails (EPIPE) and write_all returns
    const auto previous = ::signal(SIGPIPE, SIG_IGN);
    std::array<iovec, 1> parts{iovec{const_cast<char *>(header.data()), header.size()}};
    starling::app::write_all(ends[1], parts);
    ::signal(SIGPIPE, previous);
    ::close(ends[1]);
}
