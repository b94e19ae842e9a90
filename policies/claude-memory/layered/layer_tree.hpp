// SPDX-License-Identifier: Apache-2.0
//
// claude-memory 2.1's layer-selection tree (seed-systems.md §2.2), first match wins, decided from cues
// instead of by the model:
//   a knowledge question                                   → not saved
//   reference: "X can be found at Y", a URL, a ticket id   → reference (a file path: not saved)
//   a struggle solved ("## Solution:", "that didn't work … fixed it") → procedural, with triggers
//   how the agent should work (don't, never, always, should, must, avoid, prefer, use … instead, stop)
//                                                          → procedural
//   code, git history, a debugging fix, ephemeral task state → not saved ("What NOT to save")
//   a timeless fact about the user or the project          → semantic
//   anything else                                          → episodic (work in progress and errors decay sooner)
#pragma once

#include "layered_settings.hpp"

#include <string>
#include <string_view>

namespace starling::layered {

enum class Layer { reference, procedural, semantic, episodic };

[[nodiscard]] std::string_view to_string(Layer layer) noexcept;

struct LayerChoice {
    bool save = true;
    Layer layer = Layer::episodic;
    std::string reason;
    bool solution = false;    ///< a `## Solution:` entry: its symptom's keywords become triggers
    bool short_lived = false; ///< episodic work in progress or an error: the short retention
    bool about_user = false;  ///< told in the first person: a fact about the user, not the project
};

class LayerTree {
public:
    explicit LayerTree(const LayeredSettings &settings) : settings_(&settings) {}

    [[nodiscard]] LayerChoice choose(std::string_view message) const;

private:
    [[nodiscard]] bool holds_code(std::string_view message) const;

    const LayeredSettings *settings_;
};

/// Whether the text holds a ticket id such as "PAY-123": two or more capitals, a hyphen, digits.
[[nodiscard]] bool holds_ticket_id(std::string_view text) noexcept;

/// Whether the text holds a URL (http://, https://, www.).
[[nodiscard]] bool holds_url(std::string_view text) noexcept;

} // namespace starling::layered
