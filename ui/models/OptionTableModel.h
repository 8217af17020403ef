#pragma once

#include <nlohmann/json.hpp>

#include <QAbstractTableModel>

namespace gpuplan::ui {

/// The ranked options of a plan document, one row each; sorts by the numbers behind the text (Qt::UserRole).
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

    void setPlan(const nlohmann::json& plan);
    const nlohmann::json& option(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    nlohmann::json m_options = nlohmann::json::array();
    QString m_currency;
};

/// The cost of one pricing mode of an option (its value), or NaN when the option has no eligible such mode.
double modeCost(const nlohmann::json& option, const char* mode);

} // namespace gpuplan::ui
