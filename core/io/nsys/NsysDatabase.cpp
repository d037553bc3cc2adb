#include "io/nsys/NsysDatabase.h"

#include "io/LoadError.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace sl::nsys {

namespace {

// A file name as an SQLite URI path: the characters a URI gives meaning to are escaped.
std::string uriPath(const std::string& path) {
    std::string abs = std::filesystem::absolute(path).string();
    std::string out;
    for (char ch : abs) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out;
}

// SQLite's text for an error code, made to read as the rest of the loader's messages.
std::string describe(sqlite3* db, int code) {
    if (code == SQLITE_NOTADB) return "not an SQLite database";
    if (code == SQLITE_CORRUPT) return "the SQLite database is malformed or truncated";
    const char* msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    return std::string("SQLite: ") + (msg ? msg : sqlite3_errstr(code));
}

// A database shorter than its header says (the header's page count is trusted when its
// "version-valid-for" number equals the change counter, as SQLite itself does): a truncated copy
// whose missing pages SQLite would only notice when a query reaches them.
void checkWhole(std::string_view header, std::int64_t size, const std::string& name) {
    if (header.size() < 100 || !header.starts_with(std::string_view("SQLite format 3\0", 16))) return;
    auto u = [&](std::size_t at, int n) {
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v = (v << 8) | static_cast<unsigned char>(header[at + static_cast<std::size_t>(i)]);
        return v;
    };
    const std::uint64_t pageSize = u(16, 2) == 1 ? 65536 : u(16, 2);
    const std::uint64_t pages = u(28, 4);
    if (u(92, 4) != u(24, 4) || pages == 0) return;
    const std::uint64_t expected = pageSize * pages;
    if (static_cast<std::uint64_t>(size) < expected)
        throw LoadError(ErrorKind::Parse, name,
                        "truncated SQLite database: its header says " + std::to_string(expected) +
                            " bytes, the file has " + std::to_string(size));
}

} // namespace

Query::Query(const Database& db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK)
        db.fail("reading the export");
}

Query::~Query() {
    sqlite3_finalize(stmt_);
}

bool Query::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_.fail("reading the export");
}

bool Query::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

bool Query::isInteger(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER;
}

std::int64_t Query::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

double Query::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

std::string_view Query::text(int column) const {
    const unsigned char* t = sqlite3_column_text(stmt_, column);
    if (!t) return {};
    return {reinterpret_cast<const char*>(t), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

Database::Database(sqlite3* db, std::string name) : db_(db), name_(std::move(name)) {}

Database::Database(Database&& other) noexcept
    : db_(other.db_), name_(std::move(other.name_)), columns_(std::move(other.columns_)) {
    other.db_ = nullptr;
}

Database::~Database() {
    sqlite3_close(db_);
}

Database Database::openFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw LoadError(ErrorKind::Read, path, "no such file");
    if (std::filesystem::is_directory(path, ec))
        throw LoadError(ErrorKind::Read, path, "is a folder, not a file");
    {
        std::ifstream in(path, std::ios::binary);
        std::string header(100, '\0');
        in.read(header.data(), 100);
        header.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
        checkWhole(header, static_cast<std::int64_t>(std::filesystem::file_size(path, ec)), path);
    }
    // One connection per load, used by one thread: no SQLite mutex around every column read.
    sqlite3* db = nullptr;
    const std::string uri = "file:" + uriPath(path) + "?immutable=1";
    const int rc = sqlite3_open_v2(uri.c_str(), &db,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    Database out(db, path);
    if (rc != SQLITE_OK) throw LoadError(ErrorKind::Read, path, describe(db, rc));
    out.readSchema();
    return out;
}

Database Database::openBytes(std::string_view bytes, const std::string& name) {
    checkWhole(bytes.substr(0, 100), static_cast<std::int64_t>(bytes.size()), name);
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    Database out(db, name);
    if (rc != SQLITE_OK) throw LoadError(ErrorKind::Read, name, describe(db, rc));
    // SQLite owns (and frees) its copy of the bytes.
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(bytes.size() ? bytes.size() : 1));
    if (!copy) throw LoadError(ErrorKind::Limit, name, "out of memory for the database");
    if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
    rc = sqlite3_deserialize(db, "main", copy, static_cast<sqlite3_int64>(bytes.size()),
                             static_cast<sqlite3_int64>(bytes.size()),
                             SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK) throw LoadError(ErrorKind::Parse, name, describe(db, rc));
    out.readSchema();
    return out;
}

void Database::fail(const std::string& doing) const {
    const int code = sqlite3_errcode(db_);
    const ErrorKind kind = code == SQLITE_NOMEM ? ErrorKind::Limit : ErrorKind::Parse;
    throw LoadError(kind, name_, describe(db_, code) + " (" + doing + ")");
}

bool Database::hasColumn(std::string_view table, std::string_view column) const {
    auto it = columns_.find(std::string(table));
    return it != columns_.end() && it->second.count(std::string(column)) > 0;
}

std::int64_t Database::rowCount(std::string_view table) const {
    if (!hasTable(table)) return 0;
    Query q(*this, "SELECT count(*) FROM \"" + std::string(table) + "\"");
    return q.step() ? q.integer(0) : 0;
}

void Database::readSchema() {
    // Reading sqlite_master is where a file that is not a database, or a truncated one, fails. One
    // query for every table's columns: an export has about a hundred tables.
    Query q(*this, "SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p "
                   "WHERE m.type IN ('table', 'view')");
    while (q.step())
        columns_[std::string(q.text(0))].emplace(q.text(1));
}

} // namespace sl::nsys
