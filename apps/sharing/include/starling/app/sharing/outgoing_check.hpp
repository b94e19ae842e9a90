// SPDX-License-Identifier: Apache-2.0
//
// What is checked before anything is written where others can read it (a sync repository, a
// team folder): `starling sync` and `starling share` both call these, and nothing else decides.
#pragma once

#include <starling/core/redaction/redaction.hpp>
#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/record/scope.hpp>

#include <string>
#include <string_view>

namespace starling::app::sharing {

/// Whether a memory may leave this machine at all: not when it is marked `private: true`.
[[nodiscard]] bool may_leave_machine(const core::Memory &memory);

/// Refuses `text` when it holds a secret: throws SharingError naming `source` (the memory's file),
/// `destination` (where it would have gone), the line and the secret's format, never the secret.
/// Memories are redacted when stored, so this catches what a person or an older version wrote.
void refuse_secrets(std::string_view text, const std::string &source, const std::string &destination,
                    const core::Redactor &redactor);

/// Refuses to put a memory of `scope` into a team folder: a team shares a project's memories,
/// never a user's own.
void refuse_user_scope_in_team_folder(const core::Scope &scope, const std::string &source);

} // namespace starling::app::sharing
