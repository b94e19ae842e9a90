// SPDX-License-Identifier: Apache-2.0
//
// The access journal (`index/accesses.tsv`), taken as the store takes it before folding uses into
// memory files: lines a killed writer left half-written, or anything else, are skipped.
#include "scratch_directory.hpp"

#include "core/src/store/index/access_journal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const starling::fuzz::ScratchDirectory scratch;
    const auto journal_path = scratch.path() / "accesses.tsv";
    starling::fuzz::write_bytes(journal_path, starling::fuzz::as_text(data, size));
    starling::core::detail::AccessJournal journal{journal_path};
    (void)journal.take();
    journal.finish_taking();
    return 0;
}
