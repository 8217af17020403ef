// What the Launch page's two files share: LaunchPage.cpp builds and words the form, LaunchPageRun.cpp runs the
// launch. Private to ui/pages.
#pragma once

#include "wording/Format.h"

#include "gpuplan/catalog/Money.h"
#include "gpuplan/cloud/Launcher.h"

#include <QString>
#include <QtGlobal>

namespace gpuplan::ui::launchpage {

/// The steps the progress list shows, in order, and the launch step that completes each.
struct ProgressRow
{
    core::LaunchStep step;
    const char* text;
};
inline constexpr ProgressRow kProgressRows[] = {
    {core::LaunchStep::Sending, QT_TRANSLATE_NOOP("gpuplan::ui::LaunchPage", "Recorded in the ledger, request sent")},
    {core::LaunchStep::Pending, QT_TRANSLATE_NOOP("gpuplan::ui::LaunchPage", "Accepted: the instance is pending")},
    {core::LaunchStep::Running, QT_TRANSLATE_NOOP("gpuplan::ui::LaunchPage", "Running")},
    {core::LaunchStep::SshReachable, QT_TRANSLATE_NOOP("gpuplan::ui::LaunchPage", "SSH reachable")},
};

inline QString money(double amount, core::Currency currency)
{
    return formatMoney(amount, QString::fromLatin1(core::currencyCode(currency)), 2);
}

} // namespace gpuplan::ui::launchpage
