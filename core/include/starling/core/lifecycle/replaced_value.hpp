// SPDX-License-Identifier: Apache-2.0
//
// Whether a newer statement says what an older one says with another value in one place: the same
// words around a different name ("I prefer yarn for JavaScript projects." → "I prefer pnpm for
// JavaScript projects.", "Use yarn" → "Use pnpm", "We use Node 18" → "We use Node 20"). Such a
// statement is no restatement to fold into the older memory: it is a newer one on the same subject,
// and the newest wins (skill_master's conflict rule). Language-neutral: words as statement_words
// splits them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

struct ReplacedValue {
    std::string older;            ///< the words only the older statement has
    std::string newer;            ///< the words only the newer statement has
    std::size_t frame_words = 0;  ///< the words both have, in order
    /// The older's own words hold one name with digits, and the newer's one of the same shape that
    /// differs only in them ("db-staging-1" and "db-staging-2", "is 30 Hz" and "to 60 Hz"): two
    /// values of one thing.
    bool differ_in_digits = false;
};

/// The words supersession compares: lower-cased runs of letters and digits, joined into one name
/// across a single '-', '.' or '_' ("db-staging-1", "next.js"), each Han character a word of its
/// own, punctuation and symbols dropped.
[[nodiscard]] std::vector<std::string> statement_words(std::string_view text);

/// A statement word and where the text writes it: [begin, end) in bytes.
struct WrittenWord {
    std::string word;
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// statement_words with where each is written: a value found among the words can be changed in
/// the text that says it, in the writer's own spelling.
[[nodiscard]] std::vector<WrittenWord> written_words(std::string_view text);

/// The value `newer` puts in place of one of `older`'s: of the words both say in order (at least
/// half of the longer statement), the older's own are one run of at most three words, the newer's
/// own at most four, anywhere ("The API listens on port 8080." → "… port 9090 now."), and the two
/// share no word. Nothing otherwise, or when either is empty or they are the same.
[[nodiscard]] std::optional<ReplacedValue> replaced_value(std::string_view older, std::string_view newer);
/// The same, of statements split into statement_words already: one statement compared with many
/// memories is split once.
[[nodiscard]] std::optional<ReplacedValue> replaced_value(const std::vector<std::string> &older,
                                                          const std::vector<std::string> &newer);

/// The name `newer` gives another number than `older` gives it, when that is the one number each
/// says that the other does not: a word followed by a number in both, the two numbers of one shape
/// ("Postgres 15" → "Postgres 16", "Python 3.10" → "Python 3.12", "port 8080" → "port 9090"),
/// wherever each statement says it, or a name with the number inside ("ranker-v2" → "ranker-v3").
/// Nothing when either says another number of its own: "the ledger on port 9082" does not renumber
/// "payments on port 8081 and the ledger on port 8082", which says more than it changes.
[[nodiscard]] std::optional<std::string> renumbered_name(std::string_view older, std::string_view newer);
/// The same, of statements split into statement_words already.
[[nodiscard]] std::optional<std::string> renumbered_name(const std::vector<std::string> &older,
                                                         const std::vector<std::string> &newer);

/// The numbers of two statements that the other does not say: words with a digit (a version, a
/// port, a size, a name like "db-staging-1"), as statement_words splits them.
struct OwnNumbers {
    std::vector<std::string> older; ///< said only by the older statement, in its order
    std::vector<std::string> newer; ///< said only by the newer statement, in its order

    /// Each says a number the other does not: they say different things, however alike their
    /// other words ("The auth service runs on port 8081." and "The mail service runs on port
    /// 8025."; "Use Python 3.10" and "… Python 3.12"). A restatement says its numbers again.
    [[nodiscard]] bool differ() const noexcept { return !older.empty() && !newer.empty(); }
};

[[nodiscard]] OwnNumbers own_numbers(std::string_view older, std::string_view newer);
/// The same, of statements split into statement_words already.
[[nodiscard]] OwnNumbers own_numbers(const std::vector<std::string> &older, const std::vector<std::string> &newer);

/// Whether `older` says much that `newer` does not touch: of its words (Latin words of three letters
/// or more, Han characters), `newer` says at most a third, and leaves six or more unsaid. "Unsere Daten
/// liegen im Snowflake, Schema ANALYTICS_PROD, da nur lesend zugreifen!" says more than "das Schema
/// heißt inzwischen ANALYTICS_V2" corrects; "The staging database is db-staging-1." does not.
[[nodiscard]] bool says_much_more(const std::vector<std::string> &older, const std::vector<std::string> &newer);

/// One value a correction changes in an older statement, as each statement writes it: "stg-eu-1"
/// and "stg-eu-2", "Katrin" and "Jonas".
struct CorrectedValue {
    std::string older;
    std::string newer;

