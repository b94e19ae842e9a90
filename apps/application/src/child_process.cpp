// SPDX-License-Identifier: Apache-2.0
#include <starling/app/child_process.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char **environ;

namespace starling::app {

namespace {

void close_quietly(int &descriptor) {
    if (descriptor >= 0) {
        ::close(descriptor);
        descriptor = -1;
    }
}

std::vector<std::string> child_environment(const ProcessOptions &options) {
    std::vector<std::string> entries;
    for (char **entry = environ; *entry != nullptr; ++entry) {
        const std::string text{*entry};
        const std::string name = text.substr(0, text.find('='));
        bool removed = options.environment.count(name) > 0;
        for (const auto &unset : options.unset_environment) {
            removed = removed || unset == name;
        }
        if (!removed) {
            entries.push_back(text);
        }
    }
    for (const auto &[name, value] : options.environment) {
        entries.push_back(name + "=" + value);
    }
    return entries;
}

} // namespace

ProcessResult run_process(const std::filesystem::path &program, const std::vector<std::string> &arguments,
                          const ProcessOptions &options) {
    std::array<int, 2> in{-1, -1};
    std::array<int, 2> out{-1, -1};
    std::array<int, 2> err{-1, -1};
    if (::pipe2(in.data(), O_CLOEXEC) != 0 || ::pipe2(out.data(), O_CLOEXEC) != 0 ||
        ::pipe2(err.data(), O_CLOEXEC) != 0) {
        throw std::runtime_error(std::string{"pipe: "} + std::strerror(errno));
    }
    std::vector<std::string> argv_text{program.string()};
    argv_text.insert(argv_text.end(), arguments.begin(), arguments.end());
    std::vector<char *> argv;
    for (auto &word : argv_text) {
        argv.push_back(word.data());
    }
    argv.push_back(nullptr);
    auto environment_text = child_environment(options);
    std::vector<char *> envp;
    for (auto &entry : environment_text) {
        envp.push_back(entry.data());
    }
    envp.push_back(nullptr);

    const pid_t child = ::fork();
    if (child < 0) {
        throw std::runtime_error(std::string{"fork: "} + std::strerror(errno));
    }
    if (child == 0) {
        ::dup2(in[0], STDIN_FILENO);
        ::dup2(out[1], STDOUT_FILENO);
        ::dup2(err[1], STDERR_FILENO);
        if (!options.working_directory.empty() && ::chdir(options.working_directory.c_str()) != 0) {
            ::_exit(127);
        }
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    close_quietly(in[0]);
    close_quietly(out[1]);
    close_quietly(err[1]);
    // A blocking write of a large stdin would wait for the child to read it all while the child
    // waits for us to read its output: written without blocking, a piece whenever poll allows.
    ::fcntl(in[1], F_SETFL, ::fcntl(in[1], F_GETFL) | O_NONBLOCK);

    // Feed stdin and drain both outputs together, so a child that writes a lot before reading
    // everything cannot deadlock against us.
    ::signal(SIGPIPE, SIG_IGN);
    ProcessResult result;
    std::size_t written = 0;
    if (options.stdin_text.empty()) {
        close_quietly(in[1]);
    }
    std::array<char, 65536> buffer{};
    while (out[0] >= 0 || err[0] >= 0) {
        std::array<pollfd, 3> watched{{{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {in[1], POLLOUT, 0}}};
        if (::poll(watched.data(), watched.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        for (int index = 0; index < 2; ++index) {
            int &descriptor = index == 0 ? out[0] : err[0];
            std::string &sink = index == 0 ? result.stdout_text : result.stderr_text;
            if (descriptor >= 0 && (watched[static_cast<std::size_t>(index)].revents & (POLLIN | POLLHUP)) != 0) {
                const auto count = ::read(descriptor, buffer.data(), buffer.size());
                if (count > 0) {
                    sink.append(buffer.data(), static_cast<std::size_t>(count));
                } else if (count == 0 || errno != EINTR) {
                    close_quietly(descriptor);
                }
            }
        }
        if (in[1] >= 0 && (watched[2].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
            const auto count = ::write(in[1], options.stdin_text.data() + written, options.stdin_text.size() - written);
            if (count > 0) {
                written += static_cast<std::size_t>(count);
            }
            if ((count < 0 && errno != EAGAIN && errno != EINTR) || written == options.stdin_text.size()) {
                close_quietly(in[1]);
            }
        }
    }
    close_quietly(in[1]);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    return result;
}

} // namespace starling::app
