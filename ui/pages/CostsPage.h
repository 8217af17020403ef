#pragma once

#include <QWidget>

class QChartView;
class QTabWidget;

namespace gpuplan::ui {

class PlanSession;

/// The PI's charts of the open plan, one tab each, redrawn whenever the plan changes.
class CostsPage final : public QWidget
{
    Q_OBJECT

public:
    explicit CostsPage(PlanSession* session, QWidget* parent = nullptr);
    void retranslate();
    /// The tabs' chart views, in order (screenshots, tests).
    QList<QChartView*> chartViews() const { return m_views; }
    QTabWidget* tabs() const { return m_tabs; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void redraw();

    PlanSession* m_session;
    QTabWidget* m_tabs;
    QList<QChartView*> m_views;
};

} // namespace gpuplan::ui
