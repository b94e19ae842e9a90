// SPDX-License-Identifier: Apache-2.0
//
// The end-to-end tests run Starling's binaries with the benchmarks' process runner.
#pragma once

#include "bench/child_process.hpp"

namespace starling::test {

using bench::ProcessOptions;
using bench::ProcessResult;
using bench::run_process;

} // namespace starling::test
