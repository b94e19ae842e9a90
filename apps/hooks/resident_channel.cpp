// SPDX-License-Identifier: Apache-2.0
#include "resident_channel.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace starling::app::resident {

namespace {

/// FNV-1a: stable across runs and builds, which std::hash need not be.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = 0xcbf29ce484222325ULL) {
    for (const unsigned char byte : bytes) {
        hash = (hash ^ byte) * 0x100000001b3ULL;
    }
    return hash;
}

std::string hex(std::uint64_t value) {
    constexpr char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int index = 15; index >= 0; --index, value >>= 4) {
        text[static_cast<std::size_t>(index)] = digits[value & 0xf];
    }
    return text;
}

/// A hash of the file's bytes: a configuration rewritten in place within one tick of the file
/// system's clock keeps its stamp, not its bytes.
std::string content_hash_of(const std::filesystem::path &file) {
    const int descriptor = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (descriptor < 0) {
        return errno == ENOENT ? "absent" : std::string{"unreadable "} + std::strerror(errno);
    }
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    std::array<char, 16384> buffer;
    std::uint64_t total = 0;
    while (true) {
        const ssize_t count = ::read(descriptor, buffer.data(), buffer.size());
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count <= 0) {
            break;
        }
        hash = fnv1a(std::string_view{buffer.data(), static_cast<std::size_t>(count)}, hash);
        total += static_cast<std::uint64_t>(count);
    }
    ::close(descriptor);
    return std::to_string(total) + ':' + hex(hash);
}

} // namespace

std::string file_stamp(const std::filesystem::path &file) {
    struct stat status {};
    if (::stat(file.c_str(), &status) != 0) {
        return "absent";
    }
    return std::to_string(status.st_dev) + ':' + std::to_string(status.st_ino) + ':' +
           std::to_string(status.st_size) + ':' + std::to_string(status.st_mtim.tv_sec) + '.' +
           std::to_string(status.st_mtim.tv_nsec);
}

std::filesystem::path own_executable() {
    std::array<char, 4096> target{};
    const ssize_t length = ::readlink("/proc/self/exe", target.data(), target.size() - 1);
    if (length <= 0) {
        throw std::runtime_error(std::string{"cannot read /proc/self/exe: "} + std::strerror(errno));
    }
    return std::filesystem::path{std::string{target.data(), static_cast<std::size_t>(length)}};
}

Identity identity_of(Application &application, std::string_view adapter_id) {
    const auto executable = own_executable();
    const auto &environment = application.environment();
    const auto config_file = application.config_file().value_or(core::default_config_file(environment));
    const auto &store_root = application.config().store.root;
    Identity identity;
    identity.key = hex(fnv1a(executable.string() + '\n' + std::string{adapter_id} + '\n' + store_root.string()));
    identity.fingerprint = "executable " + executable.string() + ' ' + file_stamp(executable) + "\nconfiguration " +
                           config_file.string() + ' ' + content_hash_of(config_file) + "\nhome " +
                           environment.home_dir.string() + "\nstarling home " +
                           environment.starling_home.value_or("").string() + "\nstore " + store_root.string();
    return identity;
}

std::filesystem::path socket_directory() {
    std::filesystem::path directory;
    const char *runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime != nullptr && runtime[0] == '/') {
        directory = std::filesystem::path{runtime} / "starling";
    } else {
        directory = "/tmp/starling-" + std::to_string(::geteuid());
    }
    if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST) {
        throw std::runtime_error("cannot create " + directory.string() + ": " + std::strerror(errno));
    }
    struct stat status {};
    if (::lstat(directory.c_str(), &status) != 0) {
        throw std::runtime_error("cannot read " + directory.string() + ": " + std::strerror(errno));
    }
    if (!S_ISDIR(status.st_mode)) {
        throw std::runtime_error(directory.string() + " is not a directory");
    }
    if (status.st_uid != ::geteuid()) {
        throw std::runtime_error(directory.string() + " belongs to user " + std::to_string(status.st_uid) +
                                 ", not to this user (" + std::to_string(::geteuid()) + ")");
    }
    if ((status.st_mode & 077) != 0) {
        throw std::runtime_error(directory.string() + " lets other users in (mode " +
                                 std::to_string((status.st_mode >> 6) & 7) + std::to_string((status.st_mode >> 3) & 7) +
                                 std::to_string(status.st_mode & 7) + "); it must be 700");
    }
    return directory;
}

std::filesystem::path socket_path(const std::filesystem::path &directory, std::string_view key) {
    return directory / ("hooks-" + std::string{key} + ".sock");
}

} // namespace starling::app::resident
