// What core says about a training run as it goes (core/run/Monitor.cpp): the sampler's broken lines, why the GPU's
// clocks are held down (NVML's clocks event reasons), and the advice when the GPUs stay underused.
#include "wording/RunText.h"

#include "wording/Format.h"
#include "wording/ReasonParams.h"

#include <QCoreApplication>
#include <QStringList>

namespace gpuplan::ui {

namespace {

/// The translation context of these texts.
struct RunText
{
    Q_DECLARE_TR_FUNCTIONS(RunText)
};

/// NVML's clocks event reasons (nvml.h, NVML_CLOCKS_EVENT_REASON_*), as a user can act on them.
QString throttleText(const std::string& key)
{
    if (key == "run.throttle.idle") {
        return RunText::tr("the GPU is idle: nothing is running on it, so its clocks drop");
    }
    if (key == "run.throttle.app_clocks") {
        return RunText::tr("the clocks are held at the application clocks someone set (nvidia-smi -ac)");
    }
    if (key == "run.throttle.power_cap") {
        return RunText::tr("the GPU is at its power limit: the driver lowers the clocks to stay under it");
    }
    if (key == "run.throttle.hw_slowdown") {
        return RunText::tr("hardware slowdown: the clocks are cut by half or more (too hot, or the power supply "
                           "asked for it); tell the provider if it lasts");
    }
    if (key == "run.throttle.sync_boost") {
        return RunText::tr("the clocks follow the slowest GPU of a sync boost group");
    }
    if (key == "run.throttle.thermal") {
        return RunText::tr("the GPU is too hot and slows down: the machine's cooling is not keeping up; tell the "
                           "provider if it lasts");
    }
    if (key == "run.throttle.power_brake") {
        return RunText::tr("the power brake is engaged (the power supply asked for it): the clocks are cut by half "
                           "or more; tell the provider");
    }
    if (key == "run.throttle.display_clocks") {
        return RunText::tr("the clocks are limited by the display clock setting");
    }
    if (key == "run.throttle.other") {
        return RunText::tr("the driver reports a reason this version of GPU Planner does not know");
    }
    return {};
}

/// Why the GPUs are underused, each with what was measured and what to change.
QString adviceText(const std::string& key, const ReasonParams& p)
{
    if (key == "run.advice.data_loader" && p.all({"gpu_util", "cpu_busy"})) {
        return RunText::tr("The GPUs are busy only %1 % of the time while the CPUs are %2 % busy: the data loading "
                           "cannot keep up. Use more DataLoader workers (num_workers), pin_memory=True and "
                           "persistent_workers=True, decode on the GPU with NVIDIA DALI, or read from a faster disk "
                           "(local NVMe instead of network storage).")
            .arg(p.fixed("gpu_util", 0), p.fixed("cpu_busy", 0));
    }
    if (key == "run.advice.small_batch" && p.all({"gpu_util", "memory_share"})) {
        return RunText::tr("The GPUs are busy only %1 % of the time and use %2 % of their memory: the batch is "
                           "probably too small to fill them. Raise the batch size, or keep it and accumulate "
                           "gradients over several steps.")
            .arg(p.fixed("gpu_util", 0), p.fixed("memory_share", 0));
    }
    if (key == "run.advice.host_copies" && p.has("pcie_mbs")) {
        return RunText::tr("Each GPU moves %1 MB/s over PCIe: copies between host and GPU take the time. Keep the "
                           "data on the GPU between steps, and copy from pinned memory with non_blocking=True.")
            .arg(p.fixed("pcie_mbs", 0));
    }
    if (key == "run.advice.no_amp" && p.has("precision")) {
        return RunText::tr("The run trains in %1: the tensor cores stay mostly unused. Use mixed precision "
                           "(torch.autocast with a GradScaler, or bf16 where the GPU has it).")
            .arg(p.text("precision").toUpper());
    }
    if (key == "run.advice.unexplained" && p.has("gpu_util")) {
        return RunText::tr("The GPUs are busy only %1 % of the time, and neither the CPUs, the GPU memory nor PCIe "
                           "explain it: profile a few steps (torch.profiler) to see where the time goes.")
            .arg(p.fixed("gpu_util", 0));
    }
    return {};
}

} // namespace

QString runReasonText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& key = reason.key;
    QString text;
    if (key == "run.monitor.bad_line" && p.has("line")) {
        text = RunText::tr("line %1 of the GPU samples does not read and was skipped: %2")
                   .arg(p.text("line"), p.text("text"));
    } else if (key == "run.sync.listing") {
        text = RunText::tr("%n file(s), %1 to send (.gitignore honoured)", nullptr, p.text("files").toInt())
                   .arg(formatBytes(p.text("bytes").toDouble()));
    } else if (key == "run.sync.rsync") {
        text = RunText::tr("sending with rsync over SSH (only what changed)");
    } else if (key == "run.sync.sftp") {
        const QString why = p.text("why");
        const QString because = why == QLatin1String("jump_host")        ? RunText::tr("rsync cannot use the jump host")
                                : why == QLatin1String("no_local_rsync") ? RunText::tr("this computer has no rsync")
                                : why == QLatin1String("no_remote_rsync") ? RunText::tr("the instance has no rsync")
                                : why == QLatin1String("rsync_login")
                                    ? RunText::tr("rsync's ssh could not log in without asking")
                                    : RunText::tr("as chosen");
        text = RunText::tr("sending over SFTP: %1").arg(because);
    } else if (key == "run.dataset.other_region") {
        text =
            RunText::tr("the dataset's bucket is in %1 and the instance in %2: the cloud bills the transfer between "
                        "regions per GB (GPU Planner has no sourced price for it, so it is not in the plan) and it is "
                        "slower; copy the data to a bucket in %2 first")
                .arg(p.text("bucket_region"), p.text("instance_region"));
    } else if (key == "run.checkpoints.other_region") {
        text = RunText::tr("the checkpoint bucket is in %1 and the instance in %2: every checkpoint sync crosses "
                           "regions, which the cloud bills per GB; a bucket in %2 avoids it")
                   .arg(p.text("bucket_region"), p.text("instance_region"));
    } else if (key == "run.started") {
        text = RunText::tr("the job runs under %1 in %2 on the instance, and goes on if the connection drops")
                   .arg(p.text("method"), p.text("dir"));
    } else if (key.starts_with("run.throttle.")) {
        text = throttleText(key);
    } else if (key.starts_with("run.advice.")) {
        text = adviceText(key, p);
    }
    if (!text.isNull()) {
        return text;
    }
    // A key this version does not word, or one without its figures: the key and its parameters, never nothing.
    QStringList params;
    for (const auto& [name, value] : reason.params) {
        params << QStringLiteral("%1=%2").arg(QString::fromStdString(name), QString::fromStdString(value));
    }
    text = QString::fromStdString(key);
    if (!params.isEmpty()) {
        text += QStringLiteral(" (%1)").arg(params.join(QStringLiteral(", ")));
    }
    return text;
}

QString runStateText(core::RunState state, std::optional<int> exitCode)
{
    switch (state) {
        case core::RunState::Starting:
            return RunText::tr("starting");
        case core::RunState::Running:
            return RunText::tr("running");
        case core::RunState::Finished:
            return RunText::tr("finished");
        case core::RunState::Failed:
            return exitCode ? RunText::tr("failed (exit %1)").arg(*exitCode) : RunText::tr("failed");
        case core::RunState::Stopped:
            return RunText::tr("stopped");
        case core::RunState::Lost:
            return RunText::tr("lost: the instance no longer knows it");
        case core::RunState::Recovering:
            return RunText::tr("recovering: its spot instance was reclaimed");
        case core::RunState::Interrupted:
            return RunText::tr("interrupted: its spot instance was reclaimed");
    }
    return {};
}

} // namespace gpuplan::ui
