// SPDX-License-Identifier: Apache-2.0
#include "sqlite_database.hpp"

#include <sqlite3.h>

#include <array>
#include <charconv>
#include <stdexcept>
#include <system_error>

namespace starling::app::migration {

SqliteStatement::SqliteStatement(SqliteDatabase &database, std::string_view sql) : database_(database), sql_(sql) {
    if (sqlite3_prepare_v2(database.handle(), sql_.c_str(), static_cast<int>(sql_.size()), &statement_, nullptr) !=
        SQLITE_OK) {
        throw std::runtime_error(database.error_text() + " (in: " + sql_ + ")");
    }
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

void SqliteStatement::bind_text(int index, const std::optional<std::string> &value) {
    const int result = value ? sqlite3_bind_text(statement_, index, value->data(), static_cast<int>(value->size()),
                                                 SQLITE_TRANSIENT)
                             : sqlite3_bind_null(statement_, index);
    if (result != SQLITE_OK) {
        throw std::runtime_error(database_.error_text() + " (in: " + sql_ + ")");
    }
}

void SqliteStatement::bind_integer(int index, long long value) {
    if (sqlite3_bind_int64(statement_, index, value) != SQLITE_OK) {
        throw std::runtime_error(database_.error_text() + " (in: " + sql_ + ")");
    }
}

void SqliteStatement::bind_real(int index, double value) {
    if (sqlite3_bind_double(statement_, index, value) != SQLITE_OK) {
        throw std::runtime_error(database_.error_text() + " (in: " + sql_ + ")");
    }
}

bool SqliteStatement::step() {
    const int result = sqlite3_step(statement_);
    if (result == SQLITE_ROW) {
        return true;
    }
    if (result == SQLITE_DONE) {
        return false;
    }
    throw std::runtime_error(database_.error_text() + " (in: " + sql_ + ")");
}

void SqliteStatement::execute() {
    static_cast<void>(step());
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
}

int SqliteStatement::columns() const { return sqlite3_column_count(statement_); }

std::string SqliteStatement::column_name(int column) const { return sqlite3_column_name(statement_, column); }

SqlValue SqliteStatement::value(int column) const {
    SqlValue value;
    switch (sqlite3_column_type(statement_, column)) {
    case SQLITE_NULL:
        return value;
    case SQLITE_INTEGER:
        value.kind = SqlValue::Kind::integer;
        break;
    case SQLITE_FLOAT: {
        // The shortest text that reads back as the same double: SQLite's own text keeps 15 digits.
        value.kind = SqlValue::Kind::real;
        std::array<char, 32> digits{};
        const auto end = std::to_chars(digits.data(), digits.data() + digits.size(),
                                       sqlite3_column_double(statement_, column)).ptr;
        value.text.assign(digits.data(), end);
        return value;
    }
    case SQLITE_BLOB:
        value.kind = SqlValue::Kind::blob;
        value.text.assign(static_cast<const char *>(sqlite3_column_blob(statement_, column)),
                          static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
        return value;
    default:
        value.kind = SqlValue::Kind::text;
        break;
    }
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement_, column));
    value.text.assign(text == nullptr ? "" : text, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
    return value;
}

SqliteDatabase SqliteDatabase::open_read_only(const std::filesystem::path &file) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) {
        throw std::runtime_error(file.string() + ": no such database file");
    }
    sqlite3 *handle = nullptr;
    const int result = sqlite3_open_v2(file.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr);
    SqliteDatabase database{handle, file.string()};
    if (result != SQLITE_OK) {
        throw std::runtime_error(database.error_text());
    }
    // Reading the schema is what tells a database from any other file.
    try {
        database.execute("SELECT count(*) FROM sqlite_master");
    } catch (const std::runtime_error &) {
        throw std::runtime_error(database.error_text());
    }
    return database;
}

SqliteDatabase SqliteDatabase::in_memory() {
    sqlite3 *handle = nullptr;
    const int result = sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    SqliteDatabase database{handle, "the exported database"};
    if (result != SQLITE_OK) {
        throw std::runtime_error(database.error_text());
    }
    return database;
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close(database_); }

SqliteDatabase::SqliteDatabase(SqliteDatabase &&other) noexcept
    : database_(other.database_), name_(std::move(other.name_)) {
    other.database_ = nullptr;
}

void SqliteDatabase::execute(std::string_view sql) {
    const std::string text{sql};
    if (sqlite3_exec(database_, text.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
        throw std::runtime_error(error_text());
    }
}

bool SqliteDatabase::has_table(std::string_view name) {
    SqliteStatement statement{*this, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"};
    statement.bind_text(1, std::string{name});
    return statement.step();
}

std::vector<std::string> SqliteDatabase::columns_of(std::string_view table) {
    SqliteStatement statement{*this, "SELECT name FROM pragma_table_info(?)"};
    statement.bind_text(1, std::string{table});
    std::vector<std::string> columns;
    while (statement.step()) {
        columns.push_back(statement.value(0).text);
    }
    return columns;
}

std::vector<std::string> SqliteDatabase::tables() {
    SqliteStatement statement{*this, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"};
    std::vector<std::string> names;
    while (statement.step()) {
        names.push_back(statement.value(0).text);
    }
    return names;
}

std::string SqliteDatabase::serialise() {
    sqlite3_int64 size = 0;
    unsigned char *bytes = sqlite3_serialize(database_, "main", &size, 0);
    if (bytes == nullptr) {
        throw std::runtime_error(name_ + ": could not be serialised");
    }
    std::string image(reinterpret_cast<const char *>(bytes), static_cast<std::size_t>(size));
    sqlite3_free(bytes);
    return image;
}

std::string SqliteDatabase::error_text() const {
    return name_ + ": " + (database_ == nullptr ? "out of memory" : sqlite3_errmsg(database_));
}

} // namespace starling::app::migration
