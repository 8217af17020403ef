#pragma once

#include "gpuplan/catalog/Catalog.h"

#include <QAbstractTableModel>

#include <vector>

namespace gpuplan::ui {

/// The catalog's offers, one row per instance type and region, for the Catalog page's table.
/// Qt::UserRole gives a sort key (numbers sort as numbers; prices by currency, then amount).
class OfferTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        ProviderColumn,
        InstanceColumn,
        GpuColumn,
        GpuMemoryColumn,
        VcpuColumn,
        RamColumn,
        RegionColumn,
        HourlyPriceColumn,
        SpotPriceColumn,
        MonthlyPriceColumn,
        YearlyPriceColumn,
        PriceDateColumn,
        FeaturesColumn,
        ColumnCount
    };

    static constexpr int SortRole = Qt::UserRole;

    explicit OfferTableModel(QObject* parent = nullptr);

    void setRows(std::vector<core::RegionalOffer> rows);
    const core::RegionalOffer* rowAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Show prices converted to `currency` with `rate` (marked "≈"), or each in its own currency (nullopt).
    void setDisplayCurrency(std::optional<core::Currency> currency, std::optional<core::ExchangeRate> rate);

    /// Headers and "unknown" texts are translated: call after the language changes.
    void retranslate();

private:
    QVariant display(const core::RegionalOffer& row, int column) const;
    QVariant sortKey(const core::RegionalOffer& row, int column) const;
    QVariant toolTip(const core::RegionalOffer& row, int column) const;

    std::optional<double> converted(const core::Price& price) const;
    QString shownPrice(const std::optional<core::Price>& price) const;

    std::vector<core::RegionalOffer> m_rows;
    std::optional<core::Currency> m_displayCurrency;
    std::optional<core::ExchangeRate> m_rate;
};

/// "3.06 USD", or the translated "unknown".
QString priceText(const std::optional<core::Price>& price);
/// The provider's name in the current UI language.
QString providerName(const core::Provider& provider);
/// "RDMA · MIG · your offer": what sets an offer apart, translated.
QString featuresText(const core::Offer& offer);

} // namespace gpuplan::ui
