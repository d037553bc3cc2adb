#pragma once
// An Nsight Systems SQLite export opened read-only through the SQLite C API (docs/Formats.md,
// "Nsight Systems"). The export's tables and columns differ between nsys versions, and a table
// exists only when the run recorded rows for it: readers ask hasTable / hasColumn first and build
// their queries from the columns found. Every SQLite failure (not a database, a malformed or
// truncated file) becomes a LoadError naming the file.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace sl::nsys {

class Database;

// One prepared query; step() moves to the next row (false at the end).
class Query {
public:
    Query(const Database& db, const std::string& sql);
    ~Query();
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;
    bool step();
    bool isNull(int column) const;
    bool isInteger(int column) const;
    std::int64_t integer(int column) const; // 0 for NULL
    double real(int column) const;
    std::string_view text(int column) const; // empty for NULL

private:
    const Database& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

class Database {
public:
    // Opens a file read-only and immutable (no journal, no lock: an export is never written again).
    static Database openFile(const std::string& path);
    // Opens a copy of bytes in memory (the fuzz entry point); name stands for the file in messages.
    static Database openBytes(std::string_view bytes, const std::string& name);
    ~Database();
    Database(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    Database& operator=(Database&&) = delete;

    const std::string& name() const { return name_; }
    bool hasTable(std::string_view table) const { return columns_.count(std::string(table)) > 0; }
    bool hasColumn(std::string_view table, std::string_view column) const;
    const std::map<std::string, std::set<std::string>>& tables() const { return columns_; }
    // Rows of a table (0 when it is absent).
    std::int64_t rowCount(std::string_view table) const;
    // Throws the LoadError for SQLite's last error, with what was being done.
    [[noreturn]] void fail(const std::string& doing) const;
    sqlite3* handle() const { return db_; }

private:
    Database(sqlite3* db, std::string name);
    void readSchema();
    sqlite3* db_ = nullptr;
    std::string name_;
    std::map<std::string, std::set<std::string>> columns_; // table -> its columns
};

} // namespace sl::nsys
