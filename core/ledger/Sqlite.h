#pragma once
// SQLite as the ledger uses it: prepared statements that finalize themselves, errors that name the file, and
// BEGIN IMMEDIATE transactions. Private to core/ledger.

#include "gpuplan/core/Result.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace gpuplan::core::sql {

class Statement
{
public:
    Statement(sqlite3* db, const char* sql)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK) {
            m_stmt = nullptr;
        }
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    explicit operator bool() const { return m_stmt != nullptr; }
    sqlite3_stmt* get() const { return m_stmt; }

    void bind(int i, const std::string& text) { sqlite3_bind_text(m_stmt, i, text.c_str(), -1, SQLITE_TRANSIENT); }
    void bind(int i, std::int64_t value) { sqlite3_bind_int64(m_stmt, i, value); }
    void bind(int i, double value) { sqlite3_bind_double(m_stmt, i, value); }
    void bindNull(int i) { sqlite3_bind_null(m_stmt, i); }

    std::string text(int column) const
    {
        const unsigned char* value = sqlite3_column_text(m_stmt, column);
        return value ? reinterpret_cast<const char*>(value) : std::string();
    }
    std::int64_t integer(int column) const { return sqlite3_column_int64(m_stmt, column); }
    double real(int column) const { return sqlite3_column_double(m_stmt, column); }
    bool isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }

private:
    sqlite3_stmt* m_stmt = nullptr;
};

/// `key` says what the ledger was doing ("error.ledger.reading"); SQLite's message is its "said".
inline Error sqlError(sqlite3* db, const char* key)
{
    return Error{
        ErrorCode::FileUnreadable, Reason{key, {{"said", sqlite3_errmsg(db)}}}, sqlite3_db_filename(db, "main")};
}

/// What SQLite said in an error of exec() or sqlError().
inline std::string sqliteSaid(const Error& error)
{
    const auto said = error.reason.params.find("said");
    return said == error.reason.params.end() ? describe(error) : said->second;
}

inline Status exec(sqlite3* db, const char* sql)
{
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        Error error{ErrorCode::FileUnreadable,
                    Reason{"error.ledger.sqlite", {{"said", message ? message : sqlite3_errmsg(db)}}},
                    sqlite3_db_filename(db, "main")};
        sqlite3_free(message);
        return error;
    }
    return Ok{};
}

/// One BEGIN IMMEDIATE transaction: the write lock is taken before anything is read, so that what is read is
/// what the write is based on (another process waits, up to the busy timeout). Inside an open transaction it
/// joins that one. Rolled back unless committed.
class Transaction
{
public:
    explicit Transaction(sqlite3* db)
        : m_db(db)
        , m_owner(sqlite3_get_autocommit(db) != 0)
    {
        if (m_owner) {
            m_begun = exec(db, "BEGIN IMMEDIATE");
        }
    }
    ~Transaction()
    {
        if (m_owner && m_begun && !m_committed) {
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        }
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    const Status& begun() const { return m_begun; }
    Status commit()
    {
        if (!m_owner) {
            return Ok{};
        }
        Status done = exec(m_db, "COMMIT");
        m_committed = done.ok();
        return done;
    }

private:
    sqlite3* m_db;
    bool m_owner;
    Status m_begun = Ok{};
    bool m_committed = false;
};

} // namespace gpuplan::core::sql
