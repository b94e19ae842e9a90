// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/outgoing_check.hpp>
#include <starling/app/sharing/sharing_error.hpp>
#include <starling/app/sharing/wire_memory.hpp>

#include <algorithm>

namespace starling::app::sharing {

bool may_leave_machine(const core::Memory &memory) { return !is_private(memory); }

void refuse_secrets(std::string_view text, const std::string &source, const std::string &destination,
                    const core::Redactor &redactor) {
    const auto secrets = redactor.find(text);
    if (secrets.empty()) {
        return;
    }
    const auto &first = secrets.front();
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(first.begin), '\n');
    throw SharingError("refusing to write " + source + " to " + destination + ": line " + std::to_string(line) +
                       " holds a secret (" + first.kind + ")" +
                       (secrets.size() > 1 ? " and " + std::to_string(secrets.size() - 1) + " more" : std::string{}) +
                       "; nothing was shared. Remove it ('starling scan --fix' redacts it) and try again");
}

void refuse_user_scope_in_team_folder(const core::Scope &scope, const std::string &source) {
    if (scope.is_user()) {
        throw SharingError("refusing to put " + source +
                           " in a team folder: it is one of your user memories, and a team shares only a "
                           "project's memories");
    }
}

} // namespace starling::app::sharing
