// SPDX-License-Identifier: Apache-2.0
#include "lexicon_tables.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace starling::bm25 {

namespace {

std::string_view trim(std::string_view text) noexcept {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// `text` split at `separator`, each piece trimmed.
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> pieces;
    while (true) {
        const auto at = text.find(separator);
        pieces.push_back(trim(text.substr(0, at)));
        if (at == std::string_view::npos) {
            return pieces;
        }
        text.remove_prefix(at + 1);
    }
}

bool is_id(std::string_view id) noexcept {
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

} // namespace

std::span<const std::uint32_t> LexiconTables::members_keyed(std::string_view key) const noexcept {
    struct ByKey {
        const LexiconTables *tables;
        bool operator()(std::uint32_t member, std::string_view key) const noexcept {
            return tables->text_of(tables->members[member].key) < key;
        }
        bool operator()(std::string_view key, std::uint32_t member) const noexcept {
            return key < tables->text_of(tables->members[member].key);
        }
    };
    const auto [first, last] = std::equal_range(members_by_key.begin(), members_by_key.end(), key, ByKey{this});
    return {first, last};
}

std::uint32_t LexiconTables::group_of_member(std::uint32_t member) const noexcept {
    // Groups hold their members in one run each, in group order.
    const auto after = std::upper_bound(groups.begin(), groups.end(), member,
                                        [](std::uint32_t index, const LexiconGroup &group) {
                                            return index < group.members.start;
                                        });
    return static_cast<std::uint32_t>(after - groups.begin()) - 1U;
}

std::string member_key(std::string_view word) {
    constexpr std::size_t key_bytes = 2;
    const auto is_word_byte = [](unsigned char byte) {
        return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
               byte >= 0x80;
    };
    std::size_t at = 0;
    while (at < word.size() && !is_word_byte(static_cast<unsigned char>(word[at]))) {
        ++at; // ".NET" is found as "net"
    }
    std::string key;
    for (; at < word.size() && key.size() < key_bytes; ++at) {
        const auto byte = static_cast<unsigned char>(word[at]);
        if (!is_word_byte(byte)) {
            break;
        }
        if (byte >= 'A' && byte <= 'Z') {
            key += static_cast<char>(byte - 'A' + 'a');
        } else if (byte == 0xC3 && at + 1 < word.size() && key.size() + 2 <= key_bytes + 1) {
            // Latin-1 capitals (À–Þ but ×) fold as the tokenizer folds them: "Änderung" as "änderung".
            const auto next = static_cast<unsigned char>(word[at + 1]);
            key += static_cast<char>(byte);
            key += static_cast<char>(next >= 0x80 && next <= 0x9E && next != 0x97 ? next + 0x20 : next);
            ++at;
        } else {
            key += static_cast<char>(byte);
        }
    }
    return key;
}

ReadLexicon read_lexicon(std::string_view text, std::string_view source) {
    // Positions are 32 bits; the tables' text holds the ids and members and a key of at most three
    // bytes for each, so it is at most four times as long as the text read.
    if (text.size() > UINT32_MAX / 4) {
        throw LexiconError(std::string{source} + ": too large for a lexicon");
    }
    // The lines are read into groups that own their lists first; the tables are laid out once all
    // are known, since a group's narrower groups may come after it.
    struct ReadGroup {
        LexiconKind kind = LexiconKind::same;
        std::string_view id;
        std::uint32_t broader = LexiconGroup::no_broader;
        std::vector<std::uint32_t> narrower;
        std::vector<std::string_view> members;
    };
    struct PendingBroader {
        std::uint32_t group;
        std::string_view id;
        std::size_t line;
    };
    std::vector<ReadGroup> groups;
    std::vector<PendingBroader> pending;
    std::unordered_map<std::string_view, std::uint32_t> group_of_id;
    std::size_t line_number = 0;
    const auto fail = [&](std::size_t line, const std::string &what) {
        throw LexiconError(std::string{source} + ":" + std::to_string(line) + ": " + what);
    };
    while (!text.empty()) {
        ++line_number;
        const auto end = text.find('\n');
        const auto line = trim(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (line.empty() || line.front() == '#') {
            continue;
        }
        const auto fields = split(line, '|');
        if (fields.size() != 4) {
            fail(line_number, "expected 'kind | id | broader | members', found " + std::to_string(fields.size()) +
                                  " field(s)");
        }
        ReadGroup group;
        if (fields[0] == "same") {
            group.kind = LexiconKind::same;
        } else if (fields[0] == "kind") {
            group.kind = LexiconKind::kind;
        } else if (fields[0] == "each") {
            group.kind = LexiconKind::each;
        } else {
            fail(line_number, "kind must be 'same', 'kind' or 'each', not '" + std::string{fields[0]} + "'");
        }
        if (!is_id(fields[1])) {
            fail(line_number, "'" + std::string{fields[1]} + "' is no id (lower-case ASCII letters, digits, '-')");
        }
        group.id = fields[1];
        const auto index = static_cast<std::uint32_t>(groups.size());
        if (!group_of_id.emplace(group.id, index).second) {
            fail(line_number, "the id '" + std::string{group.id} + "' is used twice");
        }
        if (fields[2] != "-") {
            pending.push_back({index, fields[2], line_number});
        } else if (group.kind == LexiconKind::each) {
            fail(line_number, "an 'each' line relates its members only to what they are: it must name a broader line");
        }
        for (const auto member : split(fields[3], ',')) {
            if (member.empty()) {
                fail(line_number, "an empty member (two commas in a row, or one at the end)");
            }
            group.members.push_back(member);
        }
        groups.push_back(std::move(group));
    }
    for (const auto &broader : pending) {
        const auto found = group_of_id.find(broader.id);
        if (found == group_of_id.end()) {
            fail(broader.line, "broader names '" + std::string{broader.id} + "', which no line defines");
        }
        if (groups[found->second].kind != LexiconKind::same) {
            fail(broader.line, "broader names '" + std::string{broader.id} + "', " +
                                     (groups[found->second].kind == LexiconKind::kind ? "a 'kind'" : "an 'each'") +
                                     " line; it must name a 'same' line");
        }
        if (found->second == broader.group) {
            fail(broader.line, "a group cannot be broader than itself");
        }
        groups[broader.group].broader = found->second;
        groups[found->second].narrower.push_back(broader.group);
    }

    ReadLexicon read;
    const auto range_of = [](std::size_t start, std::size_t size) {
        return LexiconRange{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(size)};
    };
    const auto append_text = [&](std::string_view piece) {
        const auto appended = range_of(read.text_.size(), piece.size());
        read.text_ += piece;
        return appended;
    };
    for (const ReadGroup &group : groups) {
        read.groups_.push_back({group.kind, append_text(group.id), group.broader,
                                range_of(read.narrower_.size(), group.narrower.size()),
                                range_of(read.members_.size(), group.members.size())});
        read.narrower_.insert(read.narrower_.end(), group.narrower.begin(), group.narrower.end());
        for (const auto member : group.members) {
            const auto member_text = append_text(member);
            read.members_.push_back({member_text, append_text(member_key(member))});
        }
    }
    read.members_by_key_.resize(read.members_.size());
    std::iota(read.members_by_key_.begin(), read.members_by_key_.end(), 0U);
    const LexiconTables tables = read.tables();
    std::stable_sort(read.members_by_key_.begin(), read.members_by_key_.end(),
                     [&](std::uint32_t left, std::uint32_t right) {
                         return tables.text_of(tables.members[left].key) < tables.text_of(tables.members[right].key);
                     });
    return read;
}

} // namespace starling::bm25
