// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace starling::app::migration {

/// Whether a frontmatter field is Starling's own bookkeeping, which means nothing to another system
/// and is not exported: the import record, session ids, noted-use batches, captured messages, merge
/// history, injection counts.
[[nodiscard]] bool is_starling_bookkeeping(std::string_view key) noexcept;

} // namespace starling::app::migration
