// Typing whole values into the wizard's Budget and Deadline fields, key by key, as a user does, while plans are
// computed in the background: every key must reach the field being edited (issue 23: under Xvfb without a window
// manager, "3000" once left "3" and the next key went to the navigation). ctest runs it three ways: offscreen
// (keys as Qt events to whatever has focus), and in a real X server (tests/ui/with-x-server.sh), without and with a
// window manager, where the keys are real X key events (xdotool) that the X server delivers to the focused window.
#include "../support/Widgets.h"
#include "MainWindow.h"
#include "PlanSession.h"
#include "pages/PlanWizard.h"

#include <QAbstractButton>
#include <QApplication>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QWizard>

using gpuplan::testing::child;
using gpuplan::ui::MainWindow;

namespace {

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";

bool realXServer()
{
    return QGuiApplication::platformName() == QLatin1String("xcb");
}

/// One key as the user presses it: through the X server when there is one (to the window X gives the focus to),
/// else as a Qt key event to the widget that has the focus.
void press(QChar key)
{
    if (realXServer()) {
        const int code = QProcess::execute(QStringLiteral("xdotool"), {QStringLiteral("type"), QString(key)});
        QVERIFY2(code == 0, "xdotool type failed");
    } else {
        QWidget* focused = QApplication::focusWidget();
        QVERIFY2(focused, "no widget has the keyboard focus");
        QTest::keyClick(focused, key.toLatin1());
    }
}

} // namespace

class TestWizardTyping : public QObject
{
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void initTestCase()
    {
        if (realXServer()) {
            QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("xdotool")).isEmpty(),
                     "xdotool is missing (packaging/system-packages.txt)");
        }
    }

    void wholeValuesReachTheFieldWhilePlansAreComputed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("budget") << "budgetEdit"
                                << "3000";
        QTest::newRow("budget, decimals") << "budgetEdit"
                                          << "12500.50";
        QTest::newRow("deadline") << "deadlineEdit"
                                  << "14d";
        QTest::newRow("deadline, hours") << "deadlineEdit"
                                         << "36h";
    }
    void wholeValuesReachTheFieldWhilePlansAreComputed()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        MainWindow window(kBundled);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 20000);

        // A plan first (the defaults), so that the session can plan again while the user types.
        auto* wizard = child<gpuplan::ui::PlanWizard>(window, "planWizard");
        auto* next = child<QAbstractButton>(window, "wizardNextButton");
        while (next->isVisible() && next->isEnabled()) {
            QTest::mouseClick(next, Qt::LeftButton);
        }
        QTest::mouseClick(child<QAbstractButton>(window, "wizardFinishButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasPlan() && !window.session()->isBusy(), 20000);
        QVERIFY(window.session()->inputs().has_value());

        // Back to the wizard's budget page, into the field, as the user clicks it.
        window.showPage(MainWindow::Page::Plan);
        wizard->restart();
        while (wizard->currentPage()->objectName() != QLatin1String("budgetPage")) {
            QVERIFY(next->isEnabled());
            QTest::mouseClick(next, Qt::LeftButton);
        }
        auto* edit = child<QLineEdit>(window, field.toLatin1().constData());
        QTRY_VERIFY(edit->isVisible());
        QTest::mouseClick(edit, Qt::LeftButton);
        QTRY_COMPARE(QApplication::focusWidget(), edit);
        edit->clear();

        const gpuplan::ui::PlanInputs inputs = *window.session()->inputs();
        QString typed;
        for (QChar key : value) {
            // A plan is being computed and lands while the user types (what-if, a measurement, Settings).
            window.session()->replan(inputs);
            press(key);
            typed += key;
            QTRY_COMPARE(edit->text(), typed);
            QTRY_VERIFY(!window.session()->isBusy());
            QVERIFY2(QApplication::focusWidget() == edit,
                     qPrintable(QStringLiteral("after \"%1\" the focus is on %2")
                                    .arg(typed,
                                         QApplication::focusWidget() ? QApplication::focusWidget()->objectName()
                                                                     : QStringLiteral("nothing"))));
        }
        QCOMPARE(edit->text(), value);
        // The navigation never took a key: the Plan page is still the one shown.
        QCOMPARE(child<QListWidget>(window, "navigationList")->currentRow(), 0);
        window.session()->setPlan(*window.session()->plan(), std::nullopt, false); // closing asks nothing
    }
};

QTEST_MAIN(TestWizardTyping)
#include "TestWizardTyping.moc"
