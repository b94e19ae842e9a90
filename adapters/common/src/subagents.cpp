// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/subagents.hpp>

namespace starling::adapters {

bool inside_subagent(const Json &fields) { return !first_text_field(fields, {"agent_id", "agentId"}).empty(); }

} // namespace starling::adapters
