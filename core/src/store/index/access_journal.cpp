// SPDX-License-Identifier: Apache-2.0
#include "store/index/access_journal.hpp"

#include "io/posix_io.hpp"
#include "io/random_hex.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>

namespace starling::core::detail {
namespace {

constexpr char separator = '\t';
/// The optional fourth field of a line: lines without it (all of them before injections were
/// counted apart) are uses.
constexpr std::string_view injection_marker = "injection";
/// Starts the line that names a batch; no memory key starts with it.
constexpr std::string_view batch_marker = "#batch\t";

bool same_file(int descriptor, const std::filesystem::path &path) {
    struct stat opened {};
    struct stat current {};
    return ::fstat(descriptor, &opened) == 0 && ::stat(path.c_str(), &current) == 0 &&
           opened.st_ino == current.st_ino && opened.st_dev == current.st_dev;
}

std::string encode(const NotedAccess &access) {
    std::string line = access.key;
    line += separator;
    line += access.session_id;
    line += separator;
    line += std::to_string(access.at.time_since_epoch().count());
    if (access.kind == AccessKind::injection) {
        line += separator;
        line += injection_marker;
    }
    line += '\n';
    return line;
}

/// Keys and session ids are checked by the store before they are noted: neither holds a tab or a
/// line break, so the format needs no escaping.
void decode_into(std::string_view content, std::vector<NotedAccess> &accesses) {
    while (!content.empty()) {
        const auto end = content.find('\n');
        if (end == std::string_view::npos) {
            return; // the last line of a writer killed mid-write
        }
        const std::string_view line = content.substr(0, end);
        content.remove_prefix(end + 1);
        const auto first = line.find(separator);
        const auto second = first == std::string_view::npos ? first : line.find(separator, first + 1);
        if (second == std::string_view::npos) {
            continue;
        }
        const auto third = line.find(separator, second + 1);
        const std::string_view seconds_text =
            line.substr(second + 1, third == std::string_view::npos ? std::string_view::npos : third - second - 1);
        const std::string_view kind = third == std::string_view::npos ? std::string_view{} : line.substr(third + 1);
        if (!kind.empty() && kind != injection_marker) {
            continue;
        }
        long long seconds = 0;
        const auto [parsed_end, error] =
            std::from_chars(seconds_text.data(), seconds_text.data() + seconds_text.size(), seconds);
        if (error != std::errc{} || parsed_end != seconds_text.data() + seconds_text.size() || first == 0) {
            continue;
        }
        accesses.push_back({std::string{line.substr(0, first)}, std::string{line.substr(first + 1, second - first - 1)},
                            std::chrono::sys_seconds{std::chrono::seconds{seconds}},
                            kind.empty() ? AccessKind::use : AccessKind::injection});
    }
}

/// The id the batch line names, or "" while there is none: a line without its newline was torn
/// by an applier killed while writing it, and is cut off before a new one is written.
std::string batch_id_of(std::string_view content) {
    std::string id;
    std::size_t position = 0;
    while ((position = content.find(batch_marker, position)) != std::string_view::npos) {
        const bool line_start = position == 0 || content[position - 1] == '\n';
        const auto end = content.find('\n', position);
        if (end == std::string_view::npos) {
            break;
        }
        const auto start = position + batch_marker.size();
        if (line_start && end > start) {
            id = std::string{content.substr(start, end - start)};
        }
        position = end;
    }
    return id;
}

} // namespace

AccessJournal::AccessJournal(std::filesystem::path journal_path)
    : journal_path_(std::move(journal_path)), applying_path_(journal_path_.string() + ".applying") {}

void AccessJournal::note(std::span<const NotedAccess> accesses) const {
    if (accesses.empty()) {
        return;
    }
    std::string lines;
    for (const NotedAccess &access : accesses) {
        lines += encode(access);
    }
    // A writer that opened the journal just before the applier renamed it away finds out here, once
    // it holds its shared lock, and writes to the new journal instead.
    for (int attempt = 0; attempt < 8; ++attempt) {
        Descriptor file(::open(journal_path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, private_file_mode));
        if (!file.valid()) {
            throw_system_error(journal_path_, "cannot open for appending", errno);
        }
        while (::flock(file.get(), LOCK_SH) != 0) {
            if (errno != EINTR) {
                throw_system_error(journal_path_, "cannot lock", errno);
            }
        }
        fault_point(FaultStep::lock);
        if (!same_file(file.get(), journal_path_)) {
            continue;
        }
        // After the torn tail of a noter killed mid-append, start a fresh line: the tail is skipped as
        // malformed, these uses are not.
        if (const int error = write_all(file.get(), ends_mid_line(file.get()) ? "\n" + lines : lines); error != 0) {
            throw_system_error(journal_path_, "cannot append", error);
        }
        return;
    }
    throw StoreError(journal_path_.string() + ": kept being replaced while appending a memory access");
}

NotedAccessBatch AccessJournal::take() {
    NotedAccessBatch batch;
    std::error_code error;
    if (!std::filesystem::exists(applying_path_, error)) {
        fault_point(FaultStep::rename);
        if (std::rename(journal_path_.c_str(), applying_path_.c_str()) != 0) {
            if (errno == ENOENT) {
                return batch;
            }
            throw_system_error(journal_path_, "cannot set aside for applying", errno);
        }
    }
    // A batch left by an applier that died is applied first; uses noted since then stay in the
    // journal for the next call, so nothing is counted twice.
    Descriptor file(::open(applying_path_.c_str(), O_RDWR | O_APPEND | O_CLOEXEC));
    if (!file.valid()) {
        throw_system_error(applying_path_, "cannot open", errno);
    }
    while (::flock(file.get(), LOCK_EX) != 0) {
        if (errno != EINTR) {
            throw_system_error(applying_path_, "cannot lock", errno);
        }
    }
    fault_point(FaultStep::lock);
    std::string content = read_file(applying_path_);
    batch.id = batch_id_of(content);
    if (batch.id.empty()) {
        // The torn last line of a writer killed mid-write is never applied; cutting it off keeps
        // it from being completed by the line below and applied by a second take.
        if (const auto kept = content.rfind('\n') + 1; kept != content.size()) {
            content.resize(kept);
            if (::ftruncate(file.get(), static_cast<off_t>(kept)) != 0) {
                throw_system_error(applying_path_, "cannot cut off a torn line", errno);
            }
        }
        batch.id = random_hex(16);
        const std::string line = std::string{batch_marker} + batch.id + "\n";
        if (const int write_error = write_all(file.get(), line); write_error != 0) {
            throw_system_error(applying_path_, "cannot name the batch", write_error);
        }
    }
    decode_into(content, batch.accesses);
    return batch;
}

void AccessJournal::finish_taking() const {
    fault_point(FaultStep::unlink);
    if (std::remove(applying_path_.c_str()) != 0 && errno != ENOENT) {
        throw_system_error(applying_path_, "cannot remove the applied batch", errno);
    }
}

bool AccessJournal::has_pending() const {
    std::error_code error;
    return std::filesystem::exists(journal_path_, error) || std::filesystem::exists(applying_path_, error);
}

} // namespace starling::core::detail
