// The probe deployment's reasons ("deploy.*", core/deploy/DeployStrategy.cpp) worded for the UI.
#include "wording/verdict/VerdictTextParts.h"

#include <QRegularExpression>

#include "gpuplan/deploy/DeployStrategy.h"

namespace gpuplan::ui::verdicttext {

// ---- deployment ---------------------------------------------------------------------------------------------

namespace {

/// One refusal of chooseDeployment() ("cuda13 needs driver 580.65.06"), or empty when it reads otherwise.
QString refusalText(const QString& refusal)
{
    static const QRegularExpression driver(QStringLiteral("^(\\S+) needs driver (\\S+)$"));
    static const QRegularExpression architecture(QStringLiteral("^(\\S+) starts at sm_(\\S+)$"));
    static const QRegularExpression glibc(QStringLiteral("^(\\S+) needs glibc (\\S+) and this system has (\\S+)$"));
    if (const QRegularExpressionMatch m = driver.match(refusal); m.hasMatch()) {
        return VerdictText::tr("%1 needs driver %2").arg(m.captured(1), m.captured(2));
    }
    if (const QRegularExpressionMatch m = architecture.match(refusal); m.hasMatch()) {
        return VerdictText::tr("%1 starts at sm_%2").arg(m.captured(1), m.captured(2));
    }
    if (const QRegularExpressionMatch m = glibc.match(refusal); m.hasMatch()) {
        return VerdictText::tr("%1 needs glibc %2 and this system has %3")
            .arg(m.captured(1), m.captured(2), m.captured(3));
    }
    return {};
}

/// chooseDeployment()'s "because": why no bundled probe runs. Core passes it as English words, so it is read back
/// here by its three shapes; anything else is empty, and the caller shows the English text.
QString becauseText(const QString& because)
{
    static const QString architecture = QStringLiteral("the bundled probes are built for x86_64 and this machine is ");
    static const QString noneBundled = QStringLiteral("this GPU Planner has no bundled probe");
    static const QString noneRuns = QStringLiteral("no bundled probe runs here (");
    if (because.startsWith(architecture) && because.size() > architecture.size()) {
        return VerdictText::tr("the bundled probes are built for x86_64 and this machine is %1")
            .arg(because.mid(architecture.size()));
    }
    if (because == noneBundled) {
        return VerdictText::tr("this GPU Planner has no bundled probe");
    }
    if (!because.startsWith(noneRuns) || !because.endsWith(QLatin1Char(')'))) {
        return {};
    }
    QStringList refusals;
    const QString list = because.mid(noneRuns.size(), because.size() - noneRuns.size() - 1);
    for (const QString& refusal : list.split(QStringLiteral("; "))) {
        const QString text = refusalText(refusal);
        if (text.isEmpty()) {
            return {};
        }
        refusals << text;
    }
    return VerdictText::tr("no bundled probe runs here (%1)").arg(clauses(refusals));
}

/// The deployment's reasons are clauses ("the cuda13 probe runs on driver 580.82.07"): the CLI puts them after
/// "The probe did not run: ", so they start in lower case.

} // namespace

QString deployText(const QString& key, const Args& p)
{
    const QString minimumCuda = QString::fromLatin1(core::kProbeMinimumCuda);
    if (key == QLatin1String("deploy.no_gpu")) {
        return VerdictText::tr("this machine has no NVIDIA GPU");
    }
    if (key == QLatin1String("deploy.no_driver")) {
        return VerdictText::tr("an NVIDIA GPU is installed but no driver answers (nvidia-smi is missing or fails): "
                               "install the driver first");
    }
    if (key == QLatin1String("deploy.architecture")) {
        return p.has("machine")
                   ? VerdictText::tr("the bundled probes are built for x86_64 and this machine is %1, with "
                                     "neither nvcc %2 or newer nor Docker with the NVIDIA runtime to build "
                                     "the probe there")
                         .arg(p.text("machine"), minimumCuda)
                   : QString();
    }
    if (key == QLatin1String("deploy.prebuilt")) {
        // The English text adds when the newest GPU runs the build's PTX; which GPU is not a parameter.
        return p.all({"build", "driver"})
                   ? VerdictText::tr("the %1 probe runs on driver %2").arg(p.text("build"), p.text("driver"))
                   : QString();
    }
    if (key == QLatin1String("deploy.driver_too_old")) {
        // The English text lists each build's driver floor; those are not parameters.
        return p.has("driver") ? VerdictText::tr("driver %1 is too old for the bundled probes, and the machine has "
                                                 "neither nvcc %2 or newer nor Docker with the NVIDIA runtime: update "
                                                 "the driver (GPU Planner can run its driver set-up script) and verify "
                                                 "again")
                                     .arg(p.text("driver"), minimumCuda)
                               : QString();
    }
    const QString because = becauseText(p.text("because"));
    if (because.isEmpty()) {
        return {};
    }
    if (key == QLatin1String("deploy.build_remote")) {
        return p.has("nvcc") ? VerdictText::tr("%1; building it there with nvcc %2").arg(because, p.text("nvcc"))
                             : QString();
    }
    if (key == QLatin1String("deploy.container")) {
        return p.has("image") ? VerdictText::tr("%1; building and running it in %2 (Docker with the NVIDIA runtime)")
                                    .arg(because, p.text("image"))
                              : QString();
    }
    if (key == QLatin1String("deploy.cannot_run")) {
        return VerdictText::tr("%1, and the machine has neither nvcc %2 or newer nor Docker with the NVIDIA runtime "
                               "to build it there")
            .arg(because, minimumCuda);
    }
    return {};
}

} // namespace gpuplan::ui::verdicttext
