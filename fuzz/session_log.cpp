// SPDX-License-Identifier: Apache-2.0
//
// A session's message log and its state journal, read as every hook reads them. Whatever a killed
// writer, an older version or a stray editor left there, reading skips what does not parse and
// throws nothing.
#include "scratch_directory.hpp"

#include <starling/core/lifecycle/session_log.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const starling::fuzz::ScratchDirectory scratch;
    const starling::core::SessionLog log{scratch.path(), "fuzz-session"};
    const std::string_view bytes = starling::fuzz::as_text(data, size);
    // The same bytes as both files: the two readers share nothing, and each keeps the whole input.
    starling::fuzz::write_bytes(log.log_path(), bytes);
    starling::fuzz::write_bytes(scratch.path() / "fuzz-session.state.jsonl", bytes);
    (void)log.messages();
    (void)log.state();
    return 0;
}
