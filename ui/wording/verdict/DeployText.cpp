// The probe deployment's reasons ("deploy.*", core/deploy/DeployStrategy.cpp) worded for the UI.
#include "wording/verdict/VerdictTextParts.h"

#include "gpuplan/deploy/DeployStrategy.h"

namespace gpuplan::ui::verdicttext {

// ---- deployment ---------------------------------------------------------------------------------------------

namespace {

/// One refusal of chooseDeployment(): "cuda13 needs driver 580.65.06", from "refusal.<i>.build", ".needs" (driver,
/// sm or glibc) and ".minimum".
QString refusalText(const Args& p, int i)
{
    const std::string at = "refusal." + std::to_string(i) + ".";
    const QString build = p.text((at + "build").c_str());
    const QString needs = p.text((at + "needs").c_str());
    const QString minimum = p.text((at + "minimum").c_str());
    if (needs == QLatin1String("driver")) {
        return VerdictText::tr("%1 needs driver %2").arg(build, minimum);
    }
    if (needs == QLatin1String("sm")) {
        return VerdictText::tr("%1 starts at sm_%2").arg(build, minimum);
    }
    if (needs == QLatin1String("glibc")) {
        return VerdictText::tr("%1 needs glibc %2 and this system has %3").arg(build, minimum, p.text("glibc"));
    }
    return {};
}

/// Why no bundled probe runs (chooseDeployment()'s "cause"); empty for a cause this version does not know.
QString becauseText(const Args& p)
{
    const QString cause = p.text("cause");
    if (cause == QLatin1String("architecture")) {
        return VerdictText::tr("the bundled probes are built for x86_64 and this machine is %1").arg(p.text("machine"));
    }
    if (cause == QLatin1String("none_bundled")) {
        return VerdictText::tr("this GPU Planner has no bundled probe");
    }
    if (cause != QLatin1String("refused")) {
        return {};
    }
    QStringList refusals;
    for (int i = 0; i < p.text("refusals").toInt(); ++i) {
        const QString text = refusalText(p, i);
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
        if (!p.all({"build", "driver"})) {
            return {};
        }
        const QString runs = VerdictText::tr("the %1 probe runs on driver %2").arg(p.text("build"), p.text("driver"));
        // The newest GPU is newer than the build's own machine code: the driver compiles the build's PTX for it.
        return p.has("ptx_capability") ? VerdictText::tr("%1; the GPU of compute capability %2 runs its PTX")
                                             .arg(runs, p.text("ptx_capability"))
                                       : runs;
    }
    if (key == QLatin1String("deploy.driver_too_old")) {
        // minimum_driver is the lowest floor of the bundled builds: the update's target.
        return p.has("driver") ? VerdictText::tr("driver %1 is too old for the bundled probes, and the machine has "
                                                 "neither nvcc %2 or newer nor Docker with the NVIDIA runtime: update "
                                                 "the driver (GPU Planner can run its driver set-up script) and verify "
                                                 "again")
                                     .arg(p.text("driver"), minimumCuda)
                               : QString();
    }
    const QString because = becauseText(p);
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
