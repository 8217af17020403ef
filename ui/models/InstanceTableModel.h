#pragma once

#include "workers/CloudJobs.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <vector>

namespace gpuplan::ui {

/// The ledger's entries as a table: what runs where, since when, what it has cost so far (from the price at
/// launch) and how long until its dead-man switch fires.
class InstanceTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        EntryColumn,
        ProviderColumn,
        ZoneColumn,
        TypeColumn,
        ModeColumn,
        StateColumn,
        InstanceIdColumn,
        UptimeColumn,
        CostColumn,
        DeadmanColumn,
        ColumnCount,
    };
    static constexpr int EntryIdRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    /// Shows `entries` as of `now` (Unix seconds); `showEnded`: also the terminated and failed ones.
    void setEntries(std::vector<core::LedgerEntry> entries, std::int64_t now, bool showEnded);
    const std::vector<core::LedgerEntry>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<core::LedgerEntry> m_entries;
    std::int64_t m_now = 0;
};

/// "3 h 05 min", "12 min", "-" for none.
QString durationText(std::optional<std::int64_t> seconds);
/// The state in the UI's words ("running", "terminated").
QString instanceStateText(core::InstanceState state);

} // namespace gpuplan::ui
