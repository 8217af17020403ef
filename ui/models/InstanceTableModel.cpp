#include "InstanceTableModel.h"

#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/ProviderText.h"

#include <QBrush>
#include <QColor>

namespace gpuplan::ui {

QString durationText(std::optional<std::int64_t> seconds)
{
    if (!seconds || *seconds < 0) {
        return QStringLiteral("-");
    }
    const std::int64_t h = *seconds / 3600;
    const std::int64_t m = (*seconds % 3600) / 60;
    if (h == 0) {
        return InstanceTableModel::tr("%1 min").arg(m);
    }
    return InstanceTableModel::tr("%1 h %2 min").arg(h).arg(m, 2, 10, QLatin1Char('0'));
}

QString instanceStateText(core::InstanceState state)
{
    switch (state) {
        case core::InstanceState::Intent:
            return InstanceTableModel::tr("recorded, not sent");
        case core::InstanceState::Requested:
            return InstanceTableModel::tr("requested, no answer yet");
        case core::InstanceState::Pending:
            return InstanceTableModel::tr("pending");
        case core::InstanceState::Running:
            return InstanceTableModel::tr("running");
        case core::InstanceState::Stopping:
            return InstanceTableModel::tr("stopping");
        case core::InstanceState::Stopped:
            return InstanceTableModel::tr("stopped (may still bill)");
        case core::InstanceState::Terminated:
            return InstanceTableModel::tr("terminated");
        case core::InstanceState::Failed:
            return InstanceTableModel::tr("failed");
    }
    return {};
}

/// A managed job's state: queued, running, being cancelled; at its end how it ended (ledger.job_ended).
QString jobStateText(const core::LedgerEntry& e)
{
    switch (e.state) {
        case core::InstanceState::Intent:
        case core::InstanceState::Requested:
            return instanceStateText(e.state);
        case core::InstanceState::Pending:
            return InstanceTableModel::tr("job queued");
        case core::InstanceState::Running:
            return InstanceTableModel::tr("job running");
        case core::InstanceState::Stopping:
        case core::InstanceState::Stopped:
            return InstanceTableModel::tr("job being cancelled");
        case core::InstanceState::Terminated:
        case core::InstanceState::Failed:
            break;
    }
    const auto outcome = e.detail.params.find("outcome");
    const std::string how =
        e.detail.key == "ledger.job_ended" && outcome != e.detail.params.end() ? outcome->second : std::string();
    if (how == "succeeded") {
        return InstanceTableModel::tr("job finished");
    }
    if (how == "cancelled") {
        return InstanceTableModel::tr("job cancelled");
    }
    return e.state == core::InstanceState::Failed || how == "failed" ? InstanceTableModel::tr("job failed")
                                                                     : InstanceTableModel::tr("job ended");
}

void InstanceTableModel::setEntries(std::vector<core::LedgerEntry> entries, std::int64_t now, bool showEnded)
{
    beginResetModel();
    m_entries.clear();
    for (core::LedgerEntry& e : entries) {
        if (showEnded || !core::isFinal(e.state)) {
            m_entries.push_back(std::move(e));
        }
    }
    m_now = now;
    endResetModel();
}

int InstanceTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int InstanceTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InstanceTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const core::LedgerEntry& e = m_entries[static_cast<std::size_t>(index.row())];
    if (role == EntryIdRole) {
        return QVariant::fromValue<qint64>(e.id);
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
            case EntryColumn:
            case UptimeColumn:
            case CostColumn:
            case DeadmanColumn:
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            default:
                return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == StateColumn && e.state == core::InstanceState::Running) {
        return QBrush(QColor(0x1b, 0x7f, 0x3b));
    }
    if (role == Qt::ToolTipRole) {
        QString tip = e.detail.empty() ? QString() : errorReasonText(e.detail);
        if (e.adopted) {
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n"))
                   + tr("Found running at the provider by reconciliation; it was not recorded by a launch.");
        }
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const core::LaunchIntent& i = e.intent;
    switch (index.column()) {
        case EntryColumn:
            return QVariant::fromValue<qint64>(e.id);
        case ProviderColumn:
            return providerDisplayName(i.provider);
        case ZoneColumn:
            return QString::fromStdString(i.zone.empty() ? i.region : i.zone);
        case TypeColumn:
            return QString::fromStdString(i.instanceType);
        case ModeColumn:
            return QString::fromStdString(i.pricingMode);
        case StateColumn:
            return (i.kind == core::LaunchKind::Job ? jobStateText(e) : instanceStateText(e.state))
                   + (e.adopted ? tr(" (adopted)") : QString());
        case InstanceIdColumn:
            return e.instanceId.empty() ? QStringLiteral("-") : QString::fromStdString(e.instanceId);
        case UptimeColumn:
            return durationText(e.runningSince
                                    ? std::optional<std::int64_t>(e.endedAt.value_or(m_now) - *e.runningSince)
                                    : std::nullopt);
        case CostColumn:
            return formatMoney(core::costSoFar(e, m_now), QString::fromLatin1(core::currencyCode(i.price.currency)), 2);
        case DeadmanColumn:
            if (i.deadmanHours <= 0) {
                return tr("off");
            }
            return durationText(core::secondsUntilDeadman(e, m_now));
    }
    return {};
}

QVariant InstanceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case EntryColumn:
            return tr("Entry");
        case ProviderColumn:
            return tr("Provider");
        case ZoneColumn:
            return tr("Zone");
        case TypeColumn:
            return tr("Instance type");
        case ModeColumn:
            return tr("Pricing");
        case StateColumn:
            return tr("State");
        case InstanceIdColumn:
            return tr("Instance ID");
        case UptimeColumn:
            return tr("Up");
        case CostColumn:
            return tr("Cost so far");
        case DeadmanColumn:
            return tr("Dead-man in");
    }
    return {};
}

} // namespace gpuplan::ui
