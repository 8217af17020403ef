// The plan wizard and the Compare view, driven by objectName on the offscreen platform as a user would.
#include "../support/PlanDamage.h"
#include "../support/Widgets.h"
#include "AppSettings.h"
#include "MainWindow.h"
#include "PlanSession.h"
#include "Questions.h"
#include "dialogs/SettingsDialog.h"
#include "pages/PlanWizard.h"
#include "wording/Format.h"
#include "wording/Language.h"

#include "gpuplan/plan/PlanFile.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

#include <fstream>

using gpuplan::core::PlanDocument;
using gpuplan::core::PlanOption;
using gpuplan::ui::MainWindow;
using nlohmann::json;

using gpuplan::testing::child;

namespace {

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";

/// The ranked options as "provider/instance/region", best first.
QStringList ranking(const PlanDocument& plan)
{
    QStringList out;
    for (const PlanOption& o : plan.results.options) {
        out << QString::fromStdString(o.provider + "/" + o.instanceType + "/" + o.region);
    }
    return out;
}

/// Walks the wizard with its default answers: Next on every page, then Finish.
void finishWizardWithDefaults(MainWindow& window)
{
    auto* next = child<QAbstractButton>(window, "wizardNextButton");
    auto* wizard = child<gpuplan::ui::PlanWizard>(window, "planWizard");
    QStringList pages;
    while (next->isVisible() && next->isEnabled()) {
        pages << wizard->currentPage()->objectName();
        QTest::mouseClick(next, Qt::LeftButton);
    }
    pages << wizard->currentPage()->objectName();
    QCOMPARE(pages,
             (QStringList{QStringLiteral("workloadPage"),
                          QStringLiteral("trainingPage"),
                          QStringLiteral("budgetPage"),
                          QStringLiteral("scalePage"),
                          QStringLiteral("pricingPage")}));
    QTest::mouseClick(child<QAbstractButton>(window, "wizardFinishButton"), Qt::LeftButton);
}

/// Picks the workload list's entry whose text starts with `text`.
void chooseWorkload(MainWindow& window, const QString& text)
{
    auto* list = child<QComboBox>(window, "presetComboBox");
    for (int i = 0; i < list->count(); ++i) {
        if (list->itemText(i).startsWith(text)) {
            list->setCurrentIndex(i);
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("no workload entry starts with ") + text));
}

} // namespace

class TestPlanGui : public QObject
{
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void wizardDefaultsGiveAPopulatedCompareView()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        finishWizardWithDefaults(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);

