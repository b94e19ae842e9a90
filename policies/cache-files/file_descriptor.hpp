// SPDX-License-Identifier: Apache-2.0
//
// An open file descriptor that closes itself: what the cache files' readers and writers hold.
#pragma once

#include <unistd.h>

#include <utility>

namespace starling::cache_files {

class FileDescriptor {
public:
    explicit FileDescriptor(int descriptor) noexcept : descriptor_(descriptor) {}
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    FileDescriptor(FileDescriptor &&other) noexcept : descriptor_(std::exchange(other.descriptor_, -1)) {}
    FileDescriptor &operator=(FileDescriptor &&other) noexcept {
        if (this != &other) {
            close();
            descriptor_ = std::exchange(other.descriptor_, -1);
        }
        return *this;
    }
    ~FileDescriptor() { close(); }

    [[nodiscard]] int get() const noexcept { return descriptor_; }

private:
    void close() noexcept {
        if (descriptor_ >= 0) {
            ::close(descriptor_);
        }
        descriptor_ = -1;
    }

    int descriptor_;
};

} // namespace starling::cache_files
