#pragma once

#include "gpuplan/plan/PlanDocument.h"

#include <QAbstractTableModel>

namespace gpuplan::ui {

/// The ranked options of a plan, one row each; sorts by the numbers behind the text (Qt::UserRole).
class OptionTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    /// In the order a user compares options: what it is, how long it takes, what the run costs in each way of
    /// paying; then the price and place it is costed at. At 1280 px wide every cost column is in view.
    enum Column
    {
        Rank,
        Provider,
        Instance,
        Gpus,
        Hours,
        OnDemand,
        Spot,
        Reserved,
        PricePerHour,
        Region,
        FitsMemory,
        Risk,
        ColumnCount
    };

    explicit OptionTableModel(QObject* parent = nullptr);

    void setPlan(const core::PlanDocument& plan);
    const core::PlanOption& option(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<core::PlanOption> m_options;
    core::Currency m_currency = core::Currency::CNY;
};

/// The cost of one pricing mode of an option (its value), or NaN when the option has no eligible such mode.
double modeCost(const core::PlanOption& option, bool (*matches)(core::PricingMode));

} // namespace gpuplan::ui
