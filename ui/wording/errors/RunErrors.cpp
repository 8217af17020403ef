// The words of core's error.run.* and error.recovery.* errors: a run's spec, its sync, its remote job, its results,
// its starter script and its spot recovery.
#include "wording/errors/ErrorWording.h"

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct RunErrors
{
    Q_DECLARE_TR_FUNCTIONS(RunErrors)
};

} // namespace

QString runErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& key = reason.key;
    // The training log's speed (core/run/LogThroughput.cpp).
    if (key == "error.run.bad_regex") {
        return RunErrors::tr("the regular expression \"%1\" does not compile (%2): write it in ECMAScript syntax, "
                             "with the number in its first group, e.g. ([0-9.]+) samples/s")
            .arg(p.text("regex"), p.text("said"));
    }
    if (key == "error.run.regex_no_group") {
        return RunErrors::tr("the regular expression \"%1\" has no group: put the number in parentheses, e.g. "
                             "([0-9.]+) samples/s")
            .arg(p.text("regex"));
    }
    if (key == "error.run.unknown_preset") {
        return RunErrors::tr("unknown log preset \"%1\": choose lightning, hf_trainer, timm, ultralytics or custom")
            .arg(p.text("preset"));
    }
    if (key == "error.run.unknown_unit") {
        return RunErrors::tr("unknown unit \"%1\": the number counts samples, tokens or steps").arg(p.text("unit"));
    }
    // The working directory that goes to the instance (core/run/WorkdirFiles.cpp).
    if (key == "error.run.workdir_not_folder") {
        return RunErrors::tr("the working directory is not a folder: choose the folder that holds the training code");
    }
    if (key == "error.run.folder_unreadable") {
        return RunErrors::tr("cannot list this folder (%1): give yourself read permission, or exclude it")
            .arg(p.text("said"));
    }
    if (key == "error.run.gitignore_unreadable") {
        return RunErrors::tr("cannot read this .gitignore (%1): give yourself read permission").arg(p.text("said"));
    }
    // The spec (core/run/RunSpec.cpp).
    if (key == "error.run.no_command") {
        return RunErrors::tr("no training command: say what runs on the instance, e.g. python train.py");
    }
    if (key == "error.run.no_workdir") {
        return RunErrors::tr("the working directory %1 is not a folder here").arg(p.text("path"));
    }
    if (key == "error.run.no_dataset") {
        return RunErrors::tr("the dataset %1 is neither a folder here nor an object storage URL (s3://, cos://, "
                             "oss://, obs://, gs://, az://)")
            .arg(p.text("path"));
    }
    if (key == "error.run.unknown_storage") {
        return RunErrors::tr("%1: unknown object storage \"%2\" (s3, cos, oss, obs, gs or az)")
            .arg(p.text("url"), p.text("scheme"));
    }
    if (key == "error.run.empty_result_path") {
        return RunErrors::tr("an empty result path: name a file or folder of the working directory");
    }
    if (key == "error.run.result_outside_workdir") {
        return RunErrors::tr("%1 climbs out of the working directory: give a path inside it, or an absolute one")
            .arg(p.text("path"));
    }
    if (key == "error.run.spec_not_object") {
        return RunErrors::tr("the run settings are not a JSON object");
    }
    if (key == "error.run.spec_member") {
        return RunErrors::tr("the run setting \"%1\" must be a %2").arg(p.text("member"), p.text("expected"));
    }
    if (key == "error.run.bad_connection") {
        return RunErrors::tr("the run's login (user, host, port) is not readable: start the run again");
    }
    // On the instance (core/run/RunWorkflow.cpp).
    if (key == "error.run.no_helper") {
        return RunErrors::tr("cannot read GPU Planner's run helper (resources/scripts/gpuplan-run.sh): reinstall "
                             "GPU Planner");
    }
    if (key == "error.run.no_home") {
        return RunErrors::tr("cannot learn the home folder on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.cannot_prepare") {
        return RunErrors::tr("cannot make the run's folders on the instance (is the disk full?): %1")
            .arg(p.text("said"));
    }
    if (key == "error.run.cannot_start") {
        return RunErrors::tr("the job did not start on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.poll_failed") {
        return RunErrors::tr("cannot read the run's state on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.bad_poll") {
        return RunErrors::tr("the instance answered something other than GPU Planner's run helper (%1 unreadable): "
                             "%2")
            .arg(p.text("what"), p.text("said"));
    }
    if (key == "error.run.cannot_stop") {
        return RunErrors::tr("the job could not be stopped, even with SIGKILL: %1").arg(p.text("said"));
    }
    if (key == "error.run.cannot_list_results") {
        return RunErrors::tr("cannot list the results on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.cannot_write_sums") {
        return RunErrors::tr("cannot write the checksums (SHA256SUMS) beside the results");
    }
    if (key == "error.run.cannot_write_list") {
        return RunErrors::tr("cannot write a temporary file here (is /tmp full?)");
    }
    if (key == "error.run.cancelled") {
        return RunErrors::tr("cancelled");
    }
    if (key == "error.run.cannot_start_local") {
        return RunErrors::tr("cannot start %1 on this computer").arg(p.text("program"));
    }
    if (key == "error.run.rsync_unavailable") {
        const QString why = p.text("why");
        const QString because = why == QLatin1String("jump_host") ? RunErrors::tr("rsync cannot go through a jump host")
                                : why == QLatin1String("no_local_rsync")
                                    ? RunErrors::tr("this computer has no rsync or ssh")
                                : why == QLatin1String("no_remote_rsync") ? RunErrors::tr("the instance has no rsync")
                                                                          : why;
        return RunErrors::tr("%1: choose SFTP, or automatic").arg(because);
    }
    if (key == "error.run.rsync_failed") {
        return RunErrors::tr("rsync failed (exit %1): %2").arg(p.text("code"), p.text("said"));
    }
    if (key == "error.run.no_tensorboard_logdir") {
        return RunErrors::tr("this run has no TensorBoard folder: set one (e.g. runs or lightning_logs) before it "
                             "starts");
    }
    if (key == "error.run.no_tensorboard") {
        return RunErrors::tr("TensorBoard is not installed on the instance: add pip install tensorboard to the "
                             "setup commands (%1)")
            .arg(p.text("said"));
    }
    if (key == "error.run.tensorboard_not_listening") {
        return RunErrors::tr("TensorBoard was started but does not answer after a minute: see tensorboard.log in "
                             "the run's folder on the instance");
    }
    // Spot handling (core/run/RunSpec.cpp, core/run/SpotRecovery.cpp).
    if (key == "error.run.no_checkpoint_bucket") {
        return RunErrors::tr(
            "spot handling needs a bucket for the checkpoints (s3://, gs://, oss://, cos://, obs:// or "
            "az://): a reclaimed instance takes its disk with it");
    }
    if (key == "error.run.checkpoint_outside_workdir") {
        return RunErrors::tr("the checkpoint folder \"%1\" must be a folder inside the working directory, e.g. "
                             "checkpoints")
            .arg(p.text("path"));
    }
    if (key == "error.run.unknown_signal") {
        return RunErrors::tr("unknown signal \"%1\": choose USR1, USR2, INT, TERM or HUP").arg(p.text("signal"));
    }
    if (key == "error.run.bad_recovery_counts") {
        return RunErrors::tr("the recovery's counts are out of range: at least one attempt and at most 50, no "
                             "negative interval or limit");
    }
    if (key == "error.run.starter_bad_setting") {
        return RunErrors::tr("the starter script's setting %1 cannot be \"%2\"")
            .arg(p.text("setting"), p.text("value"));
    }
    if (key == "error.run.starter_unknown_placeholder") {
        return RunErrors::tr("the starter script's template has a placeholder {{%1}} that this version does not fill: "
                             "reinstall GPU Planner")
            .arg(p.text("placeholder"));
    }
    if (key == "error.run.starter_missing_placeholder") {
        return RunErrors::tr("the starter script's template lacks the placeholder {{%1}}: it is not this version's; "
                             "reinstall GPU Planner")
            .arg(p.text("placeholder"));
    }
    if (key == "error.recovery.not_asked") {
        return RunErrors::tr("run %1 was not started to recover from interruptions (--recover)").arg(p.text("run"));
    }
    if (key == "error.recovery.run_ended") {
        return RunErrors::tr("run %1 has ended: there is nothing to recover").arg(p.text("run"));
    }
    if (key == "error.recovery.not_launched") {
        return RunErrors::tr("run %1 is not on an instance GPU Planner launched: it cannot be relaunched (start it "
                             "with --instance)")
            .arg(p.text("run"));
    }
    if (key == "error.recovery.not_set_up") {
        return RunErrors::tr("the recovery lacks the catalog, the network or the stored keys: start it again");
    }
    if (key == "error.recovery.gave_up") {
        return RunErrors::tr("the run was reclaimed on each of its %1 instances: it stops here, interrupted; its "
                             "checkpoints stay in the bucket (gpuplan run --attach RUN resumes it)")
            .arg(p.text("attempts"));
    }
    if (key == "error.recovery.nowhere") {
        return RunErrors::tr("no place in the plan's fallback order had capacity (%1): the run is interrupted, its "
                             "checkpoints stay in the bucket; gpuplan run --attach RUN tries again")
            .arg(p.text("tried"));
    }
    if (key == "error.recovery.cancelled") {
        return RunErrors::tr("the recovery was cancelled: gpuplan run --attach RUN takes it up again");
    }
    if (key == "error.recovery.no_login_user") {
        return RunErrors::tr("GPU Planner does not know the login user of %1's image: the run cannot move there")
            .arg(p.text("provider"));
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
