// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sqlite3.h>

#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace starling::test {

/// Runs statements that return no rows on a database file, created when missing.
inline void execute_sqlite(const std::filesystem::path &database, const std::string &sql) {
    sqlite3 *handle = nullptr;
    if (sqlite3_open(database.c_str(), &handle) != SQLITE_OK ||
        sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
        const std::string message = handle == nullptr ? "out of memory" : sqlite3_errmsg(handle);
        sqlite3_close(handle);
        throw std::runtime_error(database.string() + ": " + message);
    }
    sqlite3_close(handle);
}

/// A database file built from the SQL text of `sql_file`: how tests get the cognitive layer's
/// buffer without a binary file in the repository.
inline std::filesystem::path build_sqlite_database(const std::filesystem::path &sql_file,
                                                   const std::filesystem::path &database) {
    std::ifstream in{sql_file, std::ios::binary};
    const std::string sql{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    std::filesystem::create_directories(database.parent_path());
    execute_sqlite(database, sql);
    return database;
}

/// The rows `sql` returns, each value as `NULL` or `<type>:<text>` (`integer:3`, `text:abc`), so that
/// a comparison sees types as well as values.
inline std::vector<std::vector<std::string>> sqlite_rows(const std::filesystem::path &database, const std::string &sql) {
    sqlite3 *handle = nullptr;
    if (sqlite3_open_v2(database.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(handle);
        throw std::runtime_error(database.string() + ": cannot be opened");
    }
    std::unique_ptr<sqlite3, int (*)(sqlite3 *)> owned{handle, &sqlite3_close};
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
        throw std::runtime_error(database.string() + ": " + sqlite3_errmsg(handle));
    }
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> finalised{statement, &sqlite3_finalize};
    std::vector<std::vector<std::string>> rows;
    while (sqlite3_step(statement) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int column = 0; column < sqlite3_column_count(statement); ++column) {
            const int type = sqlite3_column_type(statement, column);
            if (type == SQLITE_NULL) {
                row.emplace_back("NULL");
                continue;
            }
            if (type == SQLITE_FLOAT) {
                std::array<char, 32> digits{};
                const auto end = std::to_chars(digits.data(), digits.data() + digits.size(),
                                               sqlite3_column_double(statement, column)).ptr;
                row.push_back("real:" + std::string(digits.data(), end));
                continue;
            }
            const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement, column));
            const std::string value{text, static_cast<std::size_t>(sqlite3_column_bytes(statement, column))};
            row.push_back((type == SQLITE_INTEGER ? "integer:" : type == SQLITE_BLOB ? "blob:" : "text:") + value);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace starling::test
