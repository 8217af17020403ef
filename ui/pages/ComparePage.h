#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QProgressBar;
class QSlider;
class QSortFilterProxyModel;
class QTableView;
class QTextBrowser;
class QToolButton;
class QTreeWidget;

namespace gpuplan::ui {

class OptionTableModel;
class PlanSession;

/// The ranked options of the open plan: the recommendation with its reasons, what-if sliders that re-plan as
/// they move, the sortable and filterable table, how the selected row's numbers were derived, and the excluded
/// offers with the rule that excluded each.
class ComparePage final : public QWidget
{
    Q_OBJECT

public:
    explicit ComparePage(PlanSession* session, QWidget* parent = nullptr);
    void retranslate();

protected:
    void changeEvent(QEvent* event) override;

private:
    void onPlanChanged();
    void onSliderMoved();
    void showDetails();
    void resetSliders();
    void updateSliderLabels();

    PlanSession* m_session;
    OptionTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLabel* m_title;
    QLabel* m_recommendation;
    QLabel* m_budgetLabel;
    QSlider* m_budget;
    QLabel* m_deadlineLabel;
    QSlider* m_deadline;
    QLabel* m_gpusLabel;
    QSlider* m_gpus;
    QLabel* m_spotLabel;
    QSlider* m_spot;
    QLabel* m_rateLabel;
    QSlider* m_rate;
    QProgressBar* m_busy;
    QLineEdit* m_filter;
    QTableView* m_table;
    QTextBrowser* m_details;
    QToolButton* m_excludedToggle;
    QTreeWidget* m_excluded;
    double m_budgetMax = 0;     // the budget slider's right end
    double m_deadlineMax = 0;   // hours at the deadline slider's right end
    int m_rateAtReset = -1;     // the rate slider where the plan put it: the plan's own rate stays exact
    bool m_fromSliders = false; // the plan on its way comes from a slider: keep the sliders where they are
};

} // namespace gpuplan::ui
