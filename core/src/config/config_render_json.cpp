// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_render.hpp>

#include <toml++/toml.h>

#include <sstream>

namespace starling::core {

std::string render_effective_config_json(const Config &config, std::span<const PluginDefaults> plugins) {
    // From the TOML itself, so that the two forms can never disagree on a value.
    std::ostringstream json;
    json << toml::json_formatter{toml::parse(render_effective_config(config, plugins))};
    return json.str();
}

} // namespace starling::core
