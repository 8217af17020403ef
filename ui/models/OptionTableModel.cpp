#include "OptionTableModel.h"

#include "Format.h"
#include "PlanJson.h"
#include "PlanText.h"

#include <cmath>
#include <limits>

namespace gpuplan::ui {

using nlohmann::json;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

} // namespace

double modeCost(const json& option, const char* mode)
{
    const json* m = eligibleMode(option, mode);
    return m ? jsonNumber((*m)["cost"], "value") : kNan;
}

OptionTableModel::OptionTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void OptionTableModel::setPlan(const json& plan)
{
    beginResetModel();
    const json results = plan.value("results", json::object());
    m_options = results.value("options", json::array());
    m_currency = jsonText(plan.value("constraints", json::object()), "currency");
    endResetModel();
}

const json& OptionTableModel::option(int row) const
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
    const json& o = m_options[std::size_t(index.row())];
    const json* spot = eligibleMode(o, "spot");
    // The cheaper of the eligible reservation and subscription, whose term the cell names too.
    const json* term = eligibleMode(o, "reserved");
    if (const json* subscription = eligibleMode(o, "subscription");
        subscription && !(modeCost(o, "reserved") <= modeCost(o, "subscription"))) {
        term = subscription;
    }
    const double reserved = term ? jsonNumber((*term)["cost"], "value") : kNan;
    if (role == Qt::UserRole) {
        switch (index.column()) {
            case Rank:
                return jsonNumber(o, "rank");
            case Gpus:
                return jsonNumber(o, "gpus");
            case PricePerHour:
                return jsonNumber(o, "price_per_hour");
            case Hours:
                return jsonNumber(o["hours"], "value");
            case OnDemand:
                return modeCost(o, "on_demand");
            case Spot:
                return spot ? jsonNumber((*spot)["cost"], "value") : kNan;
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
    auto money = [&](double v) { return std::isnan(v) ? QStringLiteral("—") : formatMoney(v, m_currency); };
    switch (index.column()) {
        case Rank:
            return int(jsonNumber(o, "rank"));
        case Provider:
            return providerText(o);
        case Instance:
            return jsonText(o, "instance_type");
        case Gpus:
            return QStringLiteral("%1 × %2").arg(jsonText(o, "gpu_name")).arg(int(jsonNumber(o, "gpus")));
        case Region:
            return jsonText(o, "region");
        case PricePerHour: {
            const double price = jsonNumber(o, "price_per_hour");
            return std::isnan(price) ? QStringLiteral("—") : formatMoney(price, jsonText(o, "price_currency"));
        }
        case Hours:
            return tr("%1 (%2–%3)")
                .arg(formatHours(jsonNumber(o["hours"], "value")),
                     formatHours(jsonNumber(o["hours"], "low")),
                     formatHours(jsonNumber(o["hours"], "high")));
        case OnDemand:
            return money(modeCost(o, "on_demand"));
        case Spot: {
            if (!spot || !spot->contains("spot") || !(*spot)["spot"].contains("monte_carlo_cost")) {
                return money(spot ? jsonNumber((*spot)["cost"], "value") : kNan);
            }
            const json& mc = (*spot)["spot"]["monte_carlo_cost"];
            return tr("%1–%2").arg(money(jsonNumber(mc, "p50")), money(jsonNumber(mc, "p90")));
        }
        case Reserved: {
            const QString commitment = commitmentText(term);
            return commitment.isEmpty() ? money(reserved) : tr("%1 (commits %2)").arg(money(reserved), commitment);
        }
        case FitsMemory: {
            const json fits = o.value("training", json::object()).value("fits_memory", json());
            return fits.is_boolean() ? (fits.get<bool>() ? tr("yes") : tr("no")) : tr("unknown");
        }
        case Risk: {
            QStringList risks;
            const std::string mode = o.value("mode", std::string());
            if (mode == "spot") {
                const json* m = eligibleMode(o, "spot");
                const double p = m ? jsonNumber((*m)["spot"]["monthly_interruption"], "value") : kNan;
                risks << tr("spot: %1 % interruption/month").arg(formatNumber(p * 100, 0));
            }
            if (mode.rfind("reserved", 0) == 0 || mode.rfind("subscription", 0) == 0) {
                const QString commitment = commitmentText(rankedMode(o));
                risks << (commitment.isEmpty() ? tr("commitment") : tr("commitment: %1").arg(commitment));
            }
            const double deadline = jsonNumber(o.value("deadline", json::object()), "hours");
            if (!std::isnan(deadline) && jsonNumber(o["hours"], "high") > deadline) {
                risks << tr("slow end misses the deadline");
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
