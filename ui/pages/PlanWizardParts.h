// The pieces of the plan wizard shared by its two files: PlanWizard.cpp builds and words the pages,
// PlanWizardAnswers.cpp reads and checks what they say. Private to ui/pages.
#pragma once

#include <functional>
#include <optional>

#include <QApplication>
#include <QPointer>
#include <QString>
#include <QWizardPage>

namespace gpuplan::ui::planwizard {

// The workload list's entries after the presets (whose data is their index).
constexpr int kMeasured = -2; // your own: a throughput you timed
constexpr int kFromFile = -3; // your own: a workload file

/// A page whose Next/Finish waits for `valid` (re-checked whenever a field changes).
class CheckedPage final : public QWizardPage
{
public:
    CheckedPage(QString name, std::function<bool()> valid)
        : m_valid(std::move(valid))
    {
        setObjectName(std::move(name));
    }
    bool isComplete() const override { return !m_valid || m_valid(); }

    /// An answer changed: checks the page again (its messages beside the fields follow) and, when that changes
    /// whether it is complete, tells the wizard. QWizard answers completeChanged by hiding its page frame for a
    /// moment (QWizardPrivate::disableUpdates), which moves the keyboard focus out of the field being typed in
    /// (Qt 6.4; "3000" typed into Budget left "3" and the next key went to the navigation): the field gets it back.
    void changed()
    {
        const bool complete = isComplete();
        if (m_complete == complete) {
            return;
        }
        m_complete = complete;
        const QPointer<QWidget> typing = QApplication::focusWidget();
        emit completeChanged();
        if (typing && QApplication::focusWidget() != typing && isAncestorOf(typing) && typing->isVisible()) {
            typing->setFocus(Qt::OtherFocusReason);
        }
    }

private:
    std::function<bool()> m_valid;
    std::optional<bool> m_complete; // as the wizard was last told
};

} // namespace gpuplan::ui::planwizard
