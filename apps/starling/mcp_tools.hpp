// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "mcp_protocol.hpp"

#include <starling/app/application.hpp>

#include <filesystem>
#include <string>

namespace starling::app {

/// The memory tools of `starling mcp`, over the configured store: search (an index of what matches,
/// ranked as `starling search` ranks), get (the full memories, noted as used), remember (through
/// the decision policy, as `starling remember`), forget (archived, restorable), pin, and context
/// (what the next session start would show). Few and small, so that their list costs the model
/// little context; progressive disclosure as claude-mem's search, then fetch.
class StoreTools final : public McpTools {
public:
    /// `directory` is the project the agent works in (the server's working directory); `agent`
    /// names who asks, in the memories it stores.
    StoreTools(Application &application, std::filesystem::path directory, std::string agent);

    [[nodiscard]] nlohmann::json list() const override;
    [[nodiscard]] std::optional<ToolResult> call(std::string_view name, const nlohmann::json &arguments) override;

private:
    [[nodiscard]] ToolResult search(const nlohmann::json &arguments);
    [[nodiscard]] ToolResult get(const nlohmann::json &arguments);
    [[nodiscard]] ToolResult remember(const nlohmann::json &arguments);
    [[nodiscard]] ToolResult forget(const nlohmann::json &arguments);
    [[nodiscard]] ToolResult pin(const nlohmann::json &arguments);
    [[nodiscard]] ToolResult context(const nlohmann::json &arguments);
    [[nodiscard]] std::string project();
    [[nodiscard]] std::string session() const;

    Application *application_;
    std::filesystem::path directory_;
    std::string agent_;
};

/// What `starling mcp` tells the model of itself, in initialize and server/discover.
[[nodiscard]] std::string mcp_instructions();

} // namespace starling::app
