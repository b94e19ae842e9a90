// SPDX-License-Identifier: Apache-2.0
#include "store/archive_manifest.hpp"

#include "io/posix_io.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <unordered_map>

namespace starling::core::detail {
namespace {

constexpr std::string_view archive_event = "archive";
constexpr std::string_view restore_event = "restore";

[[noreturn]] void fail(const std::filesystem::path &path, std::size_t line, std::string_view problem) {
    throw StoreError(path.string() + ":" + std::to_string(line) + ": " + std::string(problem));
}

std::string string_field(const nlohmann::json &record, const char *name, const std::filesystem::path &path,
                         std::size_t line) {
    const auto found = record.find(name);
    if (found == record.end() || !found->is_string()) {
        fail(path, line, std::string("missing string field '") + name + "'");
    }
    return found->get<std::string>();
}

std::chrono::sys_seconds time_field(const nlohmann::json &record, const std::filesystem::path &path,
                                    std::size_t line) {
    const std::string text = string_field(record, "time", path, line);
    const auto time = parse_timestamp(text);
    if (!time) {
        fail(path, line, "'time' is not a timestamp: " + text);
    }
    return *time;
}

std::string dump(const nlohmann::json &record) {
    // Replacing invalid UTF-8 (a reason text copied from a binary file) beats losing the record.
    return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace

std::vector<ArchiveEntry> ArchiveManifest::read() const {
    const std::optional<std::string> content = read_file_if_exists(path_, std::uint64_t{1} << 30);
    if (!content) {
        return {};
    }
    std::vector<ArchiveEntry> entries;
    std::unordered_map<std::string, std::size_t> position_by_id;
    std::string_view rest = *content;
    std::size_t line_number = 0;
    while (!rest.empty()) {
        ++line_number;
        const auto newline = rest.find('\n');
        const bool terminated = newline != std::string_view::npos;
        if (!terminated) {
            // The record of an archive that crashed before finishing it (and so before removing its
            // original); the next append cuts it off.
            break;
        }
        const std::string_view line = rest.substr(0, newline);
        rest.remove_prefix(newline + 1);
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
        if (record.is_discarded() || !record.is_object()) {
            fail(path_, line_number, "not a JSON object");
        }
        const std::string event = string_field(record, "event", path_, line_number);
        if (event == archive_event) {
            ArchiveEntry entry;
            entry.id = string_field(record, "id", path_, line_number);
            entry.original_key = string_field(record, "key", path_, line_number);
            entry.reason = string_field(record, "reason", path_, line_number);
            entry.archived_at = time_field(record, path_, line_number);
            entry.archived_path = "archive/" + entry.id + "/" + entry.original_key;
            if (!position_by_id.emplace(entry.id, entries.size()).second) {
                fail(path_, line_number, "archive id " + entry.id + " is recorded twice");
            }
            entries.push_back(std::move(entry));
        } else if (event == restore_event) {
            const std::string id = string_field(record, "id", path_, line_number);
            const auto found = position_by_id.find(id);
            if (found == position_by_id.end()) {
                fail(path_, line_number, "restore of unknown archive id " + id);
            }
            ArchiveEntry &entry = entries[found->second];
            entry.restored_key = string_field(record, "key", path_, line_number);
            entry.restored_at = time_field(record, path_, line_number);
        }
    }
    return entries;
}

void ArchiveManifest::record_archive(const ArchiveEntry &entry) const {
    const nlohmann::json record = {{"event", archive_event},
                                   {"id", entry.id},
                                   {"key", entry.original_key},
                                   {"reason", entry.reason},
                                   {"time", format_timestamp(entry.archived_at)}};
    append_line(dump(record));
}

void ArchiveManifest::record_restore(std::string_view id, std::string_view restored_key,
                                     std::chrono::sys_seconds time) const {
    const nlohmann::json record = {
        {"event", restore_event}, {"id", id}, {"key", restored_key}, {"time", format_timestamp(time)}};
    append_line(dump(record));
}

void ArchiveManifest::append_line(const std::string &line) const {
    ensure_directories(path_.parent_path());
    Descriptor manifest(::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, private_file_mode));
    if (!manifest.valid()) {
        throw_system_error(path_, "cannot open", errno);
    }
    struct stat status {};
    if (::fstat(manifest.get(), &status) != 0) {
        throw_system_error(path_, "cannot stat", errno);
    }
    auto size = static_cast<off_t>(status.st_size);
    char last = '\n';
    if (size > 0 && ::pread(manifest.get(), &last, 1, size - 1) != 1) {
        throw_system_error(path_, "cannot read", errno);
    }
    if (last != '\n') {
        // Only an archive that crashed before its record was complete leaves a line without '\n', and
        // such an archive never removed its original. Cut the fragment off so it cannot glue itself
        // to this record. We hold the store lock, so nobody else is appending.
        const std::string content = read_file(path_, std::uint64_t{1} << 30);
        const auto newline = content.rfind('\n');
        size = newline == std::string::npos ? 0 : static_cast<off_t>(newline + 1);
        if (::ftruncate(manifest.get(), size) != 0) {
            throw_system_error(path_, "cannot cut off a torn line", errno);
        }
    }
    if (::lseek(manifest.get(), size, SEEK_SET) < 0) {
        throw_system_error(path_, "cannot seek", errno);
    }
    if (const int error = write_all(manifest.get(), line); error != 0) {
        throw_system_error(path_, "cannot append", error);
    }
    if (::fsync(manifest.get()) != 0) {
        throw_system_error(path_, "cannot fsync", errno);
    }
    if (const int error = manifest.close(); error != 0) {
        throw_system_error(path_, "cannot close", error);
    }
}

} // namespace starling::core::detail
