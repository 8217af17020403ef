#include "OfferTableModel.h"

#include "wording/Language.h"

#include <QApplication>
#include <QPalette>

namespace gpuplan::ui {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

QString regionsText(const core::RegionalOffer& row)
{
    if (!row.region.empty()) {
        return qs(row.region);
    }
    const auto& regions = row.offer.availableRegions;
    if (regions.empty()) {
        return OfferTableModel::tr("unknown");
    }
    if (regions.size() == 1) {
        return qs(regions.front());
    }
    // The full list is in the tooltip.
    return OfferTableModel::tr("%n regions", nullptr, static_cast<int>(regions.size()));
}

QString sourceToolTip(const core::Price& price)
{
    QString text = OfferTableModel::tr("%1\nSource: %2\nAs of: %3 (read %4)")
                       .arg(priceText(price),
                            qs(price.source.url),
                            price.source.asOf.empty() ? OfferTableModel::tr("undated: the source states no date")
                                                      : qs(price.source.asOf),
                            qs(price.source.retrieved));
    if (!price.source.note.empty()) {
        text += QLatin1Char('\n') + qs(price.source.note);
    }
    return text;
}

} // namespace

QString priceText(const std::optional<core::Price>& price)
{
    return price ? qs(core::formatMoney(price->amount, price->currency)) : OfferTableModel::tr("unknown");
}

QString providerName(const core::Provider& provider)
{
    const bool chinese = currentLanguage().startsWith(QLatin1String("zh")) && !provider.nameZh.empty();
    return qs(chinese ? provider.nameZh : provider.name);
}

OfferTableModel::OfferTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void OfferTableModel::setRows(std::vector<core::RegionalOffer> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

const core::RegionalOffer* OfferTableModel::rowAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_rows.size() ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
}

int OfferTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int OfferTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OfferTableModel::data(const QModelIndex& index, int role) const
{
    const core::RegionalOffer* row = rowAt(index.row());
    if (!row || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    switch (role) {
        case Qt::DisplayRole:
            return display(*row, index.column());
        case SortRole:
            return sortKey(*row, index.column());
        case Qt::ToolTipRole:
            return toolTip(*row, index.column());
        case Qt::TextAlignmentRole:
            switch (index.column()) {
                case GpuMemoryColumn:
                case VcpuColumn:
                case RamColumn:
                case HourlyPriceColumn:
                case SpotPriceColumn:
                case MonthlyPriceColumn:
                case YearlyPriceColumn:
                    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
                default:
                    return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
            }
        case Qt::ForegroundRole:
            // Unknown prices are shown, in a quieter colour, never hidden or guessed.
            if ((index.column() == HourlyPriceColumn && !row->onDemandHourly)
                || (index.column() == SpotPriceColumn && !row->spotHourly)
                || (index.column() == MonthlyPriceColumn && !row->monthly)
                || (index.column() == YearlyPriceColumn && !row->yearly)) {
                return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
            }
            return {};
        default:
            return {};
    }
}

QVariant OfferTableModel::display(const core::RegionalOffer& row, int column) const
{
    switch (column) {
        case ProviderColumn:
            return providerName(row.provider);
        case InstanceColumn:
            return qs(row.offer.instanceType);
        case GpuColumn:
            return tr("%1 × %2").arg(qs(row.gpu.name)).arg(row.offer.gpuCount);
        case GpuMemoryColumn:
            return tr("%1 GB").arg(row.gpuMemoryTotalGb());
        case VcpuColumn:
            return row.offer.vcpus ? QVariant(*row.offer.vcpus) : QVariant(QStringLiteral("—"));
        case RamColumn:
            return row.offer.ramGib ? QVariant(tr("%1 GiB").arg(*row.offer.ramGib)) : QVariant(QStringLiteral("—"));
        case RegionColumn:
            return regionsText(row);
        case HourlyPriceColumn:
            return shownPrice(row.onDemandHourly);
        case SpotPriceColumn:
            return row.spotHourly ? shownPrice(row.spotHourly) : QStringLiteral("—");
        case MonthlyPriceColumn:
            return row.monthly ? shownPrice(row.monthly) : QStringLiteral("—");
        case YearlyPriceColumn:
            return row.yearly ? shownPrice(row.yearly) : QStringLiteral("—");
        case PriceDateColumn:
            return row.priceDate().empty() ? QStringLiteral("—") : qs(row.priceDate());
        case FeaturesColumn:
            return featuresText(row.offer);
        default:
            return {};
    }
}

std::optional<double> OfferTableModel::converted(const core::Price& price) const
{
    if (!m_displayCurrency || !m_rate) {
        return std::nullopt;
    }
    return m_rate->convert(price.amount, price.currency, *m_displayCurrency);
}

QString OfferTableModel::shownPrice(const std::optional<core::Price>& price) const
{
    if (!price) {
        return tr("unknown");
    }
    if (m_displayCurrency && price->currency != *m_displayCurrency) {
        if (std::optional<double> value = converted(*price)) {
            // "≈": converted with the displayed exchange rate; the price itself stays in its own currency.
            return QStringLiteral("≈ ") + qs(core::formatMoney(*value, *m_displayCurrency, 2));
        }
    }
    return priceText(price);
}

QString featuresText(const core::Offer& offer)
{
    QStringList features;
    switch (offer.service) {
        case core::ServiceKind::BareMetal:
            features << OfferTableModel::tr("bare metal");
            break;
        case core::ServiceKind::Managed:
            features << OfferTableModel::tr("managed");
            break;
        case core::ServiceKind::Tpu:
            features << OfferTableModel::tr("TPU");
            break;
        case core::ServiceKind::Vm:
            break;
    }
    if (offer.rdma.value_or(false)) {
        features << OfferTableModel::tr("RDMA");
    }
    if (offer.bareMetal.value_or(false) && offer.service != core::ServiceKind::BareMetal) {
        features << OfferTableModel::tr("isolated option");
    }
    if (offer.mig.value_or(false)) {
        features << OfferTableModel::tr("MIG");
    }
    if (offer.origin == core::OfferOrigin::UserAdded) {
        features << OfferTableModel::tr("your offer");
    } else if (offer.origin == core::OfferOrigin::UserOverride) {
        features << OfferTableModel::tr("your price (overrides the catalog)");
    }
    return features.join(QStringLiteral(" · "));
}

void OfferTableModel::setDisplayCurrency(std::optional<core::Currency> currency, std::optional<core::ExchangeRate> rate)
{
    m_displayCurrency = currency;
    m_rate = std::move(rate);
    if (!m_rows.empty()) {
        emit dataChanged(index(0, HourlyPriceColumn), index(rowCount() - 1, YearlyPriceColumn));
    }
}

QVariant OfferTableModel::sortKey(const core::RegionalOffer& row, int column) const
{
    auto priceKey = [this](const std::optional<core::Price>& price) -> QVariant {
        // Unknown prices sort last. With a display currency, prices sort by their converted value; without
        // one, by currency first, then amount.
        if (!price) {
            return QStringLiteral("~");
        }
        if (std::optional<double> value = converted(*price)) {
            return QStringLiteral("%1").arg(*value, 16, 'f', 6, QLatin1Char('0'));
        }
        return QStringLiteral("%1 %2")
            .arg(qs(core::currencyCode(price->currency)))
            .arg(price->amount, 16, 'f', 6, QLatin1Char('0'));
    };
    switch (column) {
        case GpuColumn:
            return QStringLiteral("%1 %2").arg(qs(row.gpu.name)).arg(row.offer.gpuCount, 4, 10, QLatin1Char('0'));
        case GpuMemoryColumn:
            return row.gpuMemoryTotalGb();
        case VcpuColumn:
            return row.offer.vcpus.value_or(-1);
        case RamColumn:
            return row.offer.ramGib.value_or(-1);
        case HourlyPriceColumn:
            return priceKey(row.onDemandHourly);
        case SpotPriceColumn:
            return priceKey(row.spotHourly);
        case MonthlyPriceColumn:
            return priceKey(row.monthly);
        case YearlyPriceColumn:
            return priceKey(row.yearly);
        default:
            return display(row, column);
    }
}

QVariant OfferTableModel::toolTip(const core::RegionalOffer& row, int column) const
{
    switch (column) {
        case HourlyPriceColumn:
            return row.onDemandHourly ? sourceToolTip(*row.onDemandHourly)
                                      : tr("No published price was found for this offer; none is guessed.");
        case SpotPriceColumn:
            return row.spotHourly ? sourceToolTip(*row.spotHourly) : QVariant{};
        case MonthlyPriceColumn:
            return row.monthly ? sourceToolTip(*row.monthly) : QVariant{};
        case YearlyPriceColumn:
            return row.yearly ? sourceToolTip(*row.yearly) : QVariant{};
        case FeaturesColumn:
            return row.offer.rdmaNote.empty() ? QVariant{} : qs(row.offer.rdmaNote);
        case RegionColumn: {
            QStringList regions;
            for (const std::string& region : row.offer.regions()) {
                regions << qs(region);
            }
            return regions.join(QStringLiteral(", "));
        }
        case GpuColumn:
            return tr("Datasheet: %1 (%2)").arg(qs(row.gpu.source.url), qs(row.gpu.source.asOfOrUndated()));
        default:
            return {};
    }
}

QVariant OfferTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case ProviderColumn:
            return tr("Provider");
        case InstanceColumn:
            return tr("Instance");
        case GpuColumn:
            return tr("GPU × count");
        case GpuMemoryColumn:
            return tr("GPU memory");
        case VcpuColumn:
            return tr("vCPU");
        case RamColumn:
            return tr("RAM");
        case RegionColumn:
            return tr("Region");
        case HourlyPriceColumn:
            return tr("Price/hour");
        case SpotPriceColumn:
            return tr("Spot/hour");
        case MonthlyPriceColumn:
            return tr("Price/month");
        case YearlyPriceColumn:
            return tr("Yearly, per month");
        case PriceDateColumn:
            return tr("Price date");
        case FeaturesColumn:
            return tr("Features");
        default:
            return {};
    }
}

void OfferTableModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_rows.empty()) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
}

} // namespace gpuplan::ui
