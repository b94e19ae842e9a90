// SPDX-License-Identifier: Apache-2.0
//
// The end-to-end tests run Starling's binaries with the benchmarks' process runner.
#pragma once

#include <starling/app/child_process.hpp>

namespace starling::test {

using app::ProcessOptions;
using app::ProcessResult;
using app::run_process;

} // namespace starling::test
