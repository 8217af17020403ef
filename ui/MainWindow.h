#pragma once

#include "wording/ErrorText.h"

#include "PlanningData.h"

#include <QMainWindow>

#include <filesystem>
#include <memory>
#include <optional>

class QAction;
class QLabel;
class QMenu;
class QListWidget;
class QMessageBox;
class QStackedWidget;
template <typename T>
class QFutureWatcher;

namespace gpuplan::ui {

class CatalogPage;
class ComparePage;
class CostsPage;
class CredentialStore;
class CredentialsPage;
class InstancesPage;
class LaunchPage;
class PlanSession;
class PlanWizard;
class VerifyPage;
class RunPage;
class ReportsPage;

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
        Run,
        Reports,
        Catalog,
        Credentials,
    };

    /// Starts loading the catalog in `catalogDir` (and the user's offers in `userCatalogDir`, if given) off
    /// the UI thread, and checks it; catalogLoaded() follows.
    explicit MainWindow(std::filesystem::path catalogDir,
                        std::filesystem::path userCatalogDir = {},
                        std::filesystem::path workloadDir = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Pages that exist (and can be shown) in this version.
    static QList<Page> availablePages();
    /// A stable, untranslated name of a page ("catalog"), for file names and logs.
    static QString pageKey(Page page);
    void showPage(Page page);
    bool isCatalogLoaded() const { return m_catalogLoaded; }
    PlanSession* session() const { return m_session; }

    /// Opens a plan file, asking first about unsaved changes; a bad file is reported and nothing is lost.
    bool openPlan(const QString& path);
    /// Saves to the plan's file, or asks for one. Returns false when nothing was saved.
    bool savePlan();
    bool savePlanAs(const QString& path = {});
    /// Writes the open plan's PDF report (cover and paper from Settings) with a progress dialog; asks for the
    /// file when `path` is empty. False when cancelled or when the PDF cannot be written (with a message).
    bool exportReport(const QString& path = {});

signals:
    void catalogLoaded();

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

    /// Opens the "Refresh prices" dialog over the loaded catalog; reloads the catalog after a refresh.
    void refreshPrices();

private:
    void onCatalogLoaded();
    void loadCatalog();
    void showCatalogProblems(const std::vector<core::Error>& problems);
    void retranslate();
    void buildMenus();
    void showSettings();
    void showAbout();
    /// The first time the program runs, the bundled example plan fills Compare and Costs.
    void showExampleOnFirstStart();
    void updateRecentMenu();
    void updateTitle();
    /// Asks to save unsaved changes; false when the user cancels.
    bool maybeSave();

    std::filesystem::path m_catalogDir;
    std::filesystem::path m_userCatalogDir;
    std::filesystem::path m_workloadDir;
    PlanSession* m_session = nullptr;
    PlanWizard* m_wizard = nullptr;
    ComparePage* m_comparePage = nullptr;
    CostsPage* m_costsPage = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_exportReportAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_settingsAction = nullptr;
    QMenu* m_helpMenu = nullptr;
    QAction* m_aboutAction = nullptr;
    QAction* m_aboutQtAction = nullptr;
    QListWidget* m_navigation = nullptr;
    QStackedWidget* m_pages = nullptr;
    CatalogPage* m_catalogPage = nullptr;
    CredentialStore* m_credentialStore = nullptr;
    CredentialsPage* m_credentialsPage = nullptr;
    LaunchPage* m_launchPage = nullptr;
    InstancesPage* m_instancesPage = nullptr;
    VerifyPage* m_verifyPage = nullptr;
    RunPage* m_runPage = nullptr;
    ReportsPage* m_reportsPage = nullptr;
    QLabel* m_statusLabel = nullptr;
    QMessageBox* m_problemsBox = nullptr;
    QFutureWatcher<std::shared_ptr<const PlanningData>>* m_loadWatcher = nullptr;
    std::shared_ptr<const PlanningData> m_data;
    bool m_catalogLoaded = false;
};

/// The answer to "save the changes?" (tests queue one with Questions::setNextAnswer(Question::SaveChanges, ...)).
enum class SaveAnswer
{
    Save,
    Discard,
    Cancel,
};

} // namespace gpuplan::ui
