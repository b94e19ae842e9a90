// SPDX-License-Identifier: Apache-2.0
#include "decision_tree.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <stdexcept>
#include <vector>

namespace starling::policies::collie_tree {

namespace {

/// "'from now on'" or "'this repo', 'uses'": the first cues of a rule, without their anchors.
std::string quoted_cues(const std::vector<std::string> &cues, std::size_t limit = 2) {
    std::string text;
    for (std::size_t index = 0; index < cues.size() && index < limit; ++index) {
        std::string_view cue = cues[index];
        if (cue.starts_with('^')) {
            cue.remove_prefix(1);
        }
        text += (index == 0 ? "'" : ", '") + std::string{cue} + "'";
    }
    return text;
}

std::string cue_note(const std::vector<std::string> &cues) {
    return cues.size() > 1 ? " (cues: " + quoted_cues(cues) + ")" : " (cue: " + quoted_cues(cues) + ")";
}

std::vector<std::string> project_cues(const Evidence &evidence) {
    std::vector<std::string> cues;
    for (const auto rule : {Rule::project_scope, Rule::project_fact, Rule::constraint, Rule::tool, Rule::setup}) {
        cues.insert(cues.end(), evidence.cues_of(rule).begin(), evidence.cues_of(rule).end());
    }
    return cues;
}

double non_negative(const sdk::Settings &settings, const std::string &path, double fallback) {
    const auto value = settings.get<double>(path, fallback);
    if (value < 0) {
        throw std::invalid_argument("setting '" + path + "' must not be negative");
    }
    return value;
}

} // namespace

DecisionTree::DecisionTree(const sdk::Settings &settings)
    : question_mark_weight_(non_negative(settings, "weights.question_mark", 2.0)),
      link_weight_(non_negative(settings, "weights.link", 3.0)),
      max_hits_per_rule_(
          static_cast<std::size_t>(std::max(1, settings.get<int>("matching.max_hits_per_rule", 2)))),
      store_threshold_(non_negative(settings, "thresholds.store", 2.0)),
      reference_threshold_(non_negative(settings, "thresholds.reference", 2.0)),
      project_type_threshold_(
          static_cast<std::size_t>(std::max(1, settings.get<int>("thresholds.project_type", 2)))),
      reference_default_scope_(settings.get<std::string>("reference.default_scope", "project")) {
    for (std::size_t rule = 0; rule < kRuleCount; ++rule) {
        weights_[rule] = non_negative(settings, "weights." + std::string{kRuleNames[rule]}, 1.0);
    }
    if (reference_default_scope_ != "project" && reference_default_scope_ != "user") {
        throw std::invalid_argument(
            "setting 'reference.default_scope' must be \"project\" or \"user\", not '" +
            reference_default_scope_ + "'");
    }
}

double DecisionTree::score(const Evidence &evidence, Rule rule) const {
    return weights_[index_of(rule)] * static_cast<double>(std::min(evidence.hits(rule), max_hits_per_rule_));
}

DecisionTree::Weighing DecisionTree::weigh(const Evidence &evidence) const {
    Weighing weighing;
    const double links =
        link_weight_ * static_cast<double>(std::min(evidence.links.size(), max_hits_per_rule_));
    weighing.reference = links + score(evidence, Rule::external_system) + score(evidence, Rule::location);
    const bool points_somewhere = !evidence.links.empty() || evidence.hits(Rule::external_system) > 0;
    weighing.reference_qualifies = points_somewhere && weighing.reference >= reference_threshold_;

    for (const auto rule : {Rule::standing_instruction, Rule::correction, Rule::fact_correction, Rule::preference, Rule::role,
                            Rule::remember, Rule::project_scope, Rule::project_fact, Rule::constraint}) {
        weighing.keep += score(evidence, rule);
    }
    // A tool or a part of the setup named in a request the message opens with, or in a question, is
    // what it is about ("can you write an ansible role that installs node_exporter?", "installier
    // mal pandas und pyarrow"); in a statement, or in a rule for the agent ("clang-format on
    // anything you touch, run it before …"), it is what the work is built with.
    const bool asks_something =
        !evidence.asked_to_keep && !instructs_the_agent(evidence) &&
        (evidence.question_mark || evidence.opens_with_request || evidence.hits(Rule::knowledge_question) > 0);
    if (!asks_something) {
        weighing.keep += score(evidence, Rule::tool) + score(evidence, Rule::setup);
    }
    if (weighing.reference_qualifies) {
        weighing.keep += weighing.reference;
    }
    // "all" or "for me" alone say nothing; together ("in all documentation you write for me") they
    // are a rule about everything the agent does for this user.
    if (weighing.keep > 0 || is_rule_for_the_agent(evidence)) {
        weighing.keep += score(evidence, Rule::generality) + score(evidence, Rule::addressing_agent);
    }
    return weighing;
}

bool DecisionTree::instructs_the_agent(const Evidence &evidence) noexcept {
    return evidence.hits(Rule::standing_instruction) + evidence.hits(Rule::correction) > 0 ||
           is_rule_for_the_agent(evidence);
}

bool DecisionTree::is_rule_for_the_agent(const Evidence &evidence) noexcept {
    return evidence.hits(Rule::generality) > 0 && evidence.hits(Rule::addressing_agent) > 0;
}

Verdict DecisionTree::decide(const Evidence &evidence) const {
    const Weighing weighing = weigh(evidence);
    if (auto vetoed = veto(evidence, weighing.keep)) {
        return std::move(*vetoed);
    }
    if (auto discarded = without_future_consequence(evidence, weighing.keep)) {
        return std::move(*discarded);
    }
    return classify(evidence, weighing);
}

std::optional<Verdict> DecisionTree::decide_premise(const Evidence &premise) const {
    if (veto(premise, 0.0) || score(premise, Rule::opinion) + score(premise, Rule::acknowledgement) > 0) {
        return std::nullopt;
    }
    if (premise.hits(Rule::role) + premise.hits(Rule::preference) > 0) {
        const auto &cues = premise.hits(Rule::role) > 0 ? premise.cues_of(Rule::role) : premise.cues_of(Rule::preference);
        return Verdict{true, "user", "user",
                       "STEP 3b: what the user is or does that a request rests on" + cue_note(cues) +
                           " → user, scope user"};
    }
    const auto cues = project_cues(premise);
    if (cues.empty()) {
        return std::nullopt;
    }
    return Verdict{true, "project", "project",
                   "STEP 3c: the project fact a request rests on" + cue_note(cues) + " → project, scope project"};
}

std::optional<Verdict> DecisionTree::veto(const Evidence &evidence, double keep) const {
    struct Veto {
        double score = 0;
        std::string reason;
    };
    std::vector<Veto> vetoes;
    if (const double visible = score(evidence, Rule::visible_in_code); visible > 0) {
        vetoes.push_back({visible, "STEP 0 veto: information visible in code, git log or docs" +
                                       cue_note(evidence.cues_of(Rule::visible_in_code))});
    }
    if (const double debug = score(evidence, Rule::debug_conclusion); debug > 0) {
        vetoes.push_back({debug, "STEP 0 veto: debug conclusion that expires when fixed" +
                                     cue_note(evidence.cues_of(Rule::debug_conclusion))});
    }
    if (const double question = score(evidence, Rule::knowledge_question) +
                                (evidence.question_mark ? question_mark_weight_ : 0.0);
        question > 0) {
        const auto &cues = evidence.cues_of(Rule::knowledge_question);
        vetoes.push_back(
            {question, "STEP 0 veto: knowledge question" +
                           (cues.empty() ? std::string{" (cue: sentence ending in '?')"} : cue_note(cues))});
    }
    // What a person hands to `remember` is kept by being handed over: an imperative there is a
    // standing instruction ("Run the linter before every commit."), and a sentence that opens with a
    // word like "commit", "push" or "deploy" is as often a fact about one ("Commit messages follow
    // Conventional Commits."). In a session the same words are requests for now.
    if (const double operation = score(evidence, Rule::operation_request) + score(evidence, Rule::one_shot);
        operation > 0 && !evidence.asked_to_keep) {
        const auto &cues = evidence.hits(Rule::operation_request) > 0
                               ? evidence.cues_of(Rule::operation_request)
                               : evidence.cues_of(Rule::one_shot);
        vetoes.push_back({operation, "STEP 0 veto: in-session operation request" + cue_note(cues)});
    }
    // A veto holds on a tie: when in doubt, collie forgets. Of equally strong vetoes the first, most
    // specific one names the reason.
    const auto strongest = std::max_element(vetoes.begin(), vetoes.end(),
                                            [](const Veto &a, const Veto &b) { return a.score < b.score; });
    if (strongest == vetoes.end() || strongest->score < keep) {
        return std::nullopt;
    }
    return Verdict{false, {}, {}, strongest->reason};
}

std::optional<Verdict> DecisionTree::without_future_consequence(const Evidence &evidence, double keep) const {
    const double opinion = score(evidence, Rule::opinion);
    const double acknowledgement = score(evidence, Rule::acknowledgement);
    if (opinion + acknowledgement > 0 && opinion + acknowledgement >= keep) {
        return Verdict{false,
                       {},
                       {},
                       opinion >= acknowledgement ? "STEP 1: opinion without a behavioural consequence" +
                                                        cue_note(evidence.cues_of(Rule::opinion))
                                                  : "STEP 1: acknowledgement, nothing for a future session" +
                                                        cue_note(evidence.cues_of(Rule::acknowledgement))};
    }
    // What a person asked to keep needs no signal of its own: asking was the signal.
    if (keep < store_threshold_ && !evidence.asked_to_keep) {
        return Verdict{false,
                       {},
                       {},
                       "STEP 1: the next session would do nothing differently without it (no standing "
                       "instruction, user fact, project constraint or external pointer)"};
    }
    return std::nullopt;
}

Verdict DecisionTree::classify(const Evidence &evidence, const Weighing &weighing) const {
    // What a statement says the work is built with ("db is MariaDB 10.11, migrations via Flyway") is
    // a fact of the project; in an instruction to the agent ("from now on, write commit messages in
    // English") it is only what the instruction is about, and says nothing of its scope.
    const bool instructs = instructs_the_agent(evidence);
    const std::size_t built_with = instructs ? 0 : evidence.hits(Rule::tool) + evidence.hits(Rule::setup);
    const std::size_t project_evidence = evidence.hits(Rule::project_scope) + evidence.hits(Rule::project_fact) +
                                         evidence.hits(Rule::constraint) + built_with;
    const bool about_this_project =
        evidence.hits(Rule::project_scope) + evidence.hits(Rule::project_fact) > 0;
    const bool about_the_user_everywhere = evidence.hits(Rule::user_scope) > 0;

    // "No, that's wrong: …", "Actually, …": what the user corrects is what an agent or a memory got
    // wrong, so it is the user's feedback — about this project when it names the project — and it
    // supersedes what it corrects (the host decides which memory that is). Said in a project, it
    // corrects the project's facts ("die Testumgebung heißt jetzt schaden-int") unless it is about
    // the user ("actually, my editor is Helix").
    if (evidence.hits(Rule::fact_correction) > 0) {
        const bool about_the_user = evidence.hits(Rule::role) + evidence.hits(Rule::preference) > 0;
        const bool of_the_project =
            about_this_project || (!about_the_user && (project_evidence > 0 || evidence.in_project));
        const std::string scope = !about_the_user_everywhere && of_the_project ? "project" : "user";
        return {true, "feedback", scope,
                "STEP 3a: correction of what was said or kept" + cue_note(evidence.cues_of(Rule::fact_correction)) +
                    " → feedback, scope " + scope};
    }
    if (evidence.hits(Rule::role) > 0) {
        return {true, "user", "user",
                "STEP 3b: the user's role or background" + cue_note(evidence.cues_of(Rule::role)) +
                    " → user, scope user"};
    }
    if (evidence.hits(Rule::preference) > 0) {
        return {true, "user", "user",
                "STEP 3b: the user's preference or workflow" + cue_note(evidence.cues_of(Rule::preference)) +
                    " → user, scope user"};
    }
    // An external system named inside a project constraint ("images must come from the internal
    // registry") stays a constraint; a link, or a pointer that outweighs the constraint, is a reference.
    if (weighing.reference_qualifies &&
        (!evidence.links.empty() || weighing.reference > static_cast<double>(project_evidence))) {
        const std::string scope = about_the_user_everywhere && evidence.hits(Rule::project_scope) == 0
                                      ? "user"
                                      : reference_default_scope_;
        const std::string pointer = !evidence.links.empty()
                                        ? " (link: '" + evidence.links.front() + "')"
                                        : cue_note(evidence.cues_of(Rule::external_system));
        return {true, "reference", scope,
                "STEP 3d: where an external system lives" + pointer + " → reference, scope " + scope};
    }
    if (project_evidence >= project_type_threshold_) {
        return {true, "project", "project",
                "STEP 3c: non-obvious project constraint" + cue_note(project_cues(evidence)) +
                    " → project, scope project"};
    }
    if (instructs) {
        // A rule about a tool the work uses ("run docker compose up -d before the service") is this
        // project's; a rule about how to answer or write ("commit messages in English"), or one for
        // everything ("stop suggesting Docker for everything"), is the user's.
        const bool about_a_tool_here = evidence.hits(Rule::tool) > 0 && evidence.hits(Rule::generality) == 0;
        const std::string scope =
            !about_the_user_everywhere && (about_this_project || about_a_tool_here) ? "project" : "user";
        const auto &cues = evidence.hits(Rule::standing_instruction) > 0
                               ? evidence.cues_of(Rule::standing_instruction)
                           : evidence.hits(Rule::correction) > 0 ? evidence.cues_of(Rule::correction)
                                                                 : evidence.cues_of(Rule::generality);
        return {true, "feedback", scope,
                "STEP 3a: standing instruction or correction of the agent" + cue_note(cues) +
                    " → feedback, scope " + scope};
    }
    if (project_evidence > 0) {
        return {true, "project", "project",
                "STEP 3c: project fact worth keeping" + cue_note(project_cues(evidence)) +
                    " → project, scope project"};
    }
    if (evidence.hits(Rule::remember) > 0) {
        return {true, "project", "project",
                "STEP 3c: a fact about the work the user asked to keep" +
                    cue_note(evidence.cues_of(Rule::remember)) + " → project, scope project"};
    }
    if (evidence.asked_to_keep) {
        // Nothing says what it is about: in a project, most likely the work; outside one, the user.
        return evidence.in_project
                   ? Verdict{true, "project", "project",
                             "STEP 3c: a fact about the work, asked to keep with remember → project, scope project"}
                   : Verdict{true, "user", "user",
                             "STEP 3b: a fact the user asked to keep with remember, outside any project → user, "
                             "scope user"};
    }
    return {false,
            {},
            {},
            "STEP 3e: worth noting, but neither an instruction, a user fact, a project constraint nor an "
            "external pointer"};
}

} // namespace starling::policies::collie_tree
