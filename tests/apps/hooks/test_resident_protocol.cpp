// SPDX-License-Identifier: Apache-2.0
#include "apps/hooks/resident_channel.hpp"
#include "apps/hooks/resident_protocol.hpp"

#include "support/scoped_environment.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace resident = starling::app::resident;
using namespace std::chrono_literals;

namespace {

resident::Request sample_request() {
    resident::Request request;
    request.fingerprint = "executable /bin/x 1:2:3:4.5\nconfiguration /h/starling.toml absent";
    request.working_directory = "/work/app";
    request.environment = {"HOME=/home/a", "STARLING_NOW=2026-11-22T09:00:00Z", "EMPTY="};
    request.arguments = {"UserPromptSubmit"};
    request.payload = R"({"prompt":"push this fix"})";
    request.budget_left = 795ms;
    request.relevance_index_stale = true;
    return request;
}

/// Both ends of a connected Unix socket pair, closed at the end of the test.
struct SocketPair {
    std::array<int, 2> ends{-1, -1};
    SocketPair() { REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, ends.data()) == 0); }
    ~SocketPair() {
        for (const int end : ends) {
            if (end >= 0) {
                ::close(end);
            }
        }
    }
    void close(int index) {
        ::close(ends[index]);
        ends[index] = -1;
    }
};

} // namespace

TEST_CASE("a resident hook request and reply read back as they were written", "[resident]") {
    const auto request = resident::decode_request(resident::encode(sample_request()));
    CHECK(request.kind == resident::RequestKind::hook);
    CHECK(request.fingerprint == sample_request().fingerprint);
    CHECK(request.working_directory == "/work/app");
    CHECK(request.environment == sample_request().environment);
    CHECK(request.arguments == std::vector<std::string>{"UserPromptSubmit"});
    CHECK(request.payload == sample_request().payload);
    CHECK(request.budget_left == 795ms);
    CHECK(request.relevance_index_stale);
    auto after_reply = sample_request();
    after_reply.kind = resident::RequestKind::after_reply;
    CHECK(resident::decode_request(resident::encode(after_reply)).kind == resident::RequestKind::after_reply);

    const resident::Reply written{resident::ReplyStatus::declined, 2, "why", "starling: warning\n", true, true};
    const auto reply = resident::decode_reply(resident::encode(written));
    CHECK(reply.status == resident::ReplyStatus::declined);
    CHECK(reply.exit_code == 2);
    CHECK(reply.stdout_text == "why");
    CHECK(reply.stderr_text == "starling: warning\n");
    CHECK(reply.ending);
    CHECK(reply.prompt_logged);
}

TEST_CASE("a resident hook request cut short or malformed is refused, naming the field", "[resident]") {
    const auto body = resident::encode(sample_request());
    for (std::size_t size = 0; size < body.size(); ++size) {
        INFO(size);
        CHECK_THROWS_AS(resident::decode_request(body.substr(0, size)), std::runtime_error);
    }
    CHECK_THROWS_WITH(resident::decode_request(body.substr(0, 10)), Catch::Contains("the fingerprint") &&
                                                                        Catch::Contains("cut short"));
    CHECK_THROWS_WITH(resident::decode_request(body + "x"), Catch::Contains("1 bytes follow"));
    auto wrong_magic = body;
    wrong_magic[0] = 'X';
    CHECK_THROWS_WITH(resident::decode_request(wrong_magic), Catch::Contains("magic number"));
    auto wrong_kind = body;
    wrong_kind[4] = 9;
    CHECK_THROWS_WITH(resident::decode_request(wrong_kind), Catch::Contains("the kind") && Catch::Contains("is 9"));
    // A reply is not a request.
    CHECK_THROWS_WITH(resident::decode_request(resident::encode(resident::Reply{})), Catch::Contains("magic number"));
    auto bad_status = resident::encode(resident::Reply{});
    bad_status[4] = 7;
    CHECK_THROWS_WITH(resident::decode_reply(bad_status), Catch::Contains("the status") && Catch::Contains("is 7"));
}

