// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>

namespace starling::app::sharing {

/// Why `starling sync` or `starling share` could not do its work: the message names what failed
/// and where (the remote's URL, the repository's folder, the file and the pattern).
class SharingError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace starling::app::sharing
