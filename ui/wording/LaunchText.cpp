// The launch's steps (core::LaunchProgress, core/cloud/Launcher.cpp) worded from their fields.
#include "wording/LaunchText.h"

#include "wording/ErrorText.h"

#include <QCoreApplication>

namespace gpuplan::ui {

namespace {

struct LaunchText
{
    Q_DECLARE_TR_FUNCTIONS(gpuplan::ui::LaunchText)
};

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

QString launchProgressText(const core::LaunchProgress& p)
{
    switch (p.step) {
        case core::LaunchStep::Recorded:
            switch (p.attempt) {
                case core::LaunchAttempt::New:
                    return LaunchText::tr("Recorded the launch in the ledger (entry %1, token %2)")
                        .arg(p.entryId)
                        .arg(q(p.clientToken));
                case core::LaunchAttempt::Resumed:
                    return LaunchText::tr("Resuming the launch recorded at entry %1 with its token %2: it was "
                                          "interrupted before its answer was recorded")
                        .arg(p.entryId)
                        .arg(q(p.clientToken));
                case core::LaunchAttempt::FoundByReconcile:
                    return LaunchText::tr(
                               "The launch recorded at entry %1 did start %2 (found by reconciling after its "
                               "outcome was unknown): that is this launch, no second one")
                        .arg(p.entryId)
                        .arg(q(p.instanceId));
            }
            break;
        case core::LaunchStep::Sending:
            return LaunchText::tr("Asking %1 for %2 in %3").arg(q(p.provider), q(p.instanceType), q(p.zone));
        case core::LaunchStep::Replied:
            return p.refusal ? LaunchText::tr("Refused: %1").arg(errorText(*p.refusal))
                             : LaunchText::tr("Accepted: %1").arg(q(p.instanceId));
        case core::LaunchStep::ZoneRefused:
            return LaunchText::tr("No capacity in %1").arg(q(p.zone));
        case core::LaunchStep::Pending:
            return LaunchText::tr("%1 is starting in %2").arg(q(p.instanceId), q(p.zone));
        case core::LaunchStep::Running:
            return p.publicIp.empty() ? LaunchText::tr("%1 runs").arg(q(p.instanceId))
                                      : LaunchText::tr("%1 runs at %2").arg(q(p.instanceId), q(p.publicIp));
        case core::LaunchStep::SshReachable:
            return LaunchText::tr("SSH answers at %1:%2").arg(q(p.publicIp)).arg(p.sshPort);
    }
    return {};
}

} // namespace gpuplan::ui
