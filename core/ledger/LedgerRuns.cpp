// The ledger's training runs: where each ran, how to reach it again, what was planned and what was measured.

#include "gpuplan/ledger/Ledger.h"

#include "ledger/Sqlite.h"

#include <nlohmann/json.hpp>

#include <array>
#include <utility>

namespace gpuplan::core {

namespace {

using nlohmann::json;
using sql::sqlError;
using sql::Statement;
using sql::Transaction;

constexpr std::array<std::pair<RunState, const char*>, 8> kRunStates{{
    {RunState::Starting, "starting"},
    {RunState::Running, "running"},
    {RunState::Finished, "finished"},
    {RunState::Failed, "failed"},
    {RunState::Stopped, "stopped"},
    {RunState::Lost, "lost"},
    {RunState::Recovering, "recovering"},
    {RunState::Interrupted, "interrupted"},
}};

// wire: SQL
const char* const kAttemptColumns =
    "id, run_id, number, launch_id, host, remote_dir, started_at, ended_at, end_reason, "
    "notice_at, deadline_at, notice_kind, checkpoint_at";

// wire: SQL
const char* const kRunColumns = "id, launch_id, plan_id, host, connection, remote_dir, method, spec, state, "
                                "started_at, ended_at, exit_code, results_dir, results_at, planned, measured";

template <typename T>
void put(json& out, const char* key, const std::optional<T>& value)
{
    if (value) {
        out[key] = *value;
    }
}

template <typename T>
std::optional<T> take(const json& in, const char* key)
{
    const auto it = in.find(key);
    if (it == in.end() || it->is_null()) {
        return std::nullopt;
    }
    if constexpr (std::is_same_v<T, double>) {
        return it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
    } else {
        return it->is_number_integer() ? std::optional<T>(it->get<T>()) : std::nullopt;
    }
}

std::string text(const json& in, const char* key)
{
    const auto it = in.find(key);
    return it != in.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string plannedJson(const PlannedRun& p)
{
    json out = json::object();
    put(out, "throughput", p.throughput);
    put(out, "throughput_low", p.throughputLow);
    put(out, "throughput_high", p.throughputHigh);
    out["throughput_unit"] = p.throughputUnit;
    put(out, "hours", p.hours);
    put(out, "hours_low", p.hoursLow);
    put(out, "hours_high", p.hoursHigh);
    put(out, "cost", p.cost);
    out["currency"] = p.currency;
    put(out, "budget", p.budget);
    out["plan_name"] = p.planName;
    put(out, "checkpoint_interval_hours", p.checkpointIntervalHours);
    put(out, "spot_hours_p50", p.spotHoursP50);
    put(out, "spot_hours_p90", p.spotHoursP90);
    put(out, "spot_cost_p50", p.spotCostP50);
    put(out, "spot_cost_p90", p.spotCostP90);
    return out.dump();
}

PlannedRun readPlanned(const std::string& textJson)
{
    const json in = json::parse(textJson, nullptr, false);
    PlannedRun p;
    if (!in.is_object()) {
        return p;
    }
    p.throughput = take<double>(in, "throughput");
    p.throughputLow = take<double>(in, "throughput_low");
    p.throughputHigh = take<double>(in, "throughput_high");
    p.throughputUnit = text(in, "throughput_unit");
    p.hours = take<double>(in, "hours");
    p.hoursLow = take<double>(in, "hours_low");
    p.hoursHigh = take<double>(in, "hours_high");
    p.cost = take<double>(in, "cost");
    p.currency = text(in, "currency");
    p.budget = take<double>(in, "budget");
    p.planName = text(in, "plan_name");
    p.checkpointIntervalHours = take<double>(in, "checkpoint_interval_hours");
    p.spotHoursP50 = take<double>(in, "spot_hours_p50");
    p.spotHoursP90 = take<double>(in, "spot_hours_p90");
    p.spotCostP50 = take<double>(in, "spot_cost_p50");
    p.spotCostP90 = take<double>(in, "spot_cost_p90");
    return p;
}

std::string measuredJson(const MeasuredRun& m)
{
    json out = json::object();
    put(out, "throughput", m.throughput);
    out["throughput_unit"] = m.throughputUnit;
    out["throughput_readings"] = m.throughputReadings;
    put(out, "gpu_utilization", m.gpuUtilization);
    put(out, "progress", m.progress);
    out["hours"] = m.hours;
    put(out, "cost", m.cost);
    out["cost_currency"] = m.costCurrency;
    return out.dump();
}

MeasuredRun readMeasured(const std::string& textJson)
{
    const json in = json::parse(textJson, nullptr, false);
    MeasuredRun m;
    if (!in.is_object()) {
        return m;
    }
    m.throughput = take<double>(in, "throughput");
    m.throughputUnit = text(in, "throughput_unit");
    m.throughputReadings = take<int>(in, "throughput_readings").value_or(0);
    m.gpuUtilization = take<double>(in, "gpu_utilization");
    m.progress = take<double>(in, "progress");
    m.hours = take<double>(in, "hours").value_or(0);
    m.cost = take<double>(in, "cost");
    m.costCurrency = text(in, "cost_currency");
    return m;
}

RunRecord readRun(const Statement& s)
{
    RunRecord run;
    run.id = s.integer(0);
    run.launchId = s.integer(1);
    run.planId = s.text(2);
    run.host = s.text(3);
    run.connection = s.text(4);
    run.remoteDir = s.text(5);
    run.method = s.text(6);
    run.spec = s.text(7);
    run.state = parseRunState(s.text(8)).value_or(RunState::Lost);
    run.startedAt = s.integer(9);
    if (!s.isNull(10)) {
        run.endedAt = s.integer(10);
    }
    if (!s.isNull(11)) {
        run.exitCode = static_cast<int>(s.integer(11));
    }
    run.resultsDir = s.text(12);
    if (!s.isNull(13)) {
        run.resultsAt = s.integer(13);
    }
    run.planned = readPlanned(s.text(14));
    run.measured = readMeasured(s.text(15));
    return run;
}

/// Binds the run's columns after id, from index `first`, in kRunColumns' order.
void bindRun(Statement& s, const RunRecord& run, int first)
{
    s.bind(first, run.launchId);
    s.bind(first + 1, run.planId);
    s.bind(first + 2, run.host);
    s.bind(first + 3, run.connection.empty() ? std::string("{}") : run.connection);
    s.bind(first + 4, run.remoteDir);
    s.bind(first + 5, run.method);
    s.bind(first + 6, run.spec.empty() ? std::string("{}") : run.spec);
    s.bind(first + 7, std::string(runStateName(run.state)));
    s.bind(first + 8, run.startedAt);
    run.endedAt ? s.bind(first + 9, *run.endedAt) : s.bindNull(first + 9);
    run.exitCode ? s.bind(first + 10, std::int64_t{*run.exitCode}) : s.bindNull(first + 10);
    s.bind(first + 11, run.resultsDir);
    run.resultsAt ? s.bind(first + 12, *run.resultsAt) : s.bindNull(first + 12);
    s.bind(first + 13, plannedJson(run.planned));
    s.bind(first + 14, measuredJson(run.measured));
}

RunAttempt readAttempt(const Statement& s)
{
    auto optional = [&s](int column) {
        return s.isNull(column) ? std::optional<std::int64_t>() : std::optional<std::int64_t>(s.integer(column));
    };
    RunAttempt a;
    a.id = s.integer(0);
    a.runId = s.integer(1);
    a.number = static_cast<int>(s.integer(2));
    a.launchId = s.integer(3);
    a.host = s.text(4);
    a.remoteDir = s.text(5);
    a.startedAt = s.integer(6);
    a.endedAt = optional(7);
    a.end = s.text(8);
    a.noticeAt = optional(9);
    a.deadlineAt = optional(10);
    a.noticeKind = s.text(11);
    a.checkpointAt = optional(12);
    return a;
}

/// Binds the attempt's columns after id and run, from index `first`, in kAttemptColumns' order.
void bindAttempt(Statement& s, const RunAttempt& a, int first)
{
    auto optional = [&s](int index, const std::optional<std::int64_t>& value) {
        value ? s.bind(index, *value) : s.bindNull(index);
    };
    s.bind(first, std::int64_t{a.number});
    s.bind(first + 1, a.launchId);
    s.bind(first + 2, a.host);
    s.bind(first + 3, a.remoteDir);
    s.bind(first + 4, a.startedAt);
    optional(first + 5, a.endedAt);
    s.bind(first + 6, a.end);
    optional(first + 7, a.noticeAt);
    optional(first + 8, a.deadlineAt);
    s.bind(first + 9, a.noticeKind);
    optional(first + 10, a.checkpointAt);
}

/// The rows of `select` (optionally WHERE `column` = `value`) in `order`, each read with `read`.
template <typename Row>
Result<std::vector<Row>> selectRows(sqlite3* db,
                                    const std::string& select,
                                    const char* column,
                                    std::optional<std::int64_t> value,
                                    const char* order,
                                    Row (*read)(const Statement&))
{
    // wire: SQL
    const std::string sql = select + (value ? std::string(" WHERE ") + column + " = ?" : "") + " ORDER BY " + order;
    Statement s(db, sql.c_str());
    if (!s) {
        return sqlError(db, "error.ledger.reading_runs");
    }
    if (value) {
        s.bind(1, *value);
    }
    std::vector<Row> out;
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        out.push_back(read(s));
    }
    return out;
}

} // namespace

const char* runStateName(RunState state)
{
    for (const auto& [value, name] : kRunStates) {
        if (value == state) {
            return name;
        }
    }
    return "lost";
}

std::optional<RunState> parseRunState(std::string_view name)
{
    for (const auto& [value, known] : kRunStates) {
        if (name == known) {
            return value;
        }
    }
    return std::nullopt;
}

bool isFinal(RunState state)
{
    return state != RunState::Starting && state != RunState::Running && state != RunState::Recovering;
}

Result<std::int64_t> Ledger::recordRun(const RunRecord& run)
{
    Transaction transaction(m_db);
    if (!transaction.begun()) {
        return transaction.begun().error();
    }
    if (run.launchId != 0) {
        Result<std::optional<LedgerEntry>> entry = find(run.launchId);
        if (!entry) {
            return entry.error();
        }
        if (!*entry) {
            return Error{ErrorCode::NotFound,
                         Reason{"error.ledger.no_launch_to_run_on", {{"entry", std::to_string(run.launchId)}}},
                         "ledger"};
        }
    }
    Statement s(m_db,
                "INSERT INTO runs (launch_id, plan_id, host, connection, remote_dir, method, spec, state, started_at, "
                "ended_at, exit_code, results_dir, results_at, planned, measured) " // wire: SQL
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");            // wire: SQL
    if (!s) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    bindRun(s, run, 1);
    if (sqlite3_step(s.get()) != SQLITE_DONE) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    const std::int64_t id = sqlite3_last_insert_rowid(m_db);
    if (Status done = transaction.commit(); !done) {
        return done.error();
    }
    return id;
}

Status Ledger::updateRun(const RunRecord& run)
{
    Transaction transaction(m_db);
    if (!transaction.begun()) {
        return transaction.begun().error();
    }
    Statement s(m_db,
                "UPDATE runs SET launch_id = ?, plan_id = ?, host = ?, connection = ?, remote_dir = ?, method = ?, "
                "spec = ?, state = ?, started_at = ?, ended_at = ?, exit_code = ?, results_dir = ?, " // wire: SQL
                "results_at = ?, planned = ?, measured = ? WHERE id = ?");                            // wire: SQL
    if (!s) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    bindRun(s, run, 1);
    s.bind(16, run.id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    if (sqlite3_changes(m_db) == 0) {
        return Error{ErrorCode::NotFound, Reason{"error.ledger.no_run", {{"run", std::to_string(run.id)}}}, "ledger"};
    }
    return transaction.commit();
}

Result<std::vector<RunRecord>> Ledger::runs(std::optional<std::int64_t> launchId) const
{
    // wire: SQL
    return selectRows(
        m_db, std::string("SELECT ") + kRunColumns + " FROM runs", "launch_id", launchId, "started_at, id", &readRun);
}

Result<std::optional<RunRecord>> Ledger::findRun(std::int64_t id) const
{
    const std::string sql = std::string("SELECT ") + kRunColumns + " FROM runs WHERE id = ?";
    Statement s(m_db, sql.c_str());
    if (!s) {
        return sqlError(m_db, "error.ledger.reading_runs");
    }
    s.bind(1, id);
    if (sqlite3_step(s.get()) == SQLITE_ROW) {
        return std::optional<RunRecord>(readRun(s));
    }
    return std::optional<RunRecord>();
}

Result<std::int64_t> Ledger::recordAttempt(const RunAttempt& attempt)
{
    Transaction transaction(m_db);
    if (!transaction.begun()) {
        return transaction.begun().error();
    }
    Result<std::optional<RunRecord>> run = findRun(attempt.runId);
    if (!run) {
        return run.error();
    }
    if (!*run) {
        return Error{
            ErrorCode::NotFound, Reason{"error.ledger.no_run", {{"run", std::to_string(attempt.runId)}}}, "ledger"};
    }
    if (attempt.launchId != 0) {
        Statement same(m_db, "SELECT id FROM run_attempts WHERE run_id = ? AND launch_id = ?"); // wire: SQL
        if (!same) {
            return sqlError(m_db, "error.ledger.recording_run");
        }
        same.bind(1, attempt.runId);
        same.bind(2, attempt.launchId);
        if (sqlite3_step(same.get()) == SQLITE_ROW) {
            return same.integer(0);
        }
        // The same attempt on another launch (a zone that refused it, then the next one): it moves there.
        Statement open(m_db,
                       "SELECT id FROM run_attempts WHERE run_id = ? AND number = ? AND end_reason = ''"); // wire: SQL
        if (!open) {
            return sqlError(m_db, "error.ledger.recording_run");
        }
        open.bind(1, attempt.runId);
        open.bind(2, std::int64_t{attempt.number});
        if (sqlite3_step(open.get()) == SQLITE_ROW) {
            const std::int64_t id = open.integer(0);
            Statement move(m_db, "UPDATE run_attempts SET launch_id = ?, started_at = ? WHERE id = ?"); // wire: SQL
            if (!move) {
                return sqlError(m_db, "error.ledger.recording_run");
            }
            move.bind(1, attempt.launchId);
            move.bind(2, attempt.startedAt);
            move.bind(3, id);
            if (sqlite3_step(move.get()) != SQLITE_DONE) {
                return sqlError(m_db, "error.ledger.recording_run");
            }
            if (Status done = transaction.commit(); !done) {
                return done.error();
            }
            return id;
        }
    }
    Statement s(
        m_db,
        "INSERT INTO run_attempts (run_id, number, launch_id, host, remote_dir, started_at, ended_at, " // wire: SQL
        "end_reason, notice_at, deadline_at, notice_kind, checkpoint_at) "                              // wire: SQL
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");                                                 // wire: SQL
    if (!s) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    s.bind(1, attempt.runId);
    bindAttempt(s, attempt, 2);
    if (sqlite3_step(s.get()) != SQLITE_DONE) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    const std::int64_t id = sqlite3_last_insert_rowid(m_db);
    if (Status done = transaction.commit(); !done) {
        return done.error();
    }
    return id;
}

Status Ledger::updateAttempt(const RunAttempt& attempt)
{
    Statement s(
        m_db,
        "UPDATE run_attempts SET number = ?, launch_id = ?, host = ?, remote_dir = ?, started_at = ?, " // wire: SQL
        "ended_at = ?, end_reason = ?, notice_at = ?, deadline_at = ?, notice_kind = ?, "               // wire: SQL
        "checkpoint_at = ? WHERE id = ?");                                                              // wire: SQL
    if (!s) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    bindAttempt(s, attempt, 1);
    s.bind(12, attempt.id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) {
        return sqlError(m_db, "error.ledger.recording_run");
    }
    if (sqlite3_changes(m_db) == 0) {
        return Error{ErrorCode::NotFound,
                     Reason{"error.ledger.no_attempt", {{"attempt", std::to_string(attempt.id)}}},
                     "ledger"};
    }
    return Ok{};
}

Result<std::vector<RunAttempt>> Ledger::attempts(std::optional<std::int64_t> runId) const
{
    // wire: SQL
    return selectRows(m_db,
                      std::string("SELECT ") + kAttemptColumns + " FROM run_attempts",
                      "run_id",
                      runId,
                      "run_id, number, id",
                      &readAttempt);
}

} // namespace gpuplan::core
