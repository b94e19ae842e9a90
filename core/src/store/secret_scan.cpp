// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/secret_scan.hpp>

#include <starling/core/redaction/redaction.hpp>
#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/store/record/memory_redaction.hpp>
#include <starling/core/io/store_error.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace starling::core {
namespace {

namespace fs = std::filesystem;

/// How a file is repaired, by where it sits in the store.
enum class FileRole { memory, archived_memory, json_lines, machine_index, plugin_cache, text };

FileRole role_of(const std::string &key) {
    if (parse_memory_key(key)) {
        return FileRole::memory;
    }
    if (key.ends_with(".jsonl")) {
        return FileRole::json_lines;
    }
    if (key.starts_with("index/cache/")) {
        return FileRole::plugin_cache;
    }
    if (key.starts_with("index/")) {
        return FileRole::machine_index;
    }
    if (key.starts_with("archive/") && key.ends_with(".md")) {
        return FileRole::archived_memory;
    }
    return FileRole::text;
}

struct ScannedFile {
    std::string key; ///< path relative to the root, `/`-separated
    FileRole role;
};

/// Every regular file under the root, not following symlinks, without the lock and the
/// temporary files of writers in progress.
std::vector<ScannedFile> files_of(const fs::path &root) {
    std::vector<ScannedFile> files;
    std::error_code error;
    if (!fs::exists(root, error)) {
        return files;
    }
    for (fs::recursive_directory_iterator it{root, fs::directory_options::skip_permission_denied, error}, end;
         !error && it != end; it.increment(error)) {
        if (!it->is_regular_file(error) || it->is_symlink(error)) {
            continue;
        }
        const auto name = it->path().filename().string();
        if (name == ".lock" || is_atomic_write_temp_name(name)) {
            continue;
        }
        const auto key = it->path().lexically_relative(root).generic_string();
        files.push_back({key, role_of(key)});
    }
    if (error) {
        throw StoreError(root.string() + ": cannot list the store: " + error.message());
    }
    std::sort(files.begin(), files.end(), [](const ScannedFile &a, const ScannedFile &b) { return a.key < b.key; });
    return files;
}

void collect_json_strings(const nlohmann::json &value, std::vector<const std::string *> &strings) {
    if (value.is_string()) {
        strings.push_back(&value.get_ref<const std::string &>());
    } else if (value.is_structured()) {
        for (const auto &item : value) {
            collect_json_strings(item, strings);
        }
    }
}

/// A JSON line is searched value by value, as decoded: in the raw line an escaped quote (`\"`)
/// would hide `"apiKey": "…"` from the scanners. A line that is not JSON is searched as text.
std::vector<SecretFinding> findings_in_json_lines(const ScannedFile &file, std::string_view content,
                                                  const Redactor &redactor) {
    std::vector<SecretFinding> findings;
    std::size_t position = 0;
    for (std::size_t line = 1; position < content.size(); ++line) {
        const auto newline = content.find('\n', position);
        const auto text = content.substr(position, newline == std::string_view::npos ? newline : newline - position);
        position = newline == std::string_view::npos ? content.size() : newline + 1;
        const auto record = nlohmann::json::parse(text, nullptr, false);
        std::vector<const std::string *> strings;
        if (!record.is_discarded()) {
            collect_json_strings(record, strings);
        }
        const std::string raw{text};
        if (record.is_discarded()) {
            strings.push_back(&raw);
        }
        for (const auto *value : strings) {
            for (auto &span : redactor.find(*value)) {
                findings.push_back({file.key, line, std::move(span.kind)});
            }
        }
    }
    return findings;
}

std::vector<SecretFinding> findings_in(const ScannedFile &file, std::string_view content, const Redactor &redactor) {
    if (file.role == FileRole::json_lines) {
        return findings_in_json_lines(file, content, redactor);
    }
    std::vector<SecretFinding> findings;
    std::size_t line = 1;
    std::size_t counted_to = 0;
    for (auto &span : redactor.find(content)) {
        line += static_cast<std::size_t>(std::count(content.begin() + static_cast<std::ptrdiff_t>(counted_to),
                                                    content.begin() + static_cast<std::ptrdiff_t>(span.begin), '\n'));
        counted_to = span.begin;
        findings.push_back({file.key, line, std::move(span.kind)});
    }
    return findings;
}

void redact_json_strings(nlohmann::json &value, const Redactor &redactor) {
    if (value.is_string()) {
        value = redactor.redact(value.get_ref<const std::string &>()).text;
    } else if (value.is_structured()) {
        for (auto &item : value) {
            redact_json_strings(item, redactor);
        }
    }
}

/// Each line that is JSON gets its string values redacted and is written back compactly, so
/// a line stays one valid record; a line that is not JSON is redacted as text.
std::string redacted_json_lines(std::string_view content, const Redactor &redactor) {
    std::string out;
    std::size_t position = 0;
    while (position < content.size()) {
        const auto newline = content.find('\n', position);
        const auto line = content.substr(position, newline == std::string_view::npos ? newline : newline - position);
        auto record = nlohmann::json::parse(line, nullptr, false);
        if (record.is_discarded()) {
            out += redactor.redact(line).text;
        } else {
            const auto before = record;
            redact_json_strings(record, redactor);
            // An untouched record keeps its bytes: a rewrite would reorder nothing but respell numbers.
            if (record == before) {
                out.append(line);
            } else {
                out += record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            }
        }
        if (newline == std::string_view::npos) {
            break;
        }
        out += '\n';
        position = newline + 1;
    }
    return out;
}

/// An archived memory is redacted field by field when it parses, like a stored one.
std::string redacted_memory_text(std::string_view content, const std::string &name, const Redactor &redactor) {
    try {
        Memory memory = parse_memory(content, name);
        static_cast<void>(redact_memory(memory, redactor));
        return serialise_memory(memory, name);
    } catch (const StoreError &) {
        return redactor.redact(content).text;
    }
}

class Fixer {
public:
    Fixer(MemoryStore &store, SecretScanReport &report) : store_(&store), report_(&report) {}

