// SPDX-License-Identifier: Apache-2.0
#include "memory_usage.hpp"

#include <algorithm>

namespace starling::app {

std::vector<StaleMemory> find_stale(const std::vector<SurveyedMemory> &memories, std::chrono::sys_seconds now) {
    std::vector<StaleMemory> stale;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto unused = now - memories[index].entry.last_accessed;
        if (unused > kStaleAfter) {
            stale.push_back({index, std::chrono::floor<std::chrono::days>(unused)});
        }
    }
    std::sort(stale.begin(), stale.end(), [&](const StaleMemory &left, const StaleMemory &right) {
        const auto &left_entry = memories[left.memory].entry;
        const auto &right_entry = memories[right.memory].entry;
        if (left_entry.last_accessed != right_entry.last_accessed) {
            return left_entry.last_accessed < right_entry.last_accessed;
        }
        return left_entry.key < right_entry.key;
    });
    return stale;
}

std::vector<std::size_t> find_pinned(const std::vector<SurveyedMemory> &memories) {
    std::vector<std::size_t> pinned;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        if (memories[index].entry.pinned) {
            pinned.push_back(index);
        }
    }
    return pinned;
}

std::uint32_t reads_of(const SurveyedMemory &memory) noexcept {
    return memory.entry.access_count > 0 ? memory.entry.access_count - 1 : 0;
}

std::optional<double> effectiveness_of(const SurveyedMemory &memory) noexcept {
    if (memory.injection_count < kJudgedFromInjections) {
        return std::nullopt;
    }
    return std::min(1.0, static_cast<double>(reads_of(memory)) / memory.injection_count);
}

EffectivenessSurvey survey_effectiveness(const std::vector<SurveyedMemory> &memories) {
    EffectivenessSurvey survey;
    double sum = 0.0;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto effectiveness = effectiveness_of(memories[index]);
        if (!effectiveness) {
            continue;
        }
        ++survey.judged;
        sum += *effectiveness;
        if (*effectiveness < kIneffectiveBelow) {
            survey.ineffective.push_back({index, *effectiveness});
        }
    }
    if (survey.judged > 0) {
        survey.average = sum / static_cast<double>(survey.judged);
    }
    std::sort(survey.ineffective.begin(), survey.ineffective.end(), [&](const JudgedMemory &left, const JudgedMemory &right) {
        if (left.effectiveness != right.effectiveness) {
            return left.effectiveness < right.effectiveness;
        }
        const auto &left_memory = memories[left.memory];
        const auto &right_memory = memories[right.memory];
        if (left_memory.injection_count != right_memory.injection_count) {
            return left_memory.injection_count > right_memory.injection_count;
        }
        return left_memory.entry.key < right_memory.entry.key;
    });
    return survey;
}

} // namespace starling::app
