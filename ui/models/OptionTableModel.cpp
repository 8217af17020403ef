#include "OptionTableModel.h"

#include "wording/Format.h"
#include "wording/PlanText.h"

#include <cmath>
#include <limits>

namespace gpuplan::ui {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

/// The central cost of a mode, or NaN without one.
double costOf(const core::PlanMode* mode)
{
    return mode ? mode->cost.value : kNan;
}

} // namespace

double modeCost(const core::PlanOption& option, bool (*matches)(core::PricingMode))
{
    return costOf(option.firstEligible(matches));
}

OptionTableModel::OptionTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void OptionTableModel::setPlan(const core::PlanDocument& plan)
{
    beginResetModel();
    m_options = plan.results.options;
    m_currency = plan.currency();
    endResetModel();
}

const core::PlanOption& OptionTableModel::option(int row) const
{
    return m_options.at(std::size_t(row));
}

int OptionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_options.size());
}

int OptionTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OptionTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const core::PlanOption& o = m_options[std::size_t(index.row())];
    const core::PlanMode* spot = o.firstEligible(core::isSpot);
    // The cheaper of the eligible reservation and subscription, whose term the cell names too.
    const core::PlanMode* term = o.firstEligible(core::isReserved);
    if (const core::PlanMode* subscription = o.firstEligible(core::isSubscription);
        subscription && !(costOf(term) <= subscription->cost.value)) {
        term = subscription;
    }
    const double reserved = costOf(term);
    if (role == Qt::UserRole) {
        switch (index.column()) {
            case Rank:
                return double(o.rank);
            case Gpus:
                return double(o.gpus);
            case PricePerHour:
                return o.pricePerHour.value_or(kNan);
            case Hours:
                return o.hours.value;
            case OnDemand:
                return modeCost(o, core::isOnDemand);
            case Spot:
                return costOf(spot);
            case Reserved:
                return reserved;
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Provider && index.column() != Instance
        && index.column() != Region && index.column() != Risk) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
        return {};
    }
    const QString currency = QString::fromLatin1(core::currencyCode(m_currency));
    auto money = [&](double v) { return std::isnan(v) ? QStringLiteral("—") : formatMoney(v, currency); };
    switch (index.column()) {
        case Rank:
            return o.rank;
        case Provider:
            return providerText(o);
        case Instance:
            return QString::fromStdString(o.instanceType);
        case Gpus:
            return QStringLiteral("%1 × %2").arg(QString::fromStdString(o.gpuName)).arg(o.gpus);
        case Region:
            return QString::fromStdString(o.region);
        case PricePerHour:
            return o.pricePerHour
                       ? formatMoney(*o.pricePerHour, QString::fromLatin1(core::currencyCode(o.priceCurrency)))
                       : QStringLiteral("—");
        case Hours:
            return tr("%1 (%2–%3)")
                .arg(formatHours(o.hours.value), formatHours(o.hours.low), formatHours(o.hours.high));
        case OnDemand:
            return money(modeCost(o, core::isOnDemand));
        case Spot: {
            if (!spot || !spot->spot || !spot->spot->simulatedCost) {
                return money(costOf(spot));
            }
            const core::PlanSpot::CostPercentiles& simulated = *spot->spot->simulatedCost;
            return tr("%1–%2").arg(money(simulated.p50), money(simulated.p90));
        }
        case Reserved: {
            const QString commitment = commitmentText(term, m_currency);
            return commitment.isEmpty() ? money(reserved) : tr("%1 (commits %2)").arg(money(reserved), commitment);
        }
        case FitsMemory: {
            const std::optional<bool> fits = o.training.fitsMemory;
            return fits ? (*fits ? tr("yes") : tr("no")) : tr("unknown");
        }
        case Risk: {
            QStringList risks;
            if (o.mode == core::PricingMode::Spot) {
                const core::PlanMode* m = o.firstEligible(core::isSpot);
                const double p = m && m->spot ? m->spot->monthlyInterruption.value : kNan;
                risks << tr("spot: %1 % interruption/month").arg(formatNumber(p * 100, 0));
            }
            if (core::isReserved(o.mode) || core::isSubscription(o.mode)) {
                const QString commitment = commitmentText(o.rankedMode(), m_currency);
                risks << (commitment.isEmpty() ? tr("commitment") : tr("commitment: %1").arg(commitment));
            }
            return risks.isEmpty() ? tr("low") : risks.join(QStringLiteral("; "));
        }
    }
    return {};
}

QVariant OptionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Rank:
            return tr("#");
        case Provider:
            return tr("Provider");
        case Instance:
            return tr("Instance");
        case Gpus:
            return tr("GPU × count");
        case Region:
            return tr("Region");
        case PricePerHour:
            return tr("Price/hour");
        case Hours:
            return tr("Estimated time");
        case OnDemand:
            return tr("On-demand");
        case Spot:
            return tr("Spot P50–P90");
        case Reserved:
            return tr("Reserved/subscr.");
        case FitsMemory:
            return tr("Fits memory");
        case Risk:
            return tr("Risk");
    }
    return {};
}

} // namespace gpuplan::ui
