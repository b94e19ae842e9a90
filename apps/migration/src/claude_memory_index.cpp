// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/claude_memory_index.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <tuple>

namespace starling::app::migration {
namespace {

int rank_in(std::string_view value, std::initializer_list<std::string_view> order) {
    int rank = 0;
    for (const auto item : order) {
        if (item == value) {
            return rank;
        }
        ++rank;
    }
    return rank;
}

int salience_rank(const ClaudeMemoryIndexEntry &entry) { return rank_in(entry.salience, {"high", "medium", "low"}); }

std::string file_name_of(const std::string &path) { return path.substr(path.rfind('/') + 1); }

std::string joined(const std::vector<std::string> &items, std::string_view separator) {
    std::string text;
    for (const auto &item : items) {
        text.append(text.empty() ? "" : separator).append(item);
    }
    return text;
}

} // namespace

std::string claude_memory_summary(std::string_view body, std::size_t max_characters) {
    std::string_view rest = body;
    while (!rest.empty()) {
        const auto end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        while (!line.empty() && (line.front() == '#' || line.front() == ' ' || line.front() == '\t')) {
            line.remove_prefix(1);
        }
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
            line.remove_suffix(1);
        }
        if (line.empty()) {
            continue;
        }
        // Cut at a character boundary: a UTF-8 continuation byte never starts a character.
        std::size_t characters = 0;
        for (std::size_t at = 0; at < line.size(); ++at) {
            if ((static_cast<unsigned char>(line[at]) & 0xC0U) != 0x80U && characters++ == max_characters) {
                return std::string{line.substr(0, at)};
            }
        }
        return std::string{line};
    }
    return {};
}

std::string claude_memory_markdown_index(const std::vector<ClaudeMemoryIndexEntry> &entries) {
    std::vector<const ClaudeMemoryIndexEntry *> sorted;
    for (const auto &entry : entries) {
        sorted.push_back(&entry);
    }
    std::sort(sorted.begin(), sorted.end(), [](const auto *left, const auto *right) {
        const int left_rank = salience_rank(*left);
        const int right_rank = salience_rank(*right);
        return left_rank != right_rank ? left_rank < right_rank
                                       : file_name_of(left->path) < file_name_of(right->path);
    });
    std::string text = "# Memory Index\n";
    for (const auto &[layer, heading] : std::array<std::pair<std::string_view, std::string_view>, 4>{
             {{"semantic", "Semantic"}, {"procedural", "Procedural"}, {"episodic", "Episodic"}, {"reference", "Reference"}}}) {
        text.append("\n## ").append(heading).append("\n");
        for (const auto *entry : sorted) {
            if (entry->layer == layer) {
                text.append("- [").append(file_name_of(entry->path)).append("](").append(entry->path).append(") `");
                text.append(joined(entry->tags, " ")).append("` — ").append(claude_memory_summary(entry->body, 80));
                text.append("\n");
            }
        }
    }
    return text;
}

std::string claude_memory_json_index(const std::vector<ClaudeMemoryIndexEntry> &entries, const std::string &generated) {
    std::vector<const ClaudeMemoryIndexEntry *> sorted;
    for (const auto &entry : entries) {
        sorted.push_back(&entry);
    }
    std::sort(sorted.begin(), sorted.end(), [](const auto *left, const auto *right) {
        const auto key = [](const ClaudeMemoryIndexEntry &entry) {
            return std::make_tuple(salience_rank(entry),
                                   rank_in(entry.layer, {"semantic", "procedural", "reference", "episodic"}),
                                   file_name_of(entry.path));
        };
        return key(*left) < key(*right);
    });
    auto list = nlohmann::ordered_json::array();
    for (const auto *entry : sorted) {
        nlohmann::ordered_json item{{"path", entry->path},
                                    {"filename", file_name_of(entry->path)},
                                    {"type", entry->layer},
                                    {"tags", entry->tags},
                                    {"salience", entry->salience},
                                    {"confidence", entry->confidence},
                                    {"source", entry->source},
                                    {"created", entry->created},
                                    {"last_accessed", entry->last_accessed},
                                    {"summary", claude_memory_summary(entry->body, 120)},
                                    {"related", entry->related},
                                    {"project", entry->project.empty() ? nlohmann::ordered_json(nullptr)
                                                                       : nlohmann::ordered_json(entry->project)},
                                    {"status", entry->status},
                                    {"trigger", entry->trigger}};
        if (entry->layer == "episodic") {
            item["retention"] = entry->retention;
            item["decay_after"] = entry->decay_after;
        }
        list.push_back(std::move(item));
    }
    const nlohmann::ordered_json index{{"version", "2.1"}, {"generated", generated}, {"entries", std::move(list)}};
    return index.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace starling::app::migration
