// SPDX-License-Identifier: Apache-2.0
#include "store/merge_intent.hpp"
#include "io/random_hex.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace starling::core::detail {
namespace {

constexpr std::string_view extension = ".json";

std::string new_intent_id() {
    const auto now = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    return "merge-" + format_compact_timestamp(now) + "-" + random_hex(8);
}

std::string field(const nlohmann::json &record, const char *name, const std::filesystem::path &path) {
    const auto found = record.find(name);
    if (found == record.end() || !found->is_string() || found->get<std::string>().empty()) {
        throw StoreError(path.string() + ": missing string field '" + name + "'");
    }
    return found->get<std::string>();
}

} // namespace

std::filesystem::path MergeIntents::path_of(const MergeIntent &intent) const {
    return directory_ / (intent.id + std::string{extension});
}

void MergeIntents::write(MergeIntent &intent) const {
    intent.id = new_intent_id();
    ensure_directories(directory_);
    const nlohmann::json record = {{"kept", intent.kept},
                                   {"absorbed", intent.absorbed},
                                   {"absorbed_id", intent.absorbed_id},
                                   {"reason", intent.reason}};
    write_file_atomically(path_of(intent), record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::vector<MergeIntent> MergeIntents::read_all() const {
    std::vector<MergeIntent> intents;
    std::error_code error;
    std::filesystem::directory_iterator listing(directory_, error);
    if (error) {
        return intents; // no intents folder: no merge was ever interrupted
    }
    for (const auto &entry : listing) {
        const std::string name = entry.path().filename().string();
        if (!name.ends_with(extension) || is_atomic_write_temp_name(name) || !entry.is_regular_file(error)) {
            continue;
        }
        const auto record = nlohmann::json::parse(read_file(entry.path(), 1 << 20), nullptr, false);
        if (record.is_discarded() || !record.is_object()) {
            throw StoreError(entry.path().string() + ": not a JSON object");
        }
        intents.push_back({name.substr(0, name.size() - extension.size()), field(record, "kept", entry.path()),
                           field(record, "absorbed", entry.path()), field(record, "absorbed_id", entry.path()),
                           field(record, "reason", entry.path())});
    }
    std::sort(intents.begin(), intents.end(),
              [](const MergeIntent &left, const MergeIntent &right) { return left.id < right.id; });
    return intents;
}

void MergeIntents::remove(const MergeIntent &intent) const {
    fault_point(FaultStep::unlink);
    const auto path = path_of(intent);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        throw_system_error(path, "cannot remove the finished merge intent", errno);
    }
}

} // namespace starling::core::detail
