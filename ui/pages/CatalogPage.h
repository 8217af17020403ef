#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/catalog/CatalogChecks.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gpuplan::ui {

class OfferTableModel;

/// The Catalog page: every offer in a sortable, filterable table, where the selected row's figures come
/// from, the prices in a chosen display currency, and what the catalog checks found.
class CatalogPage final : public QWidget
{
    Q_OBJECT

public:
    explicit CatalogPage(QWidget* parent = nullptr);

    /// Shows `catalog`; `problems` (entries left out) and `findings` (odd prices) are listed under the table.
    void setCatalog(const core::Catalog& catalog,
                    const std::vector<core::Error>& problems,
                    const std::vector<core::Finding>& findings);
    /// Shown in place of the table's content when the catalog could not be loaded at all.
    void setLoadFailure(const QString& message);
    void retranslate();

    /// The rate prices are converted with: the user's (kept in the settings) or the catalog's sourced one.
    std::optional<core::ExchangeRate> effectiveRate() const;

signals:
    /// The user asked to read the providers' current prices ("Refresh prices…").
    void refreshPricesRequested();

private:
    void fitColumns();
    void updateCountLabel();
    void updateRateLabel();
    void showDetails();
    void applyDisplayCurrency();
    void fillFindings();

    OfferTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_currencyLabel = nullptr;
    QComboBox* m_currency = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QPushButton* m_resetRate = nullptr;
    QPushButton* m_refreshPrices = nullptr;
    QLabel* m_rateLabel = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_details = nullptr;
    QLabel* m_findingsLabel = nullptr;
    QListWidget* m_findings = nullptr;
    QString m_loadFailure;
    std::optional<core::ExchangeRate> m_catalogRate;
    std::vector<core::Error> m_problems;
    std::vector<core::Finding> m_findingList;
};

} // namespace gpuplan::ui
