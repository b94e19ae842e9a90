// SPDX-License-Identifier: Apache-2.0
//
// What kind of prompt a user typed, as far as injection cares. A general question — how something
// works, what tells two things apart, "explain …" — is about the world, not about the user's setup:
// "how does Kafka guarantee ordering within a partition?" shares "Kafka" with "local Kafka is
// Redpanda on localhost:19092", but the answer needs none of it. Unless the prompt asks about the
// user's own things ("how does our deploy work?"), such a prompt is held to a higher threshold
// (InjectionSettings::question_relevance). Cues in English, German and Chinese.
#pragma once

#include <string_view>

namespace starling::core {

/// Whether `prompt` is a general question (above) that says nothing of the user's own setup
/// ("our", "we", "my", "unser", "wir", "我们", …).
[[nodiscard]] bool is_general_question(std::string_view prompt);

} // namespace starling::core
