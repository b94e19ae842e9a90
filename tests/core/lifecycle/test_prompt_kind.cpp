// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/prompt_kind.hpp>

#include <catch2/catch.hpp>

#include <string>

using starling::core::is_general_question;

TEST_CASE("a question about how something works or what tells things apart is general, in EN, DE and ZH",
          "[lifecycle][injection][prompt-kind]") {
    for (const std::string prompt :
         {"how does Kafka guarantee ordering within a partition?", "What's the difference between a mutex and a semaphore?",
          "explain the phases of the Node event loop", "How do goroutines differ from OS threads?",
          "Option vs Result: how does the ? operator behave?", "wie funktioniert eigentlich ein NAT-Gateway in AWS?",
          "was ist der Unterschied zwischen count und for_each in Terraform?", "Erklär mir ROW_NUMBER()",
          "解释一下 Kubernetes 里 Deployment 和 StatefulSet 的区别", "explain how TCP slow start works",
          "what does SO_REUSEPORT mean on Linux?", "when should I use a BTreeMap over a HashMap?",
          "was bedeutet idempotent bei HTTP-Methoden?", "was heißt eventual consistency?", "CAP 定理是什么意思？",
          "why does Rust need explicit lifetimes?", "why do floats lose precision?", "warum ist eine HashMap unsortiert?",
          "wieso braucht man ein Mutex?", "wofür ist ein Bloom-Filter gut?", "wozu dient volatile in Java?",
          "为什么 Go 的 map 不是并发安全的？"}) {
        INFO(prompt);
        CHECK(is_general_question(prompt));
    }
}

TEST_CASE("a question about the user's own setup, or a task, is not general", "[lifecycle][injection][prompt-kind]") {
    for (const std::string prompt :
         {"how does our deploy work?", "explain what my pre-commit hook does", "how do we deploy to staging?",
          "wie funktioniert unser Release-Prozess?", "解释一下我们的部署流程", "install the pnpm packages",
          "what is our deploy process?", "push this fix", "what port does the dev server run on?",
          "how do I run the integration tests?", "was sind die Unterschriften", "what does our retry policy mean for jobs?",
          "what does the deploy script do?", "was bedeutet das für unser Release?",
          "pods keep going into CrashLoopBackOff after the rollout, what does that mean?",
          "der Build meldet exit code 137, was bedeutet das?", "日志里一直报 OOMKilled，这是什么意思？",
          "why do we pin numpy below 2?", "why does my build fail on CI?", "warum nutzen wir Flux statt Argo?",
          "为什么我们的部署要等审批？", ""}) {
        INFO(prompt);
        CHECK_FALSE(is_general_question(prompt));
    }
}
