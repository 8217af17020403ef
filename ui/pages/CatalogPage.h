#pragma once

#include "gpuplan/catalog/Catalog.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace gpuplan::ui {

class OfferTableModel;

/// The Catalog page: every offer in a sortable, filterable table, and where the selected row's figures
/// come from.
class CatalogPage final : public QWidget
{
    Q_OBJECT

public:
    explicit CatalogPage(QWidget* parent = nullptr);

    void setCatalog(const core::Catalog& catalog);
    /// Shown in place of the table's content when the catalog could not be loaded at all.
    void setLoadFailure(const QString& message);
    void retranslate();

private:
    void updateCountLabel();
    void showDetails();

    OfferTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_details = nullptr;
    QString m_loadFailure;
};

} // namespace gpuplan::ui
