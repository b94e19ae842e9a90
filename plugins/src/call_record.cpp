// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/call_record.hpp>

#include <time.h>

#include <algorithm>
#include <cstring>

namespace starling::plugins {

namespace {

PluginCallRecord own_record;
std::atomic<PluginCallRecord *> current_record{&own_record};

std::int64_t monotonic_ns() noexcept {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

template <std::size_t Size>
void copy_text(char (&into)[Size], std::string_view text) noexcept {
    const auto length = std::min(text.size(), Size - 1);
    std::memcpy(into, text.data(), length);
    into[length] = '\0';
}

template <std::size_t Size>
void copy_text(char (&into)[Size], const char (&from)[Size]) noexcept {
    std::memcpy(into, from, Size);
    into[Size - 1] = '\0';
}

/// Rewrites the record the way readers expect: the sequence is odd while the fields change.
template <class Write>
void rewrite(PluginCallRecord &record, Write &&write) noexcept {
    const auto sequence = record.sequence.load(std::memory_order_relaxed);
    record.sequence.store(sequence + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    write();
    record.sequence.store(sequence + 2, std::memory_order_release);
}

} // namespace

PluginCallRecord &plugin_call_record() noexcept { return *current_record.load(std::memory_order_acquire); }

void record_plugin_calls_in(PluginCallRecord *record) noexcept {
    current_record.store(record == nullptr ? &own_record : record, std::memory_order_release);
}

std::string RunningCall::describe() const {
    if (call == "load") {
        return "module " + plugin + " while loading";
    }
    return "plugin '" + plugin + "' in `" + call + "`";
}

std::optional<RunningCall> running_call(const PluginCallRecord &record) {
    // A writer that died halfway leaves the sequence odd for good: after a few tries, read anyway.
    for (int attempt = 0;; ++attempt) {
        const auto before = record.sequence.load(std::memory_order_acquire);
        const auto started = record.started_ns.load(std::memory_order_relaxed);
        RunningCall running;
        char plugin[sizeof(PluginCallRecord::plugin)];
        char call[sizeof(PluginCallRecord::call)];
        copy_text(plugin, record.plugin);
        copy_text(call, record.call);
        std::atomic_thread_fence(std::memory_order_acquire);
        const bool settled = (before % 2 == 0 && record.sequence.load(std::memory_order_relaxed) == before);
        if (!settled && attempt < 100) {
            continue;
        }
        if (started == 0) {
            return std::nullopt;
        }
        running.plugin = plugin;
        running.call = call;
        running.running = std::chrono::nanoseconds{monotonic_ns() - started};
        return running;
    }
}

PluginCallScope::PluginCallScope(std::string_view plugin, std::string_view call) noexcept {
    auto &record = plugin_call_record();
    copy_text(previous_plugin_, record.plugin);
    copy_text(previous_call_, record.call);
    previous_started_ns_ = record.started_ns.load(std::memory_order_relaxed);
    rewrite(record, [&] {
        copy_text(record.plugin, plugin);
        copy_text(record.call, call);
        record.started_ns.store(monotonic_ns(), std::memory_order_relaxed);
    });
}

PluginCallScope::~PluginCallScope() {
    auto &record = plugin_call_record();
    rewrite(record, [&] {
        copy_text(record.plugin, previous_plugin_);
        copy_text(record.call, previous_call_);
        record.started_ns.store(previous_started_ns_, std::memory_order_relaxed);
    });
}

} // namespace starling::plugins
