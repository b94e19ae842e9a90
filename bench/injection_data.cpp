// SPDX-License-Identifier: Apache-2.0
#include "injection_data.hpp"

#include "data_lines.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <string_view>

namespace starling::bench {

namespace {

constexpr std::array<std::string_view, 4> memory_types{"user", "feedback", "project", "reference"};
constexpr std::string_view no_entry = "-";

/// A data line's place, for messages: "memories.txt:12".
struct Where {
    std::string file;
    std::size_t line = 0;

    [[noreturn]] void fail(const std::string &problem) const {
        throw InjectionDataError(file + ":" + std::to_string(line) + ": " + problem);
    }
};

std::vector<std::string> comma_list(std::string_view text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = std::min(text.find(',', start), text.size());
        const auto item = trimmed(text.substr(start, comma - start));
        if (!item.empty()) {
            items.emplace_back(item);
        }
        start = comma + 1;
    }
    return items;
}

/// Calls `read(fields, where)` for every line that is neither blank nor a comment.
template <class Read>
void read_lines(const std::filesystem::path &path, std::size_t field_count, Read &&read) {
    std::ifstream in{path};
    if (!in) {
        throw InjectionDataError(path.string() + ": cannot read the file");
    }
    Where where{path.filename().string(), 0};
    std::string line;
    while (std::getline(in, line)) {
        ++where.line;
        const auto content = trimmed(line);
        if (content.empty() || content.front() == '#') {
            continue;
        }
        const auto fields = fields_of(content, field_count);
        if (fields.size() != field_count) {
            where.fail("expected " + std::to_string(field_count) + " fields separated by ' | ', found " +
                       std::to_string(fields.size()));
        }
        for (std::size_t field = 0; field < fields.size(); ++field) {
            if (fields[field].empty()) {
                where.fail("field " + std::to_string(field + 1) + " is empty");
            }
        }
        read(fields, where);
    }
}

bool is_id(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

} // namespace

InjectionData load_injection_data(const std::filesystem::path &directory) {
    InjectionData data;
    std::map<std::string, std::size_t, std::less<>> memory_at;
    // Memory lines: id | scope | type | tags | summary | body (tags may be `-`).
    read_lines(directory / "memories.txt", 6, [&](const std::vector<std::string> &fields, const Where &where) {
        LabelledMemory memory;
        memory.id = fields[0];
        if (!is_id(memory.id)) {
            where.fail("memory id '" + memory.id + "' may only hold a-z, 0-9, '-' and '_'");
        }
        if (memory_at.contains(memory.id)) {
            where.fail("memory id '" + memory.id + "' is used twice");
        }
        memory.project = fields[1] == "user" ? std::string{} : fields[1];
        if (!memory.project.empty() && !is_id(memory.project)) {
            where.fail("scope '" + fields[1] + "' is neither 'user' nor a project name (a-z, 0-9, '-', '_')");
        }
        memory.type = fields[2];
        if (std::find(memory_types.begin(), memory_types.end(), memory.type) == memory_types.end()) {
            where.fail("type '" + memory.type + "' is not one of user, feedback, project, reference");
        }
        memory.tags = fields[3] == no_entry ? std::vector<std::string>{} : comma_list(fields[3]);
        memory.summary = fields[4];
        // `-`: the memory is the summary alone, as `starling remember "TEXT"` stores a line.
        memory.body = fields[5] == no_entry ? std::string{} : fields[5];
        if (!memory.project.empty() &&
            std::find(data.projects.begin(), data.projects.end(), memory.project) == data.projects.end()) {
            data.projects.push_back(memory.project);
        }
        memory_at.emplace(memory.id, data.memories.size());
        data.memories.push_back(std::move(memory));
    });
    if (data.memories.empty()) {
        throw InjectionDataError((directory / "memories.txt").filename().string() + ": holds no memory");
    }

    std::array<std::size_t, 2> seen_of_kind{0, 0};
    std::map<std::string, bool, std::less<>> prompt_ids;
    // Prompt lines: id | project | relevant | prompt.
    read_lines(directory / "prompts.txt", 4, [&](const std::vector<std::string> &fields, const Where &where) {
        LabelledPrompt prompt;
        prompt.id = fields[0];
        if (!is_id(prompt.id)) {
            where.fail("prompt id '" + prompt.id + "' may only hold a-z, 0-9, '-' and '_'");
        }
        if (!prompt_ids.emplace(prompt.id, true).second) {
            where.fail("prompt id '" + prompt.id + "' is used twice");
        }
        prompt.project = fields[1] == no_entry ? std::string{} : fields[1];
        if (!prompt.project.empty() &&
            std::find(data.projects.begin(), data.projects.end(), prompt.project) == data.projects.end()) {
            where.fail("project '" + prompt.project + "' has no memory in memories.txt");
        }
        prompt.relevant = fields[2] == no_entry ? std::vector<std::string>{} : comma_list(fields[2]);
        for (const auto &id : prompt.relevant) {
            const auto found = memory_at.find(id);
            if (found == memory_at.end()) {
                where.fail("relevant memory '" + id + "' is not in memories.txt");
            }
            const auto &memory = data.memories[found->second];
            if (!memory.project.empty() && memory.project != prompt.project) {
                where.fail("relevant memory '" + id + "' belongs to project '" + memory.project +
                           "', which a prompt in " + (prompt.project.empty() ? "no project" : "'" + prompt.project + "'") +
                           " never sees");
            }
        }
        prompt.text = fields[3];
        auto &seen = seen_of_kind[prompt.relevant.empty() ? 0 : 1];
        prompt.tuning = seen % 2 == 0;
        ++seen;
        data.prompts.push_back(std::move(prompt));
    });
    if (seen_of_kind[0] < 2 || seen_of_kind[1] < 2) {
        throw InjectionDataError("prompts.txt: needs at least two prompts with relevant memories and two without, "
                                 "one of each for either half");
    }
    return data;
}

} // namespace starling::bench
