// SPDX-License-Identifier: Apache-2.0
// The little of SQLite's C API that reading and writing the cognitive layer's buffer needs, with
// ownership and errors that name the database and the statement. Private to the migration library.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace starling::app::migration {

/// One column of a result row: NULL, or its value as text (an integer in decimal, a real in the
/// fewest digits that read back as the same double, a blob's bytes as they are).
struct SqlValue {
    enum class Kind { null, integer, real, text, blob };
    Kind kind = Kind::null;
    std::string text;

    [[nodiscard]] bool is_null() const noexcept { return kind == Kind::null; }
};

class SqliteDatabase;

/// A prepared statement; step() until it returns false.
class SqliteStatement {
public:
    SqliteStatement(SqliteDatabase &database, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;

    /// Binds parameter `index` (1-based); nullopt binds NULL.
    void bind_text(int index, const std::optional<std::string> &value);
    void bind_integer(int index, long long value);
    void bind_real(int index, double value);
    /// Runs the statement to its next row: true with a row, false when done. Throws std::runtime_error.
    bool step();
    /// Steps once more for a statement that returns no row, then resets it for new bindings.
    void execute();

    [[nodiscard]] int columns() const;
    [[nodiscard]] std::string column_name(int column) const;
    [[nodiscard]] SqlValue value(int column) const;

private:
    SqliteDatabase &database_;
    std::string sql_;
    sqlite3_stmt *statement_ = nullptr;
};

/// An open database: read-only (an existing file, never changed) or a new one in memory.
class SqliteDatabase {
public:
    /// Opens `file` read-only. Throws std::runtime_error naming the file if it cannot be opened or is
    /// no SQLite database.
    static SqliteDatabase open_read_only(const std::filesystem::path &file);
    /// A new, empty database in memory.
    static SqliteDatabase in_memory();

    ~SqliteDatabase();
    SqliteDatabase(SqliteDatabase &&other) noexcept;
    SqliteDatabase(const SqliteDatabase &) = delete;
    SqliteDatabase &operator=(const SqliteDatabase &) = delete;
    SqliteDatabase &operator=(SqliteDatabase &&) = delete;

    /// Runs one or more statements that return no rows. Throws std::runtime_error.
    void execute(std::string_view sql);
    [[nodiscard]] bool has_table(std::string_view name);
    /// The names of the table's columns, in order.
    [[nodiscard]] std::vector<std::string> columns_of(std::string_view table);
    [[nodiscard]] std::vector<std::string> tables();
    /// The database as the bytes of a database file.
    [[nodiscard]] std::string serialise();

    /// `<name>: <SQLite's message>` for the last failure.
    [[nodiscard]] std::string error_text() const;
    [[nodiscard]] sqlite3 *handle() const noexcept { return database_; }

private:
    SqliteDatabase(sqlite3 *database, std::string name) : database_(database), name_(std::move(name)) {}

    sqlite3 *database_ = nullptr;
    std::string name_;
};

} // namespace starling::app::migration