        auto* table = child<QTableView>(window, "optionsTable");
        QTRY_VERIFY(table->isVisible()); // the window moved on to Compare
        QVERIFY(window.session()->plan());
        const PlanDocument& plan = *window.session()->plan();
        const int options = int(plan.results.options.size());
        QVERIFY2(options > 10, qPrintable(QString::number(options)));
        QCOMPARE(table->model()->rowCount(), options);
        // The first row is the recommendation, and the banner names it with its reasons.
        const PlanOption& best = plan.results.options[0];
        QCOMPARE(table->model()->index(0, 2).data().toString(), QString::fromStdString(best.instanceType));
        const QString banner = child<QLabel>(window, "recommendationLabel")->text();
        QVERIFY2(banner.contains(QString::fromStdString(best.instanceType)), qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("costs about")), qPrintable(banner));
        // Selecting a row shows where its numbers come from.
        table->selectRow(1);
        const QString details = child<QWidget>(window, "optionDetailsBrowser")->property("plainText").toString();
        QVERIFY2(details.contains(QStringLiteral("Efficiency")) && details.contains(QStringLiteral("source")),
                 qPrintable(details));
        QVERIFY(details.contains(QString::fromStdString(plan.results.options[1].instanceType)));
        QVERIFY(!details.contains(QStringLiteral("GPU figures")) || plan.results.options[1].gpu == "a10g");
        // An A10G (no NVIDIA datasheet) says its figures are third-party.
        int a10g = -1;
        for (int row = 0; row < options && a10g < 0; ++row) {
            a10g = plan.results.options[std::size_t(row)].gpu == "a10g" ? row : -1;
        }
        QVERIFY2(a10g >= 0, "no A10G option in the default plan");
        table->selectRow(a10g);
        const QString a10gDetails = child<QWidget>(window, "optionDetailsBrowser")->property("plainText").toString();
        QVERIFY2(a10gDetails.contains(QStringLiteral("GPU figures: third-party or derived")), qPrintable(a10gDetails));
        // The filter narrows the table.
        QTest::keyClicks(child<QLineEdit>(window, "optionsFilterEdit"), QStringLiteral("Tencent"));
        QVERIFY(table->model()->rowCount() > 0);
        QVERIFY(table->model()->rowCount() < options);
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            QCOMPARE(table->model()->index(row, 1).data().toString(), QStringLiteral("Tencent Cloud"));
        }
    }

    void budgetSliderChangesTheRanking()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        finishWizardWithDefaults(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        QVERIFY(window.session()->plan());
        const QStringList before = ranking(*window.session()->plan());
        QCOMPARE(window.session()->plan()->results.objective,
                 gpuplan::core::Objective::Value); // no budget, no deadline

        // A tight budget: the objective becomes "fastest within the budget", and dear offers drop out.
        auto* budget = child<QSlider>(window, "budgetSlider");
        budget->setValue(budget->maximum() / 20);
        QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isBusy(), 20000);
        QVERIFY(window.session()->plan());
        const PlanDocument& plan = *window.session()->plan();
        QVERIFY(plan.constraints.budget.has_value());
        const double limit = *plan.constraints.budget;
        const QStringList after = ranking(plan);
        QVERIFY2(after != before, qPrintable(after.join(QLatin1Char(' '))));
        QVERIFY(after.size() < before.size());
        for (const PlanOption& o : plan.results.options) {
            QVERIFY(o.cost.value <= limit);
        }
        QVERIFY(child<QLabel>(window, "budgetSliderLabel")->text().contains(QStringLiteral("Budget")));
        QCOMPARE(child<QTableView>(window, "optionsTable")->model()->rowCount(), after.size());
    }

    void saveAndReopenGiveTheSamePlan()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("lab.gpuplan"));
        // A plan document has no ==: two plans are the same when they write the same .gpuplan JSON.
        json saved;
        {
            MainWindow window(kBundled);
            window.show();
            QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
            finishWizardWithDefaults(window);
            QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
            QVERIFY(window.isWindowModified());
            gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::FileName, file);
            QVERIFY(window.savePlan());
            QVERIFY(!window.isWindowModified());
            QVERIFY(window.windowTitle().contains(QStringLiteral("lab.gpuplan")));
            QVERIFY(window.session()->plan());
            saved = gpuplan::core::planToJson(*window.session()->plan());
        }
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        QVERIFY(window.openPlan(file));
        QVERIFY(window.session()->plan());
        const json reopened = gpuplan::core::planToJson(*window.session()->plan());
        QVERIFY2(reopened == saved, json::diff(saved, reopened).dump().c_str());
        QCOMPARE(child<QTableView>(window, "optionsTable")->model()->rowCount(),
                 int(saved["results"]["options"].size()));
        // The reopened plan keeps its inputs, so what-if still works on it.
        QVERIFY(window.session()->inputs().has_value());
        QCOMPARE(window.session()->inputs()->workload.id, saved["workload"]["id"].get<std::string>());
        // A broken file is refused with a message and the open plan stays.
        const QString broken = dir.filePath(QStringLiteral("broken.gpuplan"));
        std::ofstream(broken.toStdString()) << "{\"format\": \"gpuplan\", \"version\": 99}";
        QTimer::singleShot(0, [] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                if (auto* box = qobject_cast<QMessageBox*>(w)) {
                    QVERIFY(box->text().contains(QStringLiteral("newer GPU Planner")));
                    box->accept();
                }
            }
        });
        QVERIFY(!window.openPlan(broken));
        QVERIFY(window.session()->plan());
        const json kept = gpuplan::core::planToJson(*window.session()->plan());
        QVERIFY2(kept == saved, json::diff(saved, kept).dump().c_str());
    }

    void exportPdfWritesTheReportWithProgress()
    {
        QTemporaryDir dir;
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        auto* action = window.findChild<QAction*>(QStringLiteral("exportReportAction"));
        QVERIFY(action);
        QCOMPARE(action->isEnabled(), window.session()->hasPlan()); // nothing to export before a plan
        QVERIFY(window.openPlan(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/examples/resnet50-imagenet.gpuplan")));
        QVERIFY(action->isEnabled());
        gpuplan::ui::AppSettings().setReportAuthor(QStringLiteral("Li Wei"));
        gpuplan::ui::AppSettings().setReportPaper(QStringLiteral("letter"));
        // The progress dialog shows while the pages are written, with their count.
        QStringList labels;
        QTimer watcher;
        connect(&watcher, &QTimer::timeout, [&] {
            if (auto* progress = window.findChild<QProgressDialog*>(QStringLiteral("reportProgressDialog"))) {
                if (progress->isVisible() && !labels.contains(progress->labelText())) {
                    labels << progress->labelText();
                }
            }
        });
        watcher.start(0);
        const QString pdf = dir.filePath(QStringLiteral("for-the-pi"));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::FileName, pdf);
        action->trigger();
        watcher.stop();
        QFile written(pdf + QStringLiteral(".pdf"));
        QVERIFY2(written.open(QIODevice::ReadOnly), "no PDF was written (the .pdf suffix is added)");
        QVERIFY(written.read(5) == "%PDF-");
        QVERIFY2(!labels.isEmpty(), "the progress dialog never showed");
        QVERIFY2(labels.last().contains(QStringLiteral("of")), qPrintable(labels.join(QStringLiteral(" | "))));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("pages")));
    }

    // Issue 23, item 5: an export to a folder that does not exist says why in a message box; the window stays.
    void exportPdfToAMissingFolderSaysWhy()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        QVERIFY(window.openPlan(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/examples/resnet50-imagenet.gpuplan")));
        QString said;
        QTimer closer;
        connect(&closer, &QTimer::timeout, [&] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                    said = box->text();
                    box->accept();
                }
            }
        });
        closer.start(10);
        QVERIFY(!window.exportReport(QStringLiteral("/nonexistent-dir/report.pdf")));
        closer.stop();
        QVERIFY2(said.contains(QStringLiteral("cannot write /nonexistent-dir/report.pdf: the folder /nonexistent-dir "
                                              "does not exist")),
                 qPrintable(said));
        QVERIFY(window.isVisible());
        QVERIFY(window.session()->hasPlan());
    }

    void measuredThroughputIsScaledToEveryOffer()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        auto* units = child<QLineEdit>(window, "unitsPerEpochEdit");
        QVERIFY(!units->isVisible());
        chooseWorkload(window, QStringLiteral("Your own: a throughput"));
        QVERIFY(units->isVisible());
        auto* next = child<QAbstractButton>(window, "wizardNextButton");
        QVERIFY(!next->isEnabled()); // the samples per epoch are required

        QTest::keyClicks(units, QStringLiteral("lots"));
        auto* error = child<QLabel>(window, "unitsPerEpochErrorLabel");
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("\"lots\" is not a count")), qPrintable(error->text()));
        QVERIFY(!next->isEnabled());
        QVERIFY(!child<QAbstractButton>(window, "wizardFinishButton")->isEnabled());

        // 2500 images/s on one A100 80GB with AMP, ImageNet-1k for 90 epochs.
        units->setText(QStringLiteral("1.28M"));
        QVERIFY(!error->isVisible());
        child<QDoubleSpinBox>(window, "measuredThroughputSpinBox")->setValue(2500);
        auto* gpu = child<QComboBox>(window, "measuredGpuComboBox");
        gpu->setCurrentIndex(gpu->findData(QStringLiteral("a100-sxm4-80gb")));
        QVERIFY(gpu->currentIndex() >= 0);
        child<QDoubleSpinBox>(window, "epochsSpinBox")->setValue(90);
        QVERIFY(next->isEnabled());
        QTest::mouseClick(child<QAbstractButton>(window, "wizardFinishButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);

        QVERIFY(window.session()->plan());
        const PlanDocument& plan = *window.session()->plan();
        QVERIFY(plan.workload.definition.has_value());
        QVERIFY(plan.workload.definition->kind == gpuplan::core::WorkKind::Measured);
        QVERIFY(plan.results.options.size() > 10);
        // On the card it was timed on, the training time is the measurement's: 1.28M × 90 / 2500 per second.
        bool sameCard = false;
        for (const PlanOption& o : plan.results.options) {
            if (o.gpu == "a100-sxm4-80gb" && o.gpus == 1) {
                const double hours = o.training.hours.value;
                QVERIFY2(std::abs(hours - 1.28e6 * 90 / 2500 / 3600) < 0.2, qPrintable(QString::number(hours)));
                sameCard = true;
            }
        }
        QVERIFY(sameCard);
        // It re-plans from the plan file like a preset does.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("measured.gpuplan"));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::FileName, file);
        QVERIFY(window.savePlan());
        QVERIFY(window.openPlan(file));
        QVERIFY(window.session()->inputs().has_value());
        QVERIFY(window.session()->inputs()->workload.kind == gpuplan::core::WorkKind::Measured);
        QCOMPARE(window.session()->inputs()->workload.measured->value, 2500.0);
    }

    /// Issue 21: a throughput the user timed for a preset becomes their own calibration case. The next plan's
    /// estimate for that workload on that GPU family rests on it, and Compare says so.
    void aUserMeasurementChangesTheNextPlan()
    {
        QTemporaryDir home;
        const QByteArray previous = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        auto restore = qScopeGuard([&] { qputenv("XDG_DATA_HOME", previous); });

        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        chooseWorkload(window, QStringLiteral("YOLOv5s"));
        auto* own = child<QAbstractButton>(window, "ownMeasurementCheckBox");
        auto* value = child<QDoubleSpinBox>(window, "measuredThroughputSpinBox");
        QVERIFY(own->isVisible());
        QVERIFY(!value->isVisible());
        QTest::mouseClick(child<QAbstractButton>(window, "wizardFinishButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        auto l4Throughput = [&](const PlanDocument* plan) {
            if (!plan) {
                return 0.0;
            }
            for (const PlanOption& o : plan->results.options) {
                if (o.gpu == "l4" && o.gpus == 1) {
                    return o.training.throughput.value;
                }
            }
            return 0.0;
        };
        const double before = l4Throughput(window.session()->plan());
        QVERIFY2(before > 0, "no plan option with one L4");

        // Timed at three times the estimate on one L4: the next plan moves towards it.
        window.showPage(MainWindow::Page::Plan);
        own->setChecked(true);
        QVERIFY(value->isVisible());
        value->setValue(before * 3);
        auto* gpu = child<QComboBox>(window, "measuredGpuComboBox");
        gpu->setCurrentIndex(gpu->findData(QStringLiteral("l4")));
        child<QSpinBox>(window, "measuredGpuCountSpinBox")->setValue(1);
        QTest::mouseClick(child<QAbstractButton>(window, "wizardFinishButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy()
                                     && l4Throughput(window.session()->plan()) != before,
                                 20000);
        const double after = l4Throughput(window.session()->plan());
        QVERIFY2(after > before * 1.5, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
        // Saved for later plans, in the user's calibration folder.
        const QDir saved(home.filePath(QStringLiteral("gpuplanner/calibration")));
        QCOMPARE(saved.entryList({QStringLiteral("*.json")}, QDir::Files).size(), 1);

        // Compare says the estimate rests on the user's measurement.
        QVERIFY(window.session()->plan());
        const PlanDocument& plan = *window.session()->plan();
        auto* table = child<QTableView>(window, "optionsTable");
        int row = -1;
        for (int i = 0; i < table->model()->rowCount(); ++i) {
            const PlanOption& o = plan.results.options[std::size_t(i)];
            if (o.gpu == "l4" && o.gpus == 1) {
                row = i;
            }
        }
        QVERIFY(row >= 0);
        child<QLineEdit>(window, "optionsFilterEdit")->clear();
        table->selectRow(row);
        const QString details = child<QWidget>(window, "optionDetailsBrowser")->property("plainText").toString();
        QVERIFY2(details.contains(QStringLiteral("Rests on your own measurement")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("your own measurement is among them")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("Software stack: typical")), qPrintable(details));
    }

    /// A measurement that cannot be saved (the data folder is a file here) is said so, with the path, and the plan
    /// is made without it.
    void aMeasurementThatCannotBeSavedIsSaidSo()
    {
        QTemporaryDir home;
        const QString blocked = home.filePath(QStringLiteral("not-a-folder"));
        std::ofstream(blocked.toStdString()) << "a file where the data folder should be\n";
        const QByteArray previous = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", blocked.toUtf8());
        auto restore = qScopeGuard([&] { qputenv("XDG_DATA_HOME", previous); });

        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        chooseWorkload(window, QStringLiteral("YOLOv5s"));
        child<QAbstractButton>(window, "ownMeasurementCheckBox")->setChecked(true);
        child<QDoubleSpinBox>(window, "measuredThroughputSpinBox")->setValue(500);
        auto* gpu = child<QComboBox>(window, "measuredGpuComboBox");
        gpu->setCurrentIndex(gpu->findData(QStringLiteral("l4")));
        QTest::mouseClick(child<QAbstractButton>(window, "wizardFinishButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        QMessageBox* box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = window.findChild<QMessageBox*>(QStringLiteral("measurementNotSavedBox"))),
                                 5000);
        QVERIFY2(box->text().contains(QStringLiteral("not-a-folder")), qPrintable(box->text()));
        // The plan is there, made without the measurement.
        QVERIFY(window.session()->plan());
        for (const PlanOption& o : window.session()->plan()->results.options) {
            QVERIFY(!o.training.userData);
        }
        box->close();
    }

    void workloadFileProblemsAreShownBesideTheField()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        std::ofstream(broken.toStdString()) << json{{"schema", "gpuplan-workload/1"},
                                                    {"name", "Mine"},
                                                    {"task", "vision"},
                                                    {"class", "cnn"},
                                                    {"kind", "per_sample"},
                                                    {"work", {{"samples", 1000}, {"epochs", -3}}}};
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        chooseWorkload(window, QStringLiteral("Your own: a workload file"));
        auto* path = child<QLineEdit>(window, "workloadFileEdit");
        QVERIFY(path->isVisible());
        QVERIFY(!child<QAbstractButton>(window, "wizardFinishButton")->isEnabled());
        path->setText(broken);
        emit path->editingFinished();
        auto* error = child<QLabel>(window, "workloadFileErrorLabel");
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("broken.json"))
                     && error->text().contains(QStringLiteral("$.work")),
                 qPrintable(error->text()));
        QVERIFY(!child<QAbstractButton>(window, "wizardFinishButton")->isEnabled());

        const QString good = dir.filePath(QStringLiteral("good.json"));
        std::ofstream(good.toStdString())
            << json{{"schema", "gpuplan-workload/1"},
                    {"name", "My ResNet"},
                    {"task", "vision"},
                    {"class", "cnn"},
                    {"kind", "per_sample"},
                    {"model", {{"parameters", 25.6e6}}},
                    {"work", {{"samples", 1281167}, {"epochs", 10}, {"training_gflops_per_sample", 12.3}}}};
        path->setText(good);
        emit path->editingFinished();
        QVERIFY(!error->isVisible());
        QCOMPARE(child<QDoubleSpinBox>(window, "epochsSpinBox")->value(), 10.0);
        QTest::mouseClick(child<QAbstractButton>(window, "wizardFinishButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        QVERIFY(window.session()->plan());
        QCOMPARE(window.session()->plan()->workload.name, std::string("My ResNet"));
        QVERIFY(!window.session()->plan()->results.options.empty());
    }

    void unsavedChangesAreAskedAbout()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        finishWizardWithDefaults(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::SaveChanges, int(gpuplan::ui::SaveAnswer::Cancel));
        QVERIFY(!window.close()); // cancel keeps the window and the plan
        QVERIFY(window.isVisible());
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::SaveChanges,
                                              int(gpuplan::ui::SaveAnswer::Discard));
        QVERIFY(window.close());
    }

    void invalidDeadlineIsShownBesideTheField()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        auto* next = child<QAbstractButton>(window, "wizardNextButton");
        auto* wizard = child<gpuplan::ui::PlanWizard>(window, "planWizard");
        while (wizard->currentPage()->objectName() != QLatin1String("budgetPage")) {
            QTest::mouseClick(next, Qt::LeftButton);
        }
        auto* deadline = child<QLineEdit>(window, "deadlineEdit");
        auto* message = child<QLabel>(window, "deadlineErrorLabel");
        QVERIFY(!message->isVisible());
        QTest::keyClicks(deadline, QStringLiteral("two weeks"));
        QVERIFY(message->isVisible());
        QVERIFY2(message->text().contains(QStringLiteral("\"two weeks\" is not a duration")),
                 qPrintable(message->text()));
        // Beside the field: same row, to its right.
        const QPoint field = deadline->mapTo(&window, QPoint(0, deadline->height() / 2));
        const QPoint text = message->mapTo(&window, QPoint(0, message->height() / 2));
        QVERIFY(text.x() > field.x() + deadline->width() - 1);
        QVERIFY(std::abs(text.y() - field.y()) < deadline->height());
        QVERIFY(!next->isEnabled());
        QVERIFY(!child<QAbstractButton>(window, "wizardFinishButton")->isEnabled());
        deadline->clear();
        QTest::keyClicks(deadline, QStringLiteral("14d"));
        QVERIFY(!message->isVisible());
        QVERIFY(next->isEnabled());
        QCOMPARE(*wizard->inputs()->constraints.deadlineHours, 14 * 24.0);
    }

    // Issue 20, finding 14: the deadline is when the run must be done, not how long the lab keeps paying; only the
    // project length the user gives lets a reservation in, and then the banner says what it commits the lab to.
    void aDeadlineIsNotTheProjectLength()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        auto* wizard = child<gpuplan::ui::PlanWizard>(window, "planWizard");
        chooseWorkload(window, QStringLiteral("Llama 2 7B LoRA"));
        child<QLineEdit>(window, "deadlineEdit")->setText(QStringLiteral("400d"));
        QVERIFY(wizard->inputs().has_value());
        QCOMPARE(*wizard->inputs()->constraints.deadlineHours, 400 * 24.0);
        QCOMPARE(wizard->inputs()->constraints.projectMonths, 0.0);
        child<QDoubleSpinBox>(window, "projectMonthsSpinBox")->setValue(12);
        QCOMPARE(wizard->inputs()->constraints.projectMonths, 12.0);

        finishWizardWithDefaults(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        QVERIFY(window.session()->plan());
        const PlanOption& best = window.session()->plan()->results.options.at(0);
        std::optional<gpuplan::core::PlanMode::Commitment> commitment;
        for (const gpuplan::core::PlanMode& m : best.modes) {
            if (m.mode == best.mode && m.commitment) {
                commitment = m.commitment;
            }
        }
        QVERIFY2(commitment.has_value(), "with a 12-month project a reservation wins (the catalog's AWS g6e)");
        const QString amount = gpuplan::ui::formatMoney(commitment->amount, QStringLiteral("CNY"));
        const QString banner = child<QLabel>(window, "recommendationLabel")->text();
        const QString headline = banner.left(banner.indexOf(QStringLiteral("<ul")));
        QVERIFY2(headline.contains(amount), qPrintable(banner));
    }

    void settingsReachThePlanAndSwitchTheLanguageLive()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        gpuplan::ui::AppSettings settings;
        gpuplan::ui::SettingsDialog dialog(&settings, 7.0, &window);
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("electricitySpinBox"))->setValue(0.8);
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("pueSpinBox"))->setValue(1.3);
        dialog.findChild<QLineEdit*>(QStringLiteral("proxyEdit"))
            ->setText(QStringLiteral(" http://proxy.example.edu.cn:3128 "));
        dialog.findChild<QLineEdit*>(QStringLiteral("extraCaFileEdit"))->setText(QStringLiteral("/etc/campus-ca.pem"));
        dialog.apply();
        QCOMPARE(*settings.electricityPrice(), 0.8);
        // The network settings are what core's HttpClient gets.
        QCOMPARE(settings.httpOptions().proxy, std::string("http://proxy.example.edu.cn:3128"));
        QCOMPARE(settings.httpOptions().extraCaFile, std::string("/etc/campus-ca.pem"));

        finishWizardWithDefaults(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        QVERIFY(window.session()->plan());
        QVERIFY2(window.session()->plan()->buyVsRent.has_value(), "the plan compares buying with renting");
        const gpuplan::core::BuyVsRent& buy = *window.session()->plan()->buyVsRent;
        QVERIFY2(buy.available, buy.unavailableReason.key.c_str());
        QVERIFY(buy.electricityPerKwh.has_value());
        QCOMPARE(*buy.electricityPerKwh, 0.8); // CNY plan, CNY tariff
        QCOMPARE(buy.pue, 1.3);

        // The language switches the open window at once.
        auto* chinese = new gpuplan::ui::SettingsDialog(&settings, 7.0, &window);
        auto* language = chinese->findChild<QComboBox*>(QStringLiteral("languageComboBox"));
        language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
        QObject::connect(&settings, &gpuplan::ui::AppSettings::changed, &window, [&settings] {
            gpuplan::ui::installTranslations(*qApp, settings.language());
        });
        chinese->apply();
        auto* navigation = window.findChild<QListWidget*>(QStringLiteral("navigationList"));
        QTRY_COMPARE(navigation->item(1)->text(), QStringLiteral("方案对比"));
        QVERIFY(child<QLabel>(window, "budgetSliderLabel")->text().startsWith(QStringLiteral("预算")));
        gpuplan::ui::installTranslations(*qApp, QStringLiteral("en"));
        QTRY_COMPARE(navigation->item(1)->text(), QStringLiteral("Compare"));
        delete chinese;
    }

    void regionsFromTheSettingsKeepThePlanThere()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);
        window.findChild<QAction*>(QStringLiteral("settingsAction"))->trigger();
        gpuplan::ui::SettingsDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<gpuplan::ui::SettingsDialog*>(QStringLiteral("settingsDialog"))));
        auto* codes = dialog->findChild<QLineEdit*>(QStringLiteral("settingsCountriesEdit"));
        auto* ok =
            dialog->findChild<QDialogButtonBox*>(QStringLiteral("settingsButtons"))->button(QDialogButtonBox::Ok);
        codes->setText(QStringLiteral("CN, China"));
        auto* error = dialog->findChild<QLabel*>(QStringLiteral("settingsCountriesErrorLabel"));
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("\"China\" is not a country code")), qPrintable(error->text()));
        QVERIFY(!ok->isEnabled());
        // An area fills in its codes.
        auto* areas = dialog->findChild<QComboBox*>(QStringLiteral("settingsCountriesComboBox"));
        const int hongKong = areas->findText(QStringLiteral("Mainland China and Hong Kong"));
        QVERIFY(hongKong > 0);
        areas->setCurrentIndex(hongKong);
        emit areas->activated(hongKong);
        QCOMPARE(codes->text(), QStringLiteral("CN, HK"));
        QVERIFY(!error->isVisible());
        QVERIFY(ok->isEnabled());
        QTest::mouseClick(ok, Qt::LeftButton);
        QCOMPARE(gpuplan::ui::AppSettings().regionCountries(), QStringLiteral("CN, HK"));

        // A new plan starts from it, and keeps to it.
        QCOMPARE(child<QLineEdit>(window, "countriesEdit")->text(), QStringLiteral("CN, HK"));
        finishWizardWithDefaults(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        QVERIFY(window.session()->plan());
        const PlanDocument& plan = *window.session()->plan();
        QVERIFY(plan.constraints.countries == (std::vector<std::string>{"CN", "HK"}));
        QVERIFY(!plan.results.options.empty());
        for (const PlanOption& o : plan.results.options) {
            const std::string& provider = o.provider;
            QVERIFY2(provider == "alibaba" || provider == "tencent" || provider == "huawei", provider.c_str());
        }
        int outside = 0;
        for (const gpuplan::core::PlanExclusion& x : plan.results.excluded) {
            outside += x.rule == "region" ? 1 : 0;
        }
        QVERIFY(outside > 10);
    }

    // The type sweep of issue 20, in the window: each member of each example plan set to null and to each JSON kind
    // it is not, opened with File -> Open. A plan core accepts opens and every page takes it; a refused one says so
    // in a warning and the window keeps what it had. Never a crash (an exception out of a page would end the test).
    void everyDamagedPlanOpensOrIsRefused_data()
    {
        QTest::addColumn<QString>("example");
        QTest::newRow("llama2") << "llama2-7b-lora-budget.gpuplan";
        QTest::newRow("resnet50") << "resnet50-imagenet.gpuplan";
    }
    void everyDamagedPlanOpensOrIsRefused()
    {
        QFETCH(QString, example);
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        std::ifstream in(std::string(GPUPLAN_SOURCE_DIR "/resources/examples/") + example.toStdString());
        json plan = json::parse(in);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("damaged.gpuplan"));
        // The warning of a refused plan is closed, as a user would.
        QTimer closer;
        closer.setInterval(0);
        connect(&closer, &QTimer::timeout, [] {
            if (QWidget* modal = QApplication::activeModalWidget()) {
                modal->close();
            }
        });
        closer.start();
        int opened = 0;
        int refused = 0;
        int refusedInTheWindow = 0;
        for (const gpuplan::testing::PlanMember& member : gpuplan::testing::planMembers(plan)) {
            json& node = plan[member.pointer];
            json original = std::move(node);
            for (const json& value : gpuplan::testing::wrongValues()) {
                if (value.type() == original.type()) {
                    continue;
                }
                node = value;
                const std::string what = member.path + " = " + value.dump();
                // What core reads (checkPlan, then a value the program cannot use is refused too) is what opens.
                const bool accepted = gpuplan::core::planFromJson(plan, "damaged.gpuplan").ok();
                // Every refusal is core's (TestPlanFileSweep checks each message); one in 25 also goes through the
                // window's File -> Open and its warning.
                if (!accepted && refused++ % 25 != 0) {
                    continue;
                }
                {
                    std::ofstream out(file.toStdString(), std::ios::trunc);
                    out << plan.dump();
                }
                const bool shown = window.openPlan(file);
                QVERIFY2(shown == accepted, what.c_str());
                if (shown) {
                    if (++opened % 40 == 0) {
                        (void)window.grab(); // paint the pages, charts included
                    }
                } else {
                    ++refusedInTheWindow;
                }
            }
            node = std::move(original);
        }
        closer.stop();
        qInfo("%s: %d damaged plans opened in the window, %d refused (%d of them through File -> Open)",
              qPrintable(example),
              opened,
              refused,
              refusedInTheWindow);
        QVERIFY(opened > 100 && refusedInTheWindow > 10);
    }

    // A plan shared by e-mail is text, never markup: names go into the Compare page escaped, and only http(s)
    // sources become links (no file:, javascript: or other schemes that would open outside the program).
    void planTextIsNeverMarkup()
    {
        std::ifstream in(GPUPLAN_SOURCE_DIR "/resources/examples/resnet50-imagenet.gpuplan");
        json plan = json::parse(in);
        json& best = plan["results"]["options"][0];
        best["instance_type"] = "p4d<img src=x>";
        best["gpu_name"] = "A100 <a href='file:///etc/passwd'>click</a>";
        best["modes"][0]["price"]["source"] = "javascript:alert(1)";
        plan["workload"]["name"] = "<b>bold</b> workload";
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("hostile.gpuplan"));
        std::ofstream(file.toStdString()) << plan.dump();
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        QVERIFY(window.openPlan(file));
        auto* details = child<QTextBrowser>(window, "optionDetailsBrowser");
        auto* table = child<QTableView>(window, "optionsTable");
        table->selectRow(0);
        QTRY_VERIFY(details->toPlainText().contains("p4d<img src=x>"));
        const QString html = details->toHtml();
        QVERIFY2(!html.contains("<img") && !html.contains("file:///etc/passwd\"")
                     && !html.contains("javascript:alert(1)\""),
                 qPrintable(html));
        QVERIFY(details->toPlainText().contains("javascript:alert(1)")); // shown as text, not as a link
        const QString recommended = child<QLabel>(window, "recommendationLabel")->text();
        QVERIFY2(!recommended.contains("<img") && recommended.contains("&lt;img"), qPrintable(recommended));
        auto* title = child<QLabel>(window, "planTitleLabel");
        QCOMPARE(title->textFormat(), Qt::PlainText);
        QVERIFY(title->text().contains("<b>bold</b>"));
    }

    void deadlineParsing()
    {
        QCOMPARE(*gpuplan::ui::parseDeadline(QStringLiteral("36h")), 36.0);
        QCOMPARE(*gpuplan::ui::parseDeadline(QStringLiteral(" 2w ")), 336.0);
        QCOMPARE(*gpuplan::ui::parseDeadline(QStringLiteral("90m")), 1.5);
        QCOMPARE(*gpuplan::ui::parseCount(QStringLiteral("1,281,167")), 1281167.0);
        QCOMPARE(*gpuplan::ui::parseCount(QStringLiteral("1.28M")), 1.28e6);
        QCOMPARE(*gpuplan::ui::parseCount(QStringLiteral(" 7b ")), 7e9);
        QCOMPARE(*gpuplan::ui::parseCount(QStringLiteral("128万")), 1.28e6);
        QCOMPARE(*gpuplan::ui::parseCount(QStringLiteral("2e9")), 2e9);
        QVERIFY(!gpuplan::ui::parseCount(QStringLiteral("0")));
        QVERIFY(!gpuplan::ui::parseCount(QStringLiteral("-5")));
        QVERIFY(!gpuplan::ui::parseCount(QStringLiteral("7 GB")));
        QVERIFY(!gpuplan::ui::parseDeadline(QStringLiteral("0d")));
        QVERIFY(!gpuplan::ui::parseDeadline(QStringLiteral("14")));
        QVERIFY(!gpuplan::ui::parseDeadline(QStringLiteral("d14")));
    }
};

QTEST_MAIN(TestPlanGui)
#include "TestPlanGui.moc"
