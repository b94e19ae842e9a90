// SPDX-License-Identifier: Apache-2.0
//
// A lexicon's data as tables of groups and members, and the one reader of its text format
// (lexicon/software.txt). The build runs that reader on the built-in lexicon (starling-bm25-lexicon,
// tools/compile_lexicon.cpp) and compiles the tables it makes into the plugin, so that a malformed
// line fails the build and no hook process reads text; tests read text with it too. The tables
// hold positions, not pointers: compiled in, they need no relocation when a process starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace starling::bm25 {

/// A line of the lexicon that does not parse; the message names the line.
class LexiconError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The start of a word or term by which a member is found: the first two bytes of its first run of
/// letters, digits and non-ASCII bytes, ASCII and Latin-1 capitals folded to lower case (a character
/// of two bytes is kept whole). A term the tokenizer makes of a member starts the same way — a stem
/// keeps its word's first two letters ("aws" is "aw", "fly" "fli") — and the lexicon's test holds
/// every member to it.
[[nodiscard]] std::string member_key(std::string_view word);

/// Where a run of entries is in one of LexiconTables' tables: its text or a list.
struct LexiconRange {
    std::uint32_t start = 0;
    std::uint32_t size = 0;

    friend bool operator==(const LexiconRange &, const LexiconRange &) = default;
};

/// "same": the members name one thing; "kind": they are different things of one kind, siblings;
/// "each": they are different things that each are the broader thing, but no alternatives to one
/// another (S3 and EC2 are each an AWS service), so a member brings in what it is, not the others.
enum class LexiconKind : unsigned char { same, kind, each };

struct LexiconMember {
    LexiconRange text; ///< as written, trimmed
    LexiconRange key;  ///< member_key(text)

    friend bool operator==(const LexiconMember &, const LexiconMember &) = default;
};

/// One line of the lexicon, related to others by their index in the lexicon's groups.
struct LexiconGroup {
    static constexpr std::uint32_t no_broader = UINT32_MAX;

    LexiconKind kind = LexiconKind::same;
    LexiconRange id;                     ///< in the text
    std::uint32_t broader = no_broader;  ///< a group
    LexiconRange narrower;               ///< in narrower: the groups whose broader this is, in line order
    LexiconRange members;                ///< in members

    friend bool operator==(const LexiconGroup &, const LexiconGroup &) = default;
};

/// A lexicon's tables, as views: of the built-in lexicon's, compiled in, or of a ReadLexicon's.
struct LexiconTables {
    std::string_view text; ///< the ids, members and keys, one after another
    std::span<const LexiconGroup> groups;
    std::span<const LexiconMember> members;
    std::span<const std::uint32_t> narrower;
    /// Every member's index in members, ordered by its key's bytes and then by index: the members a
    /// query term may be are found by its key, not by a look at all of them.
    std::span<const std::uint32_t> members_by_key;

    [[nodiscard]] std::string_view text_of(LexiconRange range) const noexcept {
        return text.substr(range.start, range.size);
    }
    [[nodiscard]] std::span<const LexiconMember> members_of(const LexiconGroup &group) const noexcept {
        return members.subspan(group.members.start, group.members.size);
    }
    [[nodiscard]] std::span<const std::uint32_t> narrower_of(const LexiconGroup &group) const noexcept {
        return narrower.subspan(group.narrower.start, group.narrower.size);
    }
    /// The members whose key is `key`, as indexes in members, in ascending order.
    [[nodiscard]] std::span<const std::uint32_t> members_keyed(std::string_view key) const noexcept;
    /// The index of the group `member` (an index in members) belongs to.
    [[nodiscard]] std::uint32_t group_of_member(std::uint32_t member) const noexcept;
};

/// A lexicon read from text, holding its tables.
class ReadLexicon {
public:
    [[nodiscard]] LexiconTables tables() const noexcept {
        return {text_, groups_, members_, narrower_, members_by_key_};
    }

private:
    friend ReadLexicon read_lexicon(std::string_view text, std::string_view source);

    std::string text_;
    std::vector<LexiconGroup> groups_;
    std::vector<LexiconMember> members_;
    std::vector<std::uint32_t> narrower_;
    std::vector<std::uint32_t> members_by_key_;
};

/// Reads `text` (the format of lexicon/software.txt). Throws LexiconError naming `source` and the
/// line of a malformed line, an empty member, an unknown or wrong `broader`, or a duplicate id.
[[nodiscard]] ReadLexicon read_lexicon(std::string_view text, std::string_view source);

} // namespace starling::bm25
