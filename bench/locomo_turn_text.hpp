// SPDX-License-Identifier: Apache-2.0
//
// How a LoCoMo turn reads as text, for both ways the benchmark makes memories of turns.
#pragma once

#include "locomo_data.hpp"

#include <chrono>
#include <string>
#include <string_view>

namespace starling::bench {

/// "1:56 pm on 8 May, 2023" → "8 May, 2023": the day a session took place, as a person noting it
/// would write it.
[[nodiscard]] std::string_view session_date(std::string_view date_time);

/// "1:56 pm on 8 May, 2023" → 2023-05-08T13:56:00Z: when a session took place, read as UTC. Throws
/// std::invalid_argument naming the text when it is not of that form.
[[nodiscard]] std::chrono::sys_seconds session_time(std::string_view date_time);

/// What a turn says, with the caption of the photo it shares: the photo is often what the turn is
/// about ("Look at this!"), and the caption the only words that name it.
[[nodiscard]] std::string said_and_shown(const LocomoTurn &turn);

} // namespace starling::bench
