#include "CostsPage.h"

#include "PlanSession.h"
#include "charts/PlanCharts.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QPalette>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

const char* const kChartNames[] = {"costBreakdownChart",
                                   "timeCostChart",
                                   "cumulativeCostChart",
                                   "spotTimeChart",
                                   "spotCostChart",
                                   "pricePerTflopChart"};

} // namespace

CostsPage::CostsPage(PlanSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_tabs(new QTabWidget(this))
{
    setObjectName(QStringLiteral("costsPage"));
    m_tabs->setObjectName(QStringLiteral("chartTabs"));
    for (const char* name : kChartNames) {
        auto* view = new QChartView(m_tabs);
        view->setObjectName(QString::fromLatin1(name));
        view->setRenderHint(QPainter::Antialiasing);
        m_views << view;
        m_tabs->addTab(view, QString());
    }
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    connect(m_session, &PlanSession::planChanged, this, &CostsPage::redraw);
    retranslate();
}

void CostsPage::redraw()
{
    const core::PlanDocument* plan = m_session->plan();
    if (!plan) {
        return;
    }
    ChartStyle style;
    style.dark = palette().color(QPalette::Window).lightness() < 128;
    const std::vector<QChart*> charts = allPlanCharts(*plan, style);
    for (int i = 0; i < m_views.size(); ++i) {
        QChart* old = m_views[i]->chart();
        m_views[i]->setChart(charts[std::size_t(i)]); // the view owns the new chart
        delete old;
    }
}

void CostsPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    } else if (event->type() == QEvent::PaletteChange) {
        redraw();
    }
    QWidget::changeEvent(event);
}

void CostsPage::retranslate()
{
    const QStringList titles{tr("Cost by option"),
                             tr("Time vs cost"),
                             tr("Rent vs buy"),
                             tr("Spot: time"),
                             tr("Spot: cost"),
                             tr("Price per TFLOPS")};
    for (int i = 0; i < titles.size(); ++i) {
        m_tabs->setTabText(i, titles[i]);
    }
    redraw();
}

} // namespace gpuplan::ui