TEST_CASE("frames cross a socket whole, however large, and every way they fail is said", "[resident]") {
    SECTION("a large frame, read as it arrives") {
        SocketPair pair;
        std::string body(3u << 20, 'p');
        body.front() = 'a';
        body.back() = 'z';
        std::thread writer{[&] { CHECK(resident::send_frame(pair.ends[0], body, std::chrono::steady_clock::now() + 10s)); }};
        const auto received = resident::receive_frame(pair.ends[1], std::chrono::steady_clock::now() + 10s, 4u << 20);
        writer.join();
        CHECK(received == body);
    }
    SECTION("the other end closes before the frame is whole") {
        SocketPair pair;
        const std::string half{"\x10\0\0\0\0\0\0\0abc", 11};
        REQUIRE(::write(pair.ends[0], half.data(), half.size()) == static_cast<ssize_t>(half.size()));
        pair.close(0);
        CHECK_THROWS_WITH(resident::receive_frame(pair.ends[1], std::chrono::steady_clock::now() + 1s, 100),
                          Catch::Contains("closed after 11 bytes"));
    }
    SECTION("a frame over the limit") {
        SocketPair pair;
        REQUIRE(resident::send_frame(pair.ends[0], std::string(200, 'x'), std::chrono::steady_clock::now() + 1s));
        CHECK_THROWS_WITH(resident::receive_frame(pair.ends[1], std::chrono::steady_clock::now() + 1s, 100),
                          Catch::Contains("200 bytes is over the limit of 100"));
    }
    SECTION("nothing before the deadline") {
        SocketPair pair;
        CHECK_THROWS_WITH(resident::receive_frame(pair.ends[1], std::chrono::steady_clock::now() + 20ms, 100),
                          Catch::Contains("deadline"));
    }
    SECTION("a peer that has gone: no SIGPIPE, false") {
        SocketPair pair;
        pair.close(1);
        CHECK_FALSE(resident::send_frame(pair.ends[0], "hello", std::chrono::steady_clock::now() + 1s));
    }
}

TEST_CASE("the frame a crashing resident writes reads as a failure that says what happened", "[resident]") {
    const std::string message = "the resident hook process crashed with fatal signal 11 in plugin call `rank` of bm25";
    std::array<char, 640> buffer{};
    const auto size = resident::failure_frame(message.data(), message.size(), true, buffer.data(), buffer.size());
    REQUIRE(size > 0);
    SocketPair pair;
    REQUIRE(::write(pair.ends[0], buffer.data(), size) == static_cast<ssize_t>(size));
    const auto reply =
        resident::decode_reply(resident::receive_frame(pair.ends[1], std::chrono::steady_clock::now() + 1s, 1000));
    CHECK(reply.status == resident::ReplyStatus::failed);
    CHECK(reply.stdout_text == message);
    CHECK(reply.stderr_text.empty());
    CHECK(reply.prompt_logged);
    CHECK(resident::failure_frame(message.data(), message.size(), false, buffer.data(), 20) == 0);
}

TEST_CASE("the resident's socket folder is made private, and one others can enter is refused", "[resident]") {
    const starling::test::TempDir runtime;
    const starling::test::ScopedEnvironment variable{"XDG_RUNTIME_DIR", runtime.path().string()};
    SECTION("made with mode 700") {
        const auto folder = resident::socket_directory();
        CHECK(folder == runtime.path() / "starling");
        struct stat status {};
        REQUIRE(::stat(folder.c_str(), &status) == 0);
        CHECK((status.st_mode & 0777) == 0700);
        CHECK(resident::socket_path(folder, "abc") == folder / "hooks-abc.sock");
    }
    SECTION("one others can enter") {
        std::filesystem::create_directory(runtime.path() / "starling");
        ::chmod((runtime.path() / "starling").c_str(), 0755);
        CHECK_THROWS_WITH(resident::socket_directory(), Catch::Contains("lets other users in (mode 755)"));
    }
    SECTION("a symbolic link in its place") {
        std::filesystem::create_directory(runtime.path() / "elsewhere");
        std::filesystem::create_directory_symlink(runtime.path() / "elsewhere", runtime.path() / "starling");
        CHECK_THROWS_WITH(resident::socket_directory(), Catch::Contains("is not a directory"));
    }
}
