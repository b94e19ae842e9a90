// SPDX-License-Identifier: Apache-2.0
//
// Batches of stored rules for the triples policies, built by hand: a memory's triple, kind, id,
// links and conflict flag go into its ABI 1.4 fields as the host would put them there.
#pragma once

#include <starling/plugins/plugin_registry.hpp>
#include <starling/sdk/abi.h>
#include <starling/sdk/abi_layout.h>
#include <starling/sdk/bytes.hpp>

#include "support/quiet_logger.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace starling::test {

class RuleMemories {
public:
    struct Rule {
        std::string id{};
        std::string kind{}; ///< empty: the memory carries no triple
        std::string subject{};
        std::string predicate{};
        std::string object{};
        std::int64_t stated = 0; ///< last_accessed
        std::uint32_t access_count = 0;
        std::string tags{}; ///< '\n'-separated
        std::vector<std::string> links{};
        std::vector<std::string> conflict{};
        std::string project = "p1"; ///< empty: a user memory
    };

    /// `before_1_4`: views as a host older than ABI 1.4 passes them, without id and fields.
    explicit RuleMemories(std::int64_t now, bool before_1_4 = false) : now_(now), before_1_4_(before_1_4) {}
    RuleMemories(const RuleMemories &) = delete;
    RuleMemories &operator=(const RuleMemories &) = delete;

    RuleMemories &add(Rule rule) {
        Stored stored;
        stored.key = (rule.project.empty() ? std::string{"memory/user"} : "memory/projects/" + rule.project) +
                     "/short/" + rule.id + ".md";
        stored.scope = rule.project.empty() ? "user" : "project";
        stored.id = rule.id;
        stored.tags = rule.tags;
        nlohmann::json fields = nlohmann::json::object();
        if (!rule.kind.empty()) {
            fields["kind"] = rule.kind;
            fields["subject"] = rule.subject;
            fields["predicate"] = rule.predicate;
            fields["object"] = rule.object;
            fields["source"] = "user_direct";
        }
        if (!rule.links.empty()) {
            fields["links"] = rule.links;
        }
        if (rule.conflict.size() == 1) {
            fields["conflict"] = rule.conflict.front();
        } else if (!rule.conflict.empty()) {
            fields["conflict"] = rule.conflict;
        }
        stored.fields = fields.dump();
        memories_.push_back(std::move(stored));
        const Stored &kept = memories_.back();
        starling_memory_view view{};
        view.struct_size = before_1_4_ ? STARLING_MEMORY_VIEW_SIZE_1_0 : sizeof(starling_memory_view);
        view.key = sdk::as_bytes(kept.key);
        view.scope = sdk::as_bytes(kept.scope);
        view.tier = sdk::as_bytes(std::string_view{"short"});
        view.type = sdk::as_bytes(std::string_view{"feedback"});
        view.summary = sdk::as_bytes(kept.id);
        view.tags = sdk::as_bytes(kept.tags);
        view.created = rule.stated;
        view.last_accessed = rule.stated;
        view.access_count = rule.access_count;
        view.session_count = 1;
        view.id = sdk::as_bytes(kept.id);
        view.fields = sdk::as_bytes(kept.fields);
        views_.push_back(view);
        return *this;
    }

    /// The key of the memory with this id.
    [[nodiscard]] std::string key(const std::string &id) const {
        for (const auto &memory : memories_) {
            if (memory.id == id) {
                return memory.key;
            }
        }
        return {};
    }

    const starling_memory_batch &batch() {
        pointers_.clear();
        for (const auto &view : views_) {
            pointers_.push_back(&view);
        }
        batch_ = starling_memory_batch{sizeof(starling_memory_batch), 0, now_, pointers_.size(), pointers_.data()};
        return batch_;
    }

private:
    struct Stored {
        std::string key, scope, id, tags, fields;
    };
    std::int64_t now_;
    bool before_1_4_;
    std::deque<Stored> memories_;
    std::deque<starling_memory_view> views_;
    std::vector<const starling_memory_view *> pointers_;
    starling_memory_batch batch_{};
};

/// The registry of the plugins linked into the test binary, for creating the triples policies.
inline plugins::PluginRegistry &linked_plugins() {
    struct Linked {
        Linked() { registry.add_static_plugins(plugins::linked_static_plugins()); }
        plugins::PluginRegistry registry{quiet_logger()};
    };
    static Linked linked;
    return linked.registry;
}

/// A plugin's declared default settings.
inline std::string default_settings_of(const std::string &id) {
    return linked_plugins().find(id)->default_settings_json;
}

} // namespace starling::test
