// The pieces of the plan wizard shared by its two files: PlanWizard.cpp builds and words the pages,
// PlanWizardAnswers.cpp reads and checks what they say. Private to ui/pages.
#pragma once

#include <functional>

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

    void changed() { emit completeChanged(); }

private:
    std::function<bool()> m_valid;
};

} // namespace gpuplan::ui::planwizard
