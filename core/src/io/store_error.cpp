// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/store_error.hpp>

#include <cerrno>

#include <cstring>
#include <string>

namespace starling::core {

std::string describe_system_error(const std::filesystem::path &path, std::string_view what,
                                  int error_number) {
    std::string message = path.string();
    message += ": ";
    message += what;
    message += ": ";
    message += std::strerror(error_number);
    return message;
}

void throw_system_error(const std::filesystem::path &path, std::string_view what, int error_number) {
    if (error_number == EROFS || error_number == EACCES || error_number == EPERM) {
        throw StoreNotWritable(describe_system_error(path, what, error_number));
    }
    throw StoreError(describe_system_error(path, what, error_number));
}

} // namespace starling::core
