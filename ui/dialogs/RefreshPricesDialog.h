#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/net/Http.h"
#include "gpuplan/prices/PriceRefresh.h"

#include "workers/PageJob.h"

#include <QDialog>

#include <filesystem>
#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace gpuplan::ui {

class CredentialStore;

/// Reads a provider's current price list off the UI thread, with progress and a Cancel button, keeps the prices
/// of the catalog's offers as a layer over the bundled ones (core::saveRefreshedPrices) and says what changed,
/// old -> new, per offer. Price APIs that need an account use the credential in `store` (AWS reads its public Price
/// List without one, and its spot prices with one). `pricesRefreshed` asks the window to load the catalog again.
class RefreshPricesDialog final : public QDialog
{
    Q_OBJECT

public:
    RefreshPricesDialog(core::Catalog catalog,
                        std::filesystem::path pricesDir,
                        CredentialStore* store,
                        QWidget* parent = nullptr);

signals:
    void pricesRefreshed();

private:
    void start();
    void run(const std::string& provider, core::PriceListAccess access);
    void cancel();
    void finished(const core::Result<core::PriceRefresh>& result);
    void showProgress(const QString& what, quint64 done, quint64 total, bool bytes);

    core::Catalog m_catalog;
    std::filesystem::path m_pricesDir;
    CredentialStore* m_store = nullptr;
    QComboBox* m_provider = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QTextBrowser* m_summary = nullptr;
    QPushButton* m_refresh = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_close = nullptr;
    PageJob m_job;
};

} // namespace gpuplan::ui
