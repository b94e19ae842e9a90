// SPDX-License-Identifier: Apache-2.0
//
// The LoCoMo conversations (Maharana et al., ACL 2024) as the retrieval benchmark needs them:
// sessions of turns, and questions with their evidence turns. Only the dialogue is read; the
// generated `observation`, `session_summary` and `event_summary` fields are never loaded, since a
// retrieval benchmark over turns must not see summaries of its own answers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace starling::bench {

struct LocomoTurn {
    std::string dia_id; ///< "D<session>:<turn>"
    std::string speaker;
    std::string text;
    std::string image_caption; ///< BLIP caption of a shared image; empty when the turn has none
};

struct LocomoSession {
    int number = 0;
    std::string date_time; ///< as written, e.g. "1:56 pm on 8 May, 2023"
    std::vector<LocomoTurn> turns;
};

struct LocomoQuestion {
    std::string question;
    int category = 0; ///< 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
    std::vector<std::string> evidence; ///< distinct well-formed dia_ids
    std::size_t ignored_evidence = 0;  ///< evidence strings that name no turn ("D", "D:11:26")
};

struct LocomoConversation {
    std::string sample_id;
    std::vector<LocomoSession> sessions; ///< in session order
    std::vector<LocomoQuestion> questions;
};

/// A structural error in the data file: the message names the file and the JSON path of the
/// offending field, e.g. `locomo.json: $[2].qa[15].category: expected an integer from 1 to 5`.
class LocomoDataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reads and checks a LoCoMo file (a JSON array of conversations). Throws LocomoDataError.
/// Evidence lists are read leniently, as the published file needs: "D8:6; D9:17" is two ids, and
/// strings that name no turn are counted in `ignored_evidence` instead of failing the run.
[[nodiscard]] std::vector<LocomoConversation> load_locomo(const std::filesystem::path &data_file);

} // namespace starling::bench
