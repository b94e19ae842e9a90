// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace starling::core {

/// The one exception type of the memory store. Its message always names the file involved (and the
/// line and field for parse errors), so a user can go and fix it.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The store cannot be written here: a read-only file system, or permissions an agent's sandbox
/// denies (EROFS, EACCES, EPERM). What only reads goes on without the write it would have made.
class StoreNotWritable : public StoreError {
public:
    using StoreError::StoreError;
};

/// Builds "<path>: <what>: <strerror(error_number)>" for a failed system call.
[[nodiscard]] std::string describe_system_error(const std::filesystem::path &path, std::string_view what,
                                                int error_number);

/// Throws StoreError with describe_system_error(path, what, error_number): StoreNotWritable when the
/// error says the file system refuses to write there.
[[noreturn]] void throw_system_error(const std::filesystem::path &path, std::string_view what,
                                     int error_number);

} // namespace starling::core
