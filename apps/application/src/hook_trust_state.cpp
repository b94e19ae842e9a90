// SPDX-License-Identifier: Apache-2.0
#include <starling/app/hook_trust_state.hpp>

#include <starling/app/sha256.hpp>

#include <cctype>
#include <cstdio>

namespace starling::app {

namespace {

/// A TOML basic string (between double quotes), as the agent's own TOML writer quotes a key.
std::string toml_quoted(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        switch (c) {
        case '"': quoted += "\\\""; break;
        case '\\': quoted += "\\\\"; break;
        case '\b': quoted += "\\b"; break;
        case '\t': quoted += "\\t"; break;
        case '\n': quoted += "\\n"; break;
        case '\f': quoted += "\\f"; break;
        case '\r': quoted += "\\r"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(static_cast<unsigned char>(c)));
                quoted += escaped;
            } else {
                quoted += c;
            }
        }
    }
    return quoted + "\"";
}

std::string header_of(std::string_view key) { return "[hooks.state." + toml_quoted(key) + "]"; }

std::string_view trimmed(std::string_view line) {
    const auto first = line.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return {};
    }
    return line.substr(first, line.find_last_not_of(" \t\r\n") - first + 1);
}

/// The file as lines, each with its line break.
std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        const auto stop = end == std::string::npos ? text.size() : end + 1;
        lines.push_back(text.substr(start, stop - start));
        start = stop;
    }
    return lines;
}

std::string joined(const std::vector<std::string> &lines) {
    std::string text;
    for (const auto &line : lines) {
        text += line;
    }
    return text;
}

bool is_table_header(std::string_view line) { return trimmed(line).starts_with("["); }

/// The lines [first, last) of the table `key`, header included; none when the file has no such table.
std::optional<std::pair<std::size_t, std::size_t>> table_of(const std::vector<std::string> &lines,
                                                            std::string_view key) {
    const auto header = header_of(key);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (trimmed(lines[i]) != header) {
            continue;
        }
        std::size_t end = i + 1;
        while (end < lines.size() && !is_table_header(lines[end])) {
            ++end;
        }
        return std::pair{i, end};
    }
    return std::nullopt;
}

bool is_trusted_hash_line(std::string_view line) {
    const auto content = trimmed(line);
    if (!content.starts_with("trusted_hash")) {
        return false;
    }
    const auto rest = trimmed(content.substr(std::string_view{"trusted_hash"}.size()));
    return rest.starts_with("=");
}

std::string trusted_hash_line(std::string_view hash) { return "trusted_hash = " + toml_quoted(hash) + "\n"; }

} // namespace

std::string snake_case_event(std::string_view event) {
    std::string snake;
    for (std::size_t i = 0; i < event.size(); ++i) {
        const auto c = static_cast<unsigned char>(event[i]);
        if (std::isupper(c) != 0) {
            if (i > 0) {
                snake += '_';
            }
            snake += static_cast<char>(std::tolower(c));
        } else {
            snake += static_cast<char>(c);
        }
    }
    return snake;
}

std::string trust_key(std::string_view hooks_file, std::string_view event, std::size_t group, std::size_t hook) {
    return std::string{hooks_file} + ":" + snake_case_event(event) + ":" + std::to_string(group) + ":" +
           std::to_string(hook);
}

std::string trusted_hook_hash(std::string_view event, const std::optional<std::string> &matcher,
                              const nlohmann::json &handler, const nlohmann::json &handler_defaults) {
    // nlohmann::json keeps object keys sorted, and dump() without indentation is compact: the
    // canonical form the agent hashes.
    nlohmann::json normalized = handler;
    for (const auto &[field, value] : handler_defaults.items()) {
        if (!normalized.contains(field)) {
            normalized[field] = value;
        }
    }
    nlohmann::json identity{{"event_name", snake_case_event(event)}, {"hooks", nlohmann::json::array({normalized})}};
    if (matcher) {
        identity["matcher"] = *matcher;
    }
    return "sha256:" + sha256_hex(identity.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict));
}

std::string with_trusted_hooks(std::string config, const std::vector<TrustedHook> &hooks) {
    for (const auto &hook : hooks) {
        auto lines = lines_of(config);
        if (const auto table = table_of(lines, hook.key)) {
            const auto [first, last] = *table;
            bool set = false;
            for (auto i = first + 1; i < last; ++i) {
                if (is_trusted_hash_line(lines[i])) {
                    lines[i] = trusted_hash_line(hook.hash);
                    set = true;
                }
            }
            if (!set) {
                if (!lines[first].ends_with('\n')) {
                    lines[first] += '\n';
                }
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(first) + 1, trusted_hash_line(hook.hash));
            }
            config = joined(lines);
            continue;
        }
        if (!config.empty() && !config.ends_with('\n')) {
            config += '\n';
        }
        config += (config.empty() ? "" : "\n") + header_of(hook.key) + "\n" + trusted_hash_line(hook.hash);
    }
    return config;
}

std::string without_trusted_hooks(std::string config, const std::vector<std::string> &keys) {
    for (const auto &key : keys) {
        auto lines = lines_of(config);
        const auto table = table_of(lines, key);
        if (!table) {
            continue;
        }
        auto [first, last] = *table;
        if (first > 0 && trimmed(lines[first - 1]).empty()) {
            --first;
        }
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(first), lines.begin() + static_cast<std::ptrdiff_t>(last));
        config = joined(lines);
    }
    return config;
}

std::optional<std::string> recorded_trust(std::string_view config, std::string_view key) {
    const auto lines = lines_of(std::string{config});
    const auto table = table_of(lines, key);
    if (!table) {
        return std::nullopt;
    }
    for (auto i = table->first + 1; i < table->second; ++i) {
        if (!is_trusted_hash_line(lines[i])) {
            continue;
        }
        const auto value = trimmed(trimmed(lines[i]).substr(trimmed(lines[i]).find('=') + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
            return std::string{value.substr(1, value.size() - 2)};
        }
    }
    return std::nullopt;
}

} // namespace starling::app