    friend bool operator==(const CorrectedValue &, const CorrectedValue &) = default;
};

/// The one value `newer` corrects in one clause of `older` (clauses as sdk::text::clauses_of
/// ends them, and cut where "and", "und", "并且" or "而且" joins two), when `older` has other clauses the correction leaves as they are: "Deploys go
/// through ArgoCD; the staging cluster is stg-eu-1." and "The staging cluster is stg-eu-2 now."
/// correct stg-eu-1 to stg-eu-2. The clause and `newer` say the same around the value
/// (replaced_value), or give one name another number (renumbered_name: "Python 3.10" → "Python
/// 3.12"). Nothing when `older` is one clause (the correction replaces it whole), when no clause
/// or more than one has such a value, or when `older` writes that value more than once ("Node 18 in
/// CI; Node 18 on the dev boxes too" for "Node 20 in CI": which of them changed is not said).
/// `subject`: what must show that `newer` speaks of the clause it changes.
enum class ClauseSubject {
    /// The value as found is enough: a correction that found the memory by what it names.
    by_value,
    /// Besides, `newer` says nothing the clause does not say but numbers and words of a change
    /// ("Health checks moved to port 9001."): for a memory looked for among all, where a name with
    /// its number inside ("PLAT-123" in "… e.g. (PLAT-123)") is no value another ticket replaces.
    said_alone,
};

[[nodiscard]] std::optional<CorrectedValue> corrected_value(std::string_view older, std::string_view newer,
                                                            ClauseSubject subject = ClauseSubject::by_value);

/// The one number `newer` changes in `older`, a statement of one clause that says other numbers
/// too, which replacing it whole would lose: "Our staging database is pg-staging-3 on port 5433."
/// and "Actually, the staging database is pg-staging-4 now." change pg-staging-3 to pg-staging-4
/// and keep port 5433. The number is the one of `older`'s own numbers (own_numbers) of the shape of
/// the one `newer` says alone and given the same name: inside it ("pg-staging"), or by the word
/// right before it in both ("port 8080" → "port 9090"). Nothing when `older` has clauses that
/// corrected_value compares, when `newer` says more than one number of its own or `older` no other,
/// when not exactly one is so named, or when `older` writes it more than once.
[[nodiscard]] std::optional<CorrectedValue> corrected_number(std::string_view older, std::string_view newer);

/// The value a correction that names what is no longer so (`retired`, the terms the decision
/// policy found after "not", "statt", "不是" …) changes in one clause of `older`: the one retired
/// term `older` writes exactly once, and in its place the one word of `newer` of the same form —
/// letters, digits and joints alike ("1.21" and "1.22", "us-east-1" and "eu-west-1"), that `older`
/// does not say; a word of letters alone only when it is written as a name (with a capital letter
/// not opening the statement, or in Latin letters among Han characters: "Redis", "yarn" in
/// "我们现在用 yarn 了，不是 pnpm"). "Actually it's Go 1.22, not 1.21." changes 1.21 to 1.22 in "The Go
/// services are built with Go 1.21, and the linter lives in .golangci.yml.". Nothing when `older`
/// is one clause (the correction replaces it whole), when no retired term or more than one is
/// written there once, when the term is in Han script, or when `newer` has no such word or more
/// than one.
[[nodiscard]] std::optional<CorrectedValue> corrected_named_value(std::string_view older, std::string_view newer,
                                                                  const std::vector<std::string> &retired);

/// How often `text` writes `words` (statement_words of both), whole words in a row.
[[nodiscard]] std::size_t times_written(std::string_view text, std::string_view words);

/// `text` with `value.older`, written there once as whole words, replaced by `value.newer`;
/// nothing when `text` does not write it exactly once.
[[nodiscard]] std::optional<std::string> with_value_corrected(std::string_view text, const CorrectedValue &value);

/// Whether `older` has two clauses or more and one of them says something `newer` does not
/// touch: two words or more of its own (Latin words of three letters or more without digits, Han
/// characters). A correction may change the rest, never that one ("Freigaben gibt Jonas" in
/// "Staging läuft in München, Freigaben gibt Jonas." for "Staging läuft inzwischen in Frankfurt").
[[nodiscard]] bool leaves_a_clause_untouched(std::string_view older, std::string_view newer);

/// Words as a message lists them: "8081" or "3.10, 3.11".
[[nodiscard]] std::string listed(const std::vector<std::string> &words);

} // namespace starling::core
