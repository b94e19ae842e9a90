// SPDX-License-Identifier: Apache-2.0
#pragma once

// The words synthetic memories are made of. Real software-engineering vocabulary, so that the
// relevance policy's tokenizer, stemmer and term statistics see the kind of text a real store holds
// (a store of random letters would make every term rare and every query cheap).

#include <array>
#include <cstddef>
#include <string_view>

namespace starling::bench::vocabulary {

inline constexpr std::array<std::string_view, 86> tools{
    "git",        "cmake",     "ninja",      "make",       "gcc",        "clang",     "clang-tidy",
    "clang-format", "gdb",     "lldb",       "valgrind",   "perf",       "docker",    "podman",
    "kubernetes", "helm",      "terraform",  "ansible",    "nginx",      "postgres",  "mysql",
    "sqlite",     "redis",     "kafka",      "rabbitmq",   "grafana",    "prometheus", "sentry",
    "jenkins",    "github",    "gitlab",     "bazel",      "gradle",     "maven",     "npm",
    "yarn",       "pnpm",      "webpack",    "vite",       "eslint",     "prettier",  "typescript",
    "python",     "pytest",    "mypy",       "ruff",       "poetry",     "rust",      "cargo",
    "clippy",     "go",        "gofmt",      "java",       "kotlin",     "swift",     "xcode",
    "react",      "vue",       "django",     "flask",      "fastapi",    "rails",     "spring",
    "boost",      "catch2",    "gtest",      "jest",       "playwright", "cypress",   "openapi",
    "grpc",       "protobuf",  "graphql",    "jira",       "confluence", "linear",    "slack",
    "pagerduty",  "datadog",   "elasticsearch", "s3",      "lambda",     "cloudflare", "vault",
    "systemd",    "bash"};

inline constexpr std::array<std::string_view, 84> verbs{
    "add",       "remove",    "rename",    "refactor",  "extract",   "inline",    "split",
    "merge",     "rebase",    "squash",    "cherry-pick", "revert",  "tag",       "release",
    "deploy",    "roll back", "migrate",   "seed",      "backfill",  "index",     "cache",
    "invalidate", "retry",    "throttle",  "debounce",  "batch",     "stream",    "paginate",
    "validate",  "sanitise",  "escape",    "encode",    "decode",    "serialise", "parse",
    "format",    "lint",      "test",      "mock",      "stub",      "benchmark", "profile",
    "trace",     "log",       "monitor",   "alert",     "page",      "review",    "approve",
    "document",  "annotate",  "deprecate", "delete",    "archive",   "restore",   "backport",
    "pin",       "bump",      "upgrade",   "downgrade", "vendor",    "patch",     "fix",
    "reproduce", "bisect",    "isolate",   "guard",     "lock",      "unlock",    "sign",
    "verify",    "encrypt",   "rotate",    "expire",    "schedule",  "queue",     "dispatch",
    "publish",   "subscribe", "notify",    "compile",   "link",      "package",   "ship"};

inline constexpr std::array<std::string_view, 156> nouns{
    "commit",      "branch",     "pull request", "merge request", "changelog", "release notes",
    "tag",         "pipeline",   "workflow",   "job",         "runner",      "artifact",
    "build",       "target",     "dependency", "lockfile",    "manifest",    "package",
    "module",      "header",     "namespace",  "interface",   "class",       "struct",
    "function",    "method",     "constructor", "destructor", "template",    "macro",
    "enum",        "variant",    "optional",   "iterator",    "allocator",   "buffer",
    "string",      "vector",     "map",        "hash",        "pointer",     "reference",
    "thread",      "mutex",      "lock",       "future",      "coroutine",   "callback",
    "event",       "handler",    "listener",   "hook",        "plugin",      "adapter",
    "endpoint",    "route",      "request",    "response",    "middleware",  "payload",
    "schema",      "migration",  "table",      "column",      "index",       "query",
    "transaction", "connection", "pool",       "replica",     "shard",       "partition",
    "cache",       "queue",      "topic",      "consumer",    "producer",    "worker",
    "cron job",    "scheduler",  "service",    "daemon",      "container",   "image",
    "volume",      "cluster",    "node",       "pod",         "ingress",     "secret",
    "token",       "credential", "certificate", "key",        "session",     "cookie",
    "permission",  "role",       "user",       "account",     "tenant",      "billing",
    "invoice",     "payment",    "subscription", "webhook",   "feature flag", "config file",
    "environment", "variable",   "setting",    "default",     "timeout",     "retry budget",
    "rate limit",  "quota",      "latency",    "throughput",  "memory leak", "deadlock",
    "race condition", "regression", "flaky test", "unit test", "integration test", "fixture",
    "snapshot",    "coverage",   "benchmark",  "profile",     "trace",       "log line",
    "metric",      "dashboard",  "alert",      "incident",    "postmortem",  "runbook",
    "on-call rota", "ticket",    "backlog",    "sprint",      "milestone",   "roadmap",
    "design doc",  "ADR",        "README",     "style guide", "code review", "reviewer",
    "monorepo",    "submodule",  "worktree",   "stash",       "hotfix",      "staging server"};

inline constexpr std::array<std::string_view, 44> qualifiers{
    "new",       "old",        "legacy",     "shared",     "internal",  "public",    "private",
    "async",     "blocking",   "idempotent", "stateless",  "cached",    "stale",     "nightly",
    "weekly",    "failing",    "slow",       "fast",       "large",     "small",     "optional",
    "required",  "deprecated", "experimental", "stable",   "default",   "custom",    "generated",
    "vendored",  "pinned",     "signed",     "encrypted",  "read-only", "local",     "remote",
    "production", "staging",   "release",    "debug",      "minimal",   "verbose",   "strict",
    "lenient",   "temporary"};

inline constexpr std::array<std::string_view, 22> connectors{
    "before", "after",  "when",    "with",  "without", "for",    "in",      "on",
    "from",   "into",   "through", "via",   "because", "unless", "until",   "so",
    "and",    "or",     "but",     "then",  "instead of", "during"};

inline constexpr std::array<std::string_view, 4> articles{"the", "a", "each", "every"};

inline constexpr std::array<std::string_view, 4> types{"feedback", "user", "project", "reference"};

/// A list whose declared size exceeds its initialisers would hold empty words; this catches it.
template <std::size_t size> consteval bool all_filled(const std::array<std::string_view, size> &words) {
    for (const auto word : words) {
        if (word.empty()) {
            return false;
        }
    }
    return true;
}
static_assert(all_filled(tools) && all_filled(verbs) && all_filled(nouns) && all_filled(qualifiers) &&
              all_filled(connectors) && all_filled(articles) && all_filled(types));

} // namespace starling::bench::vocabulary
