#pragma once

#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogLoader.h"

#include <QMainWindow>

#include <filesystem>
#include <optional>

class QLabel;
class QListWidget;
class QMessageBox;
class QStackedWidget;
template <typename T>
class QFutureWatcher;

namespace gpuplan::ui {

class CatalogPage;

/// What a catalog load ends with: the catalog (maybe with problems), or the reason there is none.
struct CatalogLoadOutcome
{
    std::optional<core::LoadedCatalog> loaded;
    std::vector<core::Finding> findings;
    std::optional<core::Error> failure;
};

/// The main window: navigation for the whole product on the left, the current page on the right.
/// Pages not built yet are listed, marked as coming and disabled.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    enum class Page
    {
        Plan,
        Compare,
        Costs,
        Launch,
        Instances,
        Verify,
        Reports,
        Catalog,
    };

    /// Starts loading the catalog in `catalogDir` (and the user's offers in `userCatalogDir`, if given) off
    /// the UI thread, and checks it; catalogLoaded() follows.
    explicit MainWindow(std::filesystem::path catalogDir,
                        std::filesystem::path userCatalogDir = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Pages that exist (and can be shown) in this version.
    static QList<Page> availablePages();
    /// A stable, untranslated name of a page ("catalog"), for file names and logs.
    static QString pageKey(Page page);
    void showPage(Page page);
    bool isCatalogLoaded() const { return m_catalogLoaded; }

signals:
    void catalogLoaded();

protected:
    void changeEvent(QEvent* event) override;

private:
    void onCatalogLoaded();
    void showCatalogProblems(const std::vector<core::Error>& problems);
    void retranslate();

    std::filesystem::path m_catalogDir;
    std::filesystem::path m_userCatalogDir;
    QListWidget* m_navigation = nullptr;
    QStackedWidget* m_pages = nullptr;
    CatalogPage* m_catalogPage = nullptr;
    QLabel* m_statusLabel = nullptr;
    QMessageBox* m_problemsBox = nullptr;
    QFutureWatcher<CatalogLoadOutcome>* m_loadWatcher = nullptr;
    std::optional<core::LoadedCatalog> m_catalog;
    std::optional<core::Error> m_loadFailure;
    bool m_catalogLoaded = false;
};

/// Translated name of an error code, for messages ("JSON syntax error").
QString errorCodeText(core::ErrorCode code);

} // namespace gpuplan::ui