    void fix(const ScannedFile &file, std::string_view content, std::size_t secrets) {
        const fs::path path = store_->root() / file.key;
        const std::string count = std::to_string(secrets) + " secret(s)";
        switch (file.role) {
        case FileRole::memory:
            try {
                static_cast<void>(store_->update(file.key, [](Memory &) {}));
                report_->changes.push_back(file.key + ": redacted " + count + " through the store");
                derived_data_stale_ = true;
                return;
            } catch (const StoreError &) {
                // Not a memory the store can parse: redacted as text below; the index notices the edit.
            }
            break;
        case FileRole::archived_memory:
            write_file_atomically(path, redacted_memory_text(content, path.string(), store_->redactor()));
            report_->changes.push_back(file.key + ": redacted " + count);
            return;
        case FileRole::json_lines:
            write_file_atomically(path, redacted_json_lines(content, store_->redactor()));
            report_->changes.push_back(file.key + ": redacted " + count + ", line by line");
            return;
        case FileRole::machine_index:
            derived_data_stale_ = true;
            return;
        case FileRole::plugin_cache:
            derived_data_stale_ = true;
            return;
        case FileRole::text:
            break;
        }
        write_file_atomically(path, store_->redactor().redact(content).text);
        report_->changes.push_back(file.key + ": redacted " + count);
        derived_data_stale_ = derived_data_stale_ || file.role == FileRole::memory;
    }

    /// What is derived from the memories is redone once they are clean: the machine index is
    /// rebuilt, and the plugin caches are deleted, since a plugin may hold a secret in a form no
    /// scanner recognises (split into terms, lower-cased); each plugin derives its cache again.
    void finish() {
        if (!derived_data_stale_) {
            return;
        }
        static_cast<void>(store_->rebuild_index());
        report_->changes.emplace_back("index/: rebuilt from the redacted memories");
        const fs::path caches = plugin_cache_root(store_->root());
        std::error_code error;
        if (!fs::exists(caches, error)) {
            return;
        }
        fs::remove_all(caches, error);
        if (error) {
            throw StoreError(caches.string() + ": cannot remove: " + error.message());
        }
        report_->changes.emplace_back("index/cache/: removed; each plugin derives its cache again from the redacted store");
    }

private:
    MemoryStore *store_;
    SecretScanReport *report_;
    bool derived_data_stale_ = false;
};

} // namespace

SecretScanReport scan_store_for_secrets(MemoryStore &store, bool fix) {
    SecretScanReport report;
    Fixer fixer{store, report};
    for (const auto &file : files_of(store.root())) {
        ++report.files_scanned;
        const std::string content = read_file_if_exists(store.root() / file.key).value_or(std::string{});
        auto findings = findings_in(file, content, store.redactor());
        if (fix && !findings.empty()) {
            fixer.fix(file, content, findings.size());
        }
        report.findings.insert(report.findings.end(), std::make_move_iterator(findings.begin()),
                               std::make_move_iterator(findings.end()));
    }
    if (!fix) {
        return report;
    }
    fixer.finish();
    for (const auto &file : files_of(store.root())) {
        const std::string content = read_file_if_exists(store.root() / file.key).value_or(std::string{});
        auto findings = findings_in(file, content, store.redactor());
        report.remaining.insert(report.remaining.end(), std::make_move_iterator(findings.begin()),
                                std::make_move_iterator(findings.end()));
    }
    return report;
}

} // namespace starling::core
